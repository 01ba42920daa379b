"""Calls through super() and typed attributes, from indexing to the tools: trace_calls,
search_api's `calls` / `calls_via` filters, their renderings, and stores indexed before
receivers were recorded."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.core.errors import InputError
from ctxhub.core.knowledge import SearchFilters
from ctxhub.evaluation.queries import EvalQuery
from ctxhub.evaluation.runner import structural_filters
from ctxhub.session import HubSession
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools import code_tools, render, search_tools, trace_tools
from ctxhub.tools.run import call, failure
from ctxhub.tools.specs import BY_NAME
from tests.unit.package_hub import package_hub

FILES = {
    "base.py": """
        class Processor:
            def push_frame(self, frame):
                frame = frame or None
                print(frame)
                return frame

            def process_frame(self, frame):
                self.push_frame(frame)
                return frame
        """,
    "client.py": """
        class Client:
            def send(self, data):
                data = data or None
                print(data)
                return data


        class Other:
            def send(self, data):
                data = data or None
                print("other", data)
                return data
        """,
    "impl.py": """
        from trk.base import Processor
        from trk.client import Client


        class Override(Processor):
            def push_frame(self, frame):
                return super().push_frame(frame)


        class User(Processor):
            def __init__(self, client: Client, other):
                self.client = client
                self.other = other

            def run(self, frame):
                self.client.send(frame)
                self.other.send(frame)
                return frame
        """,
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with package_hub(tmp_path_factory.mktemp("receivers-home"), "trk", FILES) as h:
        yield h


def test_an_override_calling_super_is_a_caller_and_says_so(hub: HubSession) -> None:
    trace = trace_tools.trace_calls(hub, "Processor.push_frame", "callers")
    by_symbol = {n.symbol: n for n in trace.nodes}
    override = by_symbol["trk.impl.Override.push_frame"]
    assert (override.name, override.through) == ("super().push_frame", "super()")
    plain = by_symbol["trk.base.Processor.process_frame"]
    assert (plain.name, plain.through) == ("self.push_frame", None)
    text = render.call_trace(trace)
    # the caller's def line is cited, and the line of the call itself
    assert "(as super().push_frame, via super(), call at line 8)" in text
    assert "(as self.push_frame, call at line " in text


def test_the_calls_filter_counts_super_unless_asked_for_self_only(hub: HubSession) -> None:
    def listed(**filters: str) -> dict[str, object]:
        found = search_tools.search_api(hub, calls="push_frame", **filters)  # type: ignore[arg-type]
        return {h.symbol or "": h.metadata.get("match_via") for h in found.hits}

    assert listed() == {
        "trk.impl.Override.push_frame": ["super()"],
        "trk.base.Processor.process_frame": None,
    }
    assert listed(calls_via="self") == {"trk.base.Processor.process_frame": None}
    assert listed(calls_via="super") == {"trk.impl.Override.push_frame": ["super()"]}
    text = render.search_response(search_tools.search_api(hub, calls="push_frame"))
    assert "calls match via super()" in text
    with pytest.raises(InputError, match="give calls too"):
        search_tools.search_api(hub, calls_via="super")


def test_calls_via_is_declared_and_validated_for_mcp_and_cli(hub: HubSession) -> None:
    fields = BY_NAME["search_api"].args.model_fields
    assert fields["calls_via"].default == "any"
    with pytest.raises(Exception) as caught:
        call(hub, "search_api", calls="push_frame", calls_via="base")
    said = failure(BY_NAME["search_api"], caught.value) or ""
    assert "calls_via" in said and "'any', 'self', 'super', 'attribute' or 'local'" in said


def test_a_typed_attribute_call_reaches_its_class_and_no_other(hub: HubSession) -> None:
    up = trace_tools.trace_calls(hub, "trk.client.Client.send", "callers")
    assert [(n.symbol, n.name, n.through) for n in up.nodes] == [
        ("trk.impl.User.run", "self.client.send", "self.client")
    ]
    assert "(as self.client.send, via self.client, call at line 17)" in render.call_trace(up)
    # self.other has no stated class: User.run is no caller of Other.send
    assert trace_tools.trace_calls(hub, "trk.client.Other.send", "callers").nodes == []
    down = trace_tools.trace_calls(hub, "User.run")
    assert [(n.symbol, n.through) for n in down.nodes] == [
        ("trk.client.Client.send", "self.client")
    ]
    found = search_tools.search_api(hub, calls="send", calls_via="attribute")
    assert [(h.symbol, h.metadata["match_via"]) for h in found.hits] == [
        ("trk.impl.User.run", ["self.client"])
    ]
    snippet = code_tools.get_code_snippet(hub, symbol="User.run")
    assert [(c.name, c.through) for c in snippet.companions] == [
        ("self.client.send", "self.client")
    ]
    assert "- self.client.send via self.client -> trk.client.Client.send" in render.code_snippet(
        snippet
    )


def test_the_eval_harness_asks_structural_calls_for_self_calls_only() -> None:
    q = EvalQuery.model_validate(
        {"id": "x", "category": "calls", "query": "q", "filters": {"calls": "f"}, "gold": []}
    )
    assert structural_filters(q) == {"calls": "f", "calls_via": "self"}


def test_a_store_indexed_before_receivers_answers_without_a_re_index(tmp_path: Path) -> None:
    from tests.conftest import make_chunk

    path = tmp_path / "old.db"
    # as the call graph wrote them before: super().push_frame in calls_qualified only
    override = make_chunk(
        "fw",
        "fw/impl.py",
        "fw.impl.Override.push_frame",
        chunk_type="method",
        calls=["log"],
        extra={"calls_qualified": ["super().push_frame", "self.log"], "extends_super": True},
    )
    with SQLiteStore(path) as store:
        store.replace_file("fw", "fw/impl.py", [override])
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DELETE FROM chunk_terms WHERE field != 'calls'")  # terms of the old shape
    conn.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
    conn.close()

    def found(**filters: str) -> list[str]:
        ids, _ = store.list_ids(SearchFilters.model_validate(filters), ["api"], limit=10)
        return ids

    with SQLiteStore(path) as store:
        assert found(calls="push_frame") == [override.id]
        assert found(calls="push_frame", calls_via="super") == [override.id]
        assert found(calls="push_frame", calls_via="self") == []
        assert found(calls="log", calls_via="self") == [override.id]
