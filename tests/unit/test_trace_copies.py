"""trace_calls lists a caller once when two sources index the same version of its
package (the installed wheel beside the release's sdist): the other copy rides along in
the node's `also_in`, as a search folds copies."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.session import HubSession
from ctxhub.tools import render, trace_tools
from tests.unit.package_hub import trees_hub

CORE = {
    "db/__init__.py": "",
    "db/base.py": "class Database:\n"
    "    def connect(self, retries=1):\n"
    "        tried = 0\n        while tried < retries:\n            tried += 1\n"
    "        return tried\n\n"
    "    def open(self):\n"
    "        opened = self.connect()\n        print(opened)\n        return opened\n",
}
EXT = {
    "ext/__init__.py": "",
    "ext/impl.py": "from db.base import Database\n\n\n"
    "class Pooled(Database):\n"
    "    def cursor(self, closed=False):\n"
    "        if closed:\n            self.connect()\n        rows = []\n"
    "        for row in rows:\n            print(row)\n        return rows\n\n\n"
    "def fetch(pool: Pooled, closed=False):\n"
    "    rows = pool.cursor(closed)\n    print(rows)\n    return rows\n",
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    trees = {"core": CORE, "ext-wheel": EXT, "ext-sdist": EXT}
    with trees_hub(tmp_path_factory.mktemp("trace-copies"), trees) as h:
        yield h


def test_a_caller_indexed_twice_is_one_node_naming_the_other_copy(hub: HubSession) -> None:
    trace = trace_tools.trace_calls(hub, "db.base.Database.connect", "callers")
    symbols = [n.symbol for n in trace.nodes]
    assert sorted(symbols) == ["db.base.Database.open", "ext.impl.Pooled.cursor"]
    cursor = next(n for n in trace.nodes if n.symbol == "ext.impl.Pooled.cursor")
    (kept,) = hub.store.get_chunks([cursor.id])
    assert [c.source for c in cursor.also_in] == sorted({"ext-wheel", "ext-sdist"} - {kept.source})
    assert "also in ext-" in render.call_trace(trace)


def test_copies_are_folded_at_every_depth(hub: HubSession) -> None:
    trace = trace_tools.trace_calls(hub, "db.base.Database.connect", "callers", depth=2)
    deeper = [n for n in trace.nodes if n.depth == 2]
    assert [n.symbol for n in deeper] == ["ext.impl.fetch"]
    assert len(deeper[0].also_in) == 1
