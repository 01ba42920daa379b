"""trace_calls lists a caller once when two sources index the same version of its
package (the installed wheel beside the release's sdist): the other copy rides along in
the node's `also_in`, as a search folds copies. Only a known version folds, and only the
same text: two unversioned codebases, or a checkout edited since its release, are two
callers. A folded copy's source is due its "refresh due" note as the kept one's is."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.session import HubSession
from ctxhub.tools import code_tools, render, trace_tools
from ctxhub.tools import hub_status as hub_status_module
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


def _release(version: str) -> dict[str, str]:
    """The project metadata that gives a folder source its version."""
    return {"pyproject.toml": f'[project]\nname = "ext"\nversion = "{version}"\n'}


#: the same release's code with one more line in `cursor`: a checkout edited since
EDITED = {
    **EXT,
    "ext/impl.py": EXT["ext/impl.py"].replace("rows = []\n", "rows = []\n        rows.clear()\n"),
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    release = {**EXT, **_release("1.0")}
    trees = {"core": CORE, "ext-wheel": release, "ext-sdist": release}
    with trees_hub(tmp_path_factory.mktemp("trace-copies"), trees) as h:
        yield h


@pytest.fixture(scope="module")
def apart(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    trees = {
        "core": CORE,
        "fork-a": EXT,  # no version: two codebases that happen to agree
        "fork-b": EXT,
        "ext-release": {**EXT, **_release("2.0")},
        "ext-checkout": {**EDITED, **_release("2.0")},
    }
    with trees_hub(tmp_path_factory.mktemp("trace-apart"), trees) as h:
        yield h


def test_a_caller_indexed_twice_is_one_node_naming_the_other_copy(hub: HubSession) -> None:
    trace = trace_tools.trace_calls(hub, "db.base.Database.connect", "callers")
    symbols = [n.symbol for n in trace.nodes]
    assert sorted(symbols) == ["db.base.Database.open", "ext.impl.Pooled.cursor"]
    cursor = next(n for n in trace.nodes if n.symbol == "ext.impl.Pooled.cursor")
    (kept,) = hub.store.get_chunks([cursor.id])
    assert kept.version == "1.0"
    assert [c.source for c in cursor.also_in] == sorted({"ext-wheel", "ext-sdist"} - {kept.source})
    assert "also in v1.0 (ext-" in render.call_trace(trace)


def test_copies_are_folded_at_every_depth(hub: HubSession) -> None:
    trace = trace_tools.trace_calls(hub, "db.base.Database.connect", "callers", depth=2)
    deeper = [n for n in trace.nodes if n.depth == 2]
    assert [n.symbol for n in deeper] == ["ext.impl.fetch"]
    assert len(deeper[0].also_in) == 1


def test_a_folded_copys_source_gets_its_refresh_note(
    hub: HubSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub_status_module, "_looked_up", {})
    monkeypatch.setattr(
        hub_status_module, "environment_note", lambda origin, indexed: "refresh due: 9.9"
    )
    trace = trace_tools.trace_calls(hub, "db.base.Database.connect", "callers")
    noted = {n.split(":", 1)[0] for n in trace.source_notes}
    # the root's, the kept copy's and the folded copy's: the node stands for both
    assert noted == {"core", "ext-wheel", "ext-sdist"}


def _cursor_sources(hub: HubSession) -> list[tuple[str, list[str]]]:
    trace = trace_tools.trace_calls(hub, "db.base.Database.connect", "callers")
    out = []
    for node in trace.nodes:
        if node.symbol == "ext.impl.Pooled.cursor":
            (chunk,) = hub.store.get_chunks([node.id])
            out.append((chunk.source, [c.source for c in node.also_in]))
    return sorted(out)


def test_unversioned_or_differing_copies_are_not_folded(apart: HubSession) -> None:
    assert _cursor_sources(apart) == [
        ("ext-checkout", []),
        ("ext-release", []),
        ("fork-a", []),
        ("fork-b", []),
    ]


def test_the_answers_own_copy_is_folded_not_offered(hub: HubSession) -> None:
    """The root of a trace and a snippet's definition, indexed by the wheel and the
    sdist at one version: the other copy is `also_in`, not another match to pick."""
    snippet = code_tools.get_code_snippet(hub, symbol="ext.impl.Pooled.cursor")
    (other,) = {"ext-wheel", "ext-sdist"} - {snippet.source}
    assert [c.source for c in snippet.also_in] == [other]
    assert not any("source " in a for a in snippet.alternatives)
    assert f"also in v1.0 ({other})" in render.code_snippet(snippet)
    trace = trace_tools.trace_calls(hub, "ext.impl.Pooled.cursor")
    assert [c.source for c in trace.also_in] == [other] and not trace.other_sources


def test_a_differing_copy_stays_another_match(apart: HubSession) -> None:
    snippet = code_tools.get_code_snippet(
        apart, symbol="ext.impl.Pooled.cursor", source="ext-release"
    )
    assert not snippet.also_in
    everywhere = code_tools.get_code_snippet(apart, symbol="ext.impl.Pooled.cursor")
    assert not everywhere.also_in
    assert everywhere.alternatives  # the other codebases and the edited checkout
