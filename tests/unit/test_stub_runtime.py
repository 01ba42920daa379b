"""A package that ships type stubs: get_code_snippet and trace_calls answer with the code
that runs, the stub is offered as its typed signature, and a search gives one place to a
stub and its runtime definition (search/stubs.py, tools/resolve.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.core.knowledge import ChunkQuery, SearchRequest, Signal
from ctxhub.search.rank import Candidate
from ctxhub.search.stubs import fold_stubs, is_stub, runtime_definition
from ctxhub.session import HubSession
from ctxhub.tools import call_edges, code_tools, trace_tools
from ctxhub.tools.render import code_snippet
from tests.conftest import make_chunk
from tests.unit.package_hub import package_hub

FILES = {
    # the runtime package re-exports what a private module defines...
    "__init__.py": "from pw._impl import Box, make\n\n__all__ = ['Box', 'make']\n",
    "_impl.py": (
        "def helper(value):\n"
        '    """Double the value."""\n'
        "    doubled = value * 2\n"
        "    return doubled\n\n\n"
        "def make(value):\n"
        '    """Make a box of the value."""\n'
        "    return Box(helper(value))\n\n\n"
        "class Box:\n"
        '    """A box."""\n\n'
        "    def __init__(self, value):\n"
        "        self.value = value\n\n"
        "    def open(self):\n"
        '        """Open the box."""\n'
        "        return helper(self.value)\n\n\n"
        "def parse(text):\n"
        "    return make(int(text))\n"
    ),
    # ...while the stub types the names at the package's top
    "__init__.pyi": (
        "from typing import overload\n\n"
        "@overload\n"
        "def make(value: int) -> Box: ...\n"
        "@overload\n"
        "def make(value: str) -> Box: ...\n\n"
        "class Box:\n"
        "    value: int\n"
        "    def open(self) -> int: ...\n"
    ),
    # a module calling the package's public name
    "use.py": (
        "from pw import make\n\n\ndef use(text):\n    value = int(text)\n    return make(value)\n"
    ),
    # a stub beside its module: the same qualified names
    "errors.py": 'class Oops(Exception):\n    """Something went wrong in the box."""\n',
    "errors.pyi": "class Oops(Exception): ...\n",
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with package_hub(tmp_path_factory.mktemp("stubs"), "pw", FILES) as h:
        yield h


@pytest.mark.parametrize(
    ("asked", "runs"),
    [
        ("pw.make", "pw._impl.make"),
        ("make", "pw._impl.make"),
        ("Box.open", "pw._impl.Box.open"),
        ("pw.Box", "pw._impl.Box"),
        ("pw.errors.Oops", "pw.errors.Oops"),
    ],
)
def test_a_snippet_is_the_code_that_runs_not_its_stub(
    hub: HubSession, asked: str, runs: str
) -> None:
    snippet = code_tools.get_code_snippet(hub, symbol=asked)
    assert snippet.symbol == runs
    assert not snippet.path.endswith(".pyi") and "..." not in snippet.code
    assert snippet.stubs and all(s.symbol.endswith(runs.rsplit(".", 1)[-1]) for s in snippet.stubs)


def test_the_stubs_are_offered_as_the_typed_signatures(hub: HubSession) -> None:
    snippet = code_tools.get_code_snippet(hub, symbol="pw.make")
    assert [(s.symbol, s.path) for s in snippet.stubs] == [("pw.make", "src/pw/__init__.pyi")] * 2
    assert all(s.signature and "value:" in s.signature for s in snippet.stubs)
    assert "pw.make" not in snippet.alternatives  # listed once, as a stub
    text = code_snippet(snippet)
    assert "typed stubs of it" in text and f"id {snippet.stubs[0].id}" in text
    # the stub itself is still there by its id
    by_id = code_tools.get_code_snippet(hub, chunk_id=snippet.stubs[0].id)
    assert by_id.path == "src/pw/__init__.pyi"


def test_a_call_trace_roots_at_the_runtime_definition(hub: HubSession) -> None:
    trace = trace_tools.trace_calls(hub, "pw.make")
    assert (trace.symbol, trace.path) == ("pw._impl.make", "src/pw/_impl.py")
    assert {n.symbol for n in trace.nodes} == {"pw._impl.helper", "pw._impl.Box"}
    callers = trace_tools.trace_calls(hub, "Box.open", direction="callers")
    assert callers.symbol == "pw._impl.Box.open"


def test_a_call_reaches_the_definition_not_its_namesake_stub(hub: HubSession) -> None:
    # `make` is a top-level name twice (the stub's pw.make and pw._impl.make): one
    # definition, so the call resolves instead of reading as ambiguous
    (use,) = hub.store.find_chunks(ChunkQuery(kind="api", symbol="pw.use.use"))
    target = call_edges.resolve_call(hub.store, use, "make", None)
    assert target is not None and target.symbol == "pw._impl.make"


def test_the_runtime_definition_follows_the_recorded_reexports(hub: HubSession) -> None:
    stubs = [
        c
        for sym in ("pw.make", "pw.Box.open", "pw.errors.Oops")
        for c in hub.store.find_chunks(ChunkQuery(kind="api", symbol=sym))
        if is_stub(c)
    ]
    runs = {c.symbol: getattr(runtime_definition(hub.store, c), "path", None) for c in stubs}
    assert runs == {
        "pw.make": "src/pw/_impl.py",
        "pw.Box.open": "src/pw/_impl.py",
        "pw.errors.Oops": "src/pw/errors.py",
    }


def test_a_search_gives_a_stub_and_its_definition_one_place(hub: HubSession) -> None:
    response = hub.retriever.search(SearchRequest(query="Oops", kinds=["api"], limit=10))
    oops = [h for h in response.hits if (h.symbol or "").endswith("Oops")]
    assert [h.path for h in oops] == ["src/pw/errors.py"]
    assert oops[0].metadata["also_at"] == ["pw:src/pw/errors.pyi:1"]


def _cand(symbol: str, path: str, rank: int, **extra: object) -> Candidate:
    chunk = make_chunk("s", path, symbol, f"def {symbol}(): ...", ordinal=rank, extra=dict(extra))
    signals = {"bm25": Signal(rank=rank, score=1.0 / rank)}
    return Candidate(chunk=chunk, fused=1.0 / rank, signals=signals)


def test_a_stub_ranked_first_gives_its_place_to_the_definition() -> None:
    stub = _cand("pkg.run", "pkg/__init__.pyi", 1, overload=True)
    overload = _cand("pkg.run", "pkg/__init__.pyi", 2, overload=True)
    other = _cand("pkg.other", "pkg/other.py", 3)
    runs = _cand("pkg._impl.run", "pkg/_impl.py", 4)
    ranked = [stub, overload, other, runs]
    folded = fold_stubs(ranked, lambda c: runs.chunk if c.symbol == "pkg.run" else None)
    assert [c.chunk.symbol for c in folded] == ["pkg._impl.run", "pkg.other"]
    assert folded[0].score == stub.score and folded[0].signals["bm25"].rank == 1
    assert len(folded[0].duplicates) == 2  # both overloads, as places it is also at
    # without its definition among the candidates, a stub's overloads take one place
    alone = fold_stubs([stub, overload, other], lambda c: None)
    assert [c.chunk.symbol for c in alone] == ["pkg.run", "pkg.other"]


def test_a_stub_whose_definition_was_not_retrieved_is_answered_with_it() -> None:
    # `attrs.define` (a stub) shares no words with `attr._next_gen.define`, so the search
    # retrieves the stub alone: the hit is still the code that runs
    stub = _cand("pkg.run", "pkg/__init__.pyi", 1, overload=True)
    other = _cand("pkg.other", "pkg/other.py", 2)
    runs = make_chunk("s", "pkg/_impl.py", "pkg._impl.run", "def run(): return 1", ordinal=9)
    folded = fold_stubs([stub, other], lambda c: runs if c.symbol == "pkg.run" else None)
    assert [c.chunk.symbol for c in folded] == ["pkg._impl.run", "pkg.other"]
    assert folded[0].score == stub.score and folded[0].signals["bm25"].rank == 1
    assert folded[0].duplicates == ["s:pkg/__init__.pyi:1"]
    # far down the list a stub is looked up only beside a runtime namesake: left as is
    deep = [_cand(f"pkg.f{i}", f"pkg/m{i}.py", i + 1) for i in range(12)] + [stub]
    looked: list[str] = []
    kept = fold_stubs(deep, lambda c: looked.append(c.symbol or "") or runs)
    assert looked == [] and kept[-1].chunk.symbol == "pkg.run"


def test_a_search_for_a_stubbed_name_answers_with_the_runtime_code(hub: HubSession) -> None:
    response = hub.retriever.search(SearchRequest(query="pw.make", kinds=["api"], limit=5))
    assert response.hits[0].symbol == "pw._impl.make"
    assert not any((h.path or "").endswith(".pyi") for h in response.hits[:1])
