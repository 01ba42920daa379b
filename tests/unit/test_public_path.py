"""Hits and snippets of a definition kept in a private module name its public import
path: the shortest dotted name a package re-exports it under (`search/reexports.py`,
`Store.exporters`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.core.errors import NotFoundError
from ctxhub.search.reexports import public_paths
from ctxhub.session import HubSession
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools import code_tools, deprecation_tools, search_tools
from ctxhub.tools.render import code_snippet, search_response
from tests.unit.package_hub import tree_hub

BODY = "    waited = 0\n    while waited < delay:\n        waited += 1\n    return waited\n"
FILES = {
    "pk/__init__.py": "from pk._core._tasks import fail_after\nfrom pk._client import Client\n"
    '__all__ = ["fail_after", "Client"]\n',
    "pk/net/__init__.py": "from pk._client import Client\n",
    "pk/_core/__init__.py": "",
    "pk/_core/_tasks.py": "def fail_after(delay):\n"
    '    """Raise a timeout error after the delay in seconds."""\n' + BODY + "\n\n"
    "def hidden_helper(delay):\n"
    '    """Wait for the delay in seconds, a helper nobody exports."""\n' + BODY,
    "pk/_core/_old.py": "import warnings\n\nfrom pk._core._tasks import fail_after\n\n\n"
    "def old_timeout(delay):\n"
    '    """Raise after the delay."""\n'
    '    warnings.warn("old_timeout is deprecated, use fail_after instead", DeprecationWarning)\n'
    "    return fail_after(delay)\n",
    "pk/_client.py": "class Client:\n"
    '    """An HTTP client that sends requests."""\n\n'
    "    def send(self, request):\n"
    '        """Send one request and return its response."""\n'
    "        sent = [request]\n        for part in sent:\n            part.close()\n"
    "        return sent\n",
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with tree_hub(tmp_path_factory.mktemp("public"), "pk", FILES) as h:
        yield h


def test_a_hit_names_its_shortest_public_path(hub: HubSession) -> None:
    response = search_tools.search(hub, "timeout delay seconds send request", kinds=["api"])
    public = {h.symbol: h.metadata.get("public_path") for h in response.hits}
    assert public["pk._core._tasks.fail_after"] == "pk.fail_after"
    assert public["pk._client.Client.send"] == "pk.Client.send"  # through its class
    assert public["pk._core._tasks.hidden_helper"] is None  # exported nowhere
    assert "pk._core._tasks.fail_after (public: pk.fail_after)" in search_response(response)


def test_a_listed_hit_names_its_public_path(hub: HubSession) -> None:
    listed = search_tools.search_api(hub, module="pk._client")
    public = {h.symbol: h.metadata.get("public_path") for h in listed.hits}
    assert public["pk._client.Client"] == "pk.Client"  # not the longer pk.net.Client


def test_a_snippet_names_its_public_path(hub: HubSession) -> None:
    snippet = code_tools.get_code_snippet(hub, symbol="pk.fail_after")
    assert snippet.symbol == "pk._core._tasks.fail_after"
    assert snippet.public_path == "pk.fail_after"
    assert "(public: pk.fail_after)" in code_snippet(snippet)
    helper = code_tools.get_code_snippet(hub, symbol="pk._core._tasks.hidden_helper")
    assert helper.public_path is None


def test_did_you_mean_and_a_replacement_offer_the_public_path(hub: HubSession) -> None:
    with pytest.raises(NotFoundError) as missing:
        code_tools.get_code_snippet(hub, symbol="pk.fail_aftr")
    assert "did you mean pk.fail_after" in str(missing.value)
    report = deprecation_tools.check_deprecation(hub, "pk._core._old.old_timeout")
    assert report.deprecated and report.replacement == "pk.fail_after"


#: `pq` re-exports names that private modules import from other private modules.
CHAINED = {
    "pq/__init__.py": "from pq._hooks import HookimplMarker\nfrom pq._far4 import Far\n"
    "from pq._short import Short\n",
    "pq/sub/__init__.py": "from pq._defs import Short\n",
    "pq/_hooks.py": "from pq._decorators import HookimplMarker\n",
    "pq/_decorators.py": "class HookimplMarker:\n"
    '    """Marks a function as a hook implementation."""\n\n'
    "    def __call__(self, function):\n"
    '        """Mark the function."""\n'
    "        function.marked = True\n        return function\n",
    # a cycle of private imports that leads nowhere public
    "pq/_loop_a.py": "from pq._defs import Looped\nfrom pq._loop_b import Looped\n",
    "pq/_loop_b.py": "from pq._loop_a import Looped\n",
    # more private hops than are followed
    "pq/_far1.py": "from pq._defs import Far\n",
    "pq/_far2.py": "from pq._far1 import Far\n",
    "pq/_far3.py": "from pq._far2 import Far\n",
    "pq/_far4.py": "from pq._far3 import Far\n",
    # exported directly by a subpackage, and through a private hop by the package itself
    "pq/_short.py": "from pq._defs import Short\n",
    "pq/_defs.py": "class Looped:\n"
    '    """Nobody exports it."""\n\n\n'
    "class Far:\n"
    '    """Exported five modules away."""\n\n\n'
    "class Short:\n"
    '    """Exported twice."""\n',
}


@pytest.fixture(scope="module")
def chained(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with tree_hub(tmp_path_factory.mktemp("chained"), "pq", CHAINED) as h:
        yield h


def test_a_re_export_through_private_modules_names_its_public_path(chained: HubSession) -> None:
    snippet = code_tools.get_code_snippet(chained, symbol="pq.HookimplMarker")
    assert snippet.symbol == "pq._decorators.HookimplMarker"
    assert snippet.public_path == "pq.HookimplMarker"
    member = code_tools.get_code_snippet(chained, symbol="pq._decorators.HookimplMarker.__call__")
    assert member.public_path == "pq.HookimplMarker.__call__"  # through its class


def test_private_hops_are_bounded_cycle_safe_and_the_shortest_wins(chained: HubSession) -> None:
    public = public_paths(
        chained.store, ["pq._defs.Looped", "pq._defs.Far", "pq._defs.Short", "pq._far3.Far"]
    )
    assert "pq._defs.Looped" not in public  # the cycle ends, nothing public
    assert "pq._defs.Far" not in public  # four private hops: more than are followed
    assert public["pq._far3.Far"] == "pq.Far"  # one hop nearer: within reach
    assert public["pq._defs.Short"] == "pq.Short"  # not the longer pq.sub.Short


def test_a_store_indexed_before_imports_were_terms_follows_private_hops(tmp_path: Path) -> None:
    from tests.conftest import make_chunk

    path = tmp_path / "old.db"
    hop = make_chunk("pq", "pq/_hooks.py", "pq._hooks", chunk_type="module", imports=["pq._d.M"])
    package = make_chunk(
        "pq", "pq/__init__.py", "pq", chunk_type="module", extra={"exports": ["pq._hooks.M"]}
    )
    with SQLiteStore(path) as store:
        store.replace_file("pq", "pq/_hooks.py", [hop])
        store.replace_file("pq", "pq/__init__.py", [package])
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DELETE FROM chunk_terms WHERE field = 'imports'")  # as stored before
    conn.execute("UPDATE meta SET value = '9' WHERE key = 'schema_version'")
    conn.close()
    with SQLiteStore(path) as store:
        assert public_paths(store, ["pq._d.M"]) == {"pq._d.M": "pq.M"}
