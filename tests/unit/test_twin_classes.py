"""Classes that share a name across sibling subpackages (a sync, an asyncio and a private
flavour of `Connection`): trace_calls on the ambiguous short name says so and names the
others, search_api's base_class tells the classes apart by qualified name, and a
listing's rows fold the copies another indexed version holds."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.config import Settings
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.session import HubSession, set_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools import render, search_tools, trace_tools


def _connection(doc: bool) -> str:
    said = '        """Receive the next message."""\n' if doc else ""
    return (
        "class Connection:\n"
        "    def recv(self):\n"
        f"{said}"
        "        data = self.read()\n"
        "        return data\n\n"
        "    def read(self):\n"
        "        return b''\n\n"
        "    def __iter__(self):\n"
        "        yield self.recv()\n"
    )


FILES = {
    "tw/__init__.py": "from tw.asyncio.client import ClientConnection\n",
    "tw/_compat/__init__.py": "",
    "tw/_compat/connection.py": _connection(doc=True),
    "tw/sync/__init__.py": "",
    "tw/sync/connection.py": _connection(doc=False),
    "tw/sync/client.py": (
        "from tw.sync.connection import Connection\n\n\n"
        "class ClientConnection(Connection):\n    pass\n\n\n"
        "class ServerConnection(Connection):\n    pass\n"
    ),
    "tw/asyncio/__init__.py": "",
    "tw/asyncio/connection.py": _connection(doc=True),
    "tw/asyncio/client.py": (
        "from .connection import Connection\n\n\n"
        "class ClientConnection(Connection):\n    pass\n\n\n"
        "class ServerConnection(Connection):\n    pass\n"
    ),
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    root = tmp_path_factory.mktemp("twins")
    specs = []
    for name in ("tw", "tw-copy"):  # one package indexed twice (installed + sdist)
        for rel, text in FILES.items():
            path: Path = root / name / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        specs.append(SourceSpec(name=name, kind=["python"], path=str(root / name)))
    home = root / "home"
    embedder = HashingEmbedder(dim=64)
    with SQLiteStore(home / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        refresh(store, specs, home, embedder)
    set_embedder(embedder)
    with HubSession(Settings(home=home)) as h:
        yield h
    set_embedder(None)


def test_an_ambiguous_name_is_said_and_the_public_documented_one_traced(hub: HubSession) -> None:
    trace = trace_tools.trace_calls(hub, "Connection.recv", "callers", source="tw")
    # public before `_compat`; the flavour `tw/__init__.py` re-exports, and documented,
    # before the sync twin
    assert trace.symbol == "tw.asyncio.connection.Connection.recv"
    assert trace.alternatives == [
        "tw.sync.connection.Connection.recv",
        "tw._compat.connection.Connection.recv",
    ]
    assert trace.chosen_because == (
        "public, from the subpackage tw.asyncio its package re-exports, documented"
    )
    text = render.call_trace(trace)
    assert "ambiguous: 3 definitions have this name; traced tw.asyncio." in text
    assert "tw.sync.connection.Connection.recv" in text
    exact = trace_tools.trace_calls(hub, "tw.sync.connection.Connection.recv", "callers")
    assert exact.alternatives == [] and exact.chosen_because is None


def test_a_caller_gives_the_line_of_its_call(hub: HubSession) -> None:
    trace = trace_tools.trace_calls(hub, "tw.sync.connection.Connection.recv", "callers")
    [node] = trace.nodes
    assert (node.symbol, node.line_start, node.call_line) == (
        "tw.sync.connection.Connection.__iter__",
        9,
        10,
    )
    assert "call at line 10" in render.call_trace(trace)


def test_a_qualified_base_class_lists_that_classes_subclasses_only(hub: HubSession) -> None:
    found = search_tools.search_api(hub, base_class="tw.asyncio.connection.Connection")
    assert [h.symbol for h in found.hits] == [
        "tw.asyncio.client.ClientConnection",
        "tw.asyncio.client.ServerConnection",
    ]
    assert found.total == 2 and found.notice is None
    # each once, the other indexed copy named with it
    assert all([a["source"] for a in h.metadata["also_in"]] == ["tw-copy"] for h in found.hits)


def test_a_bare_base_class_says_which_classes_it_matched(hub: HubSession) -> None:
    found = search_tools.search_api(hub, base_class="Connection")
    assert found.total == 4
    assert found.notice is not None
    assert "subclasses of 2 classes: tw.asyncio.connection.Connection, " in found.notice
    assert "tw.sync.connection.Connection" in found.notice


def test_the_text_of_a_page_says_how_to_get_the_next(hub: HubSession) -> None:
    first = search_tools.search_api(hub, base_class="Connection", limit=1)
    assert first.next_cursor is not None
    head = render.search_response(first).splitlines()[0]
    assert f"next page: call again with cursor={first.next_cursor!r}" in head
    second = search_tools.search_api(
        hub, base_class="Connection", limit=1, cursor=first.next_cursor
    )
    assert [h.symbol for h in second.hits] != [h.symbol for h in first.hits]
