"""Scorers that keep a hit list on what the asker can use: a question naming one of a
hub's frameworks puts the other frameworks' hits behind (search/frameworks.py; one
framework, sources without a package, and questions naming none or all are left alone),
and a nested helper no user can import steps back for usage questions (rank.NestedDef)."""

from __future__ import annotations

from ctxhub.core.knowledge import Signal
from ctxhub.search.analyzer import analyze
from ctxhub.search.frameworks import NamedFramework, framework_names
from ctxhub.search.rank import Candidate
from ctxhub.store.protocol import SourceState
from tests.conftest import make_chunk

SOURCES = [
    SourceState(name="ws", origin="pypi:websockets", stats={"packages": ["websockets"]}),
    SourceState(
        name="ws-sdist", origin="pypi:websockets==17.3", stats={"packages": ["websockets"]}
    ),
    SourceState(
        name="aps", origin="pypi:APScheduler", stats={"packages": ["apscheduler", "tests"]}
    ),
    SourceState(name="guides", origin="/data/guides", stats={"packages": []}),
]


def _cand(source: str, rank: int) -> Candidate:
    chunk = make_chunk(source, f"docs/p{rank}.md", None, "upgrade guide", ordinal=rank)
    return Candidate(chunk=chunk, fused=1.0 / rank, signals={"bm25": Signal(rank=rank, score=1.0)})


def _factors(query: str, sources: list[SourceState] = SOURCES) -> list[float]:
    cands = [_cand("aps", 1), _cand("ws-sdist", 2), _cand("guides", 3), _cand("ws", 4)]
    return NamedFramework(lambda: sources)(analyze(query), cands)


def test_the_framework_a_question_names_keeps_its_place() -> None:
    assert _factors("how do I upgrade from the legacy websockets implementation") == [
        0.6,  # another framework's page
        1.0,
        1.0,  # a source with no package is no framework
        1.0,
    ]
    # the distribution's name counts as the package's (`APScheduler`)
    assert _factors("apscheduler: upgrade from v2") == [1.0, 0.6, 1.0, 0.6]


def test_questions_naming_none_or_all_and_hubs_of_one_framework_are_left_alone() -> None:
    assert _factors("how do I upgrade") == [1.0] * 4
    assert _factors("websockets and apscheduler together") == [1.0] * 4
    assert _factors("websockets upgrade", SOURCES[:2] + SOURCES[3:]) == [1.0] * 4
    # a folder every project has names no framework
    assert _factors("how do I write tests") == [1.0] * 4


def test_a_frameworks_plugins_are_the_framework() -> None:
    flows = SourceState(name="flows", origin="/src/flows", stats={"packages": ["pipecat_flows"]})
    assert framework_names(flows) == {"pipecat"}
    assert framework_names(SOURCES[2]) == {"apscheduler"}


def test_a_nested_helper_steps_back_for_usage_questions_only() -> None:
    from ctxhub.search.rank import NestedDef

    def cand(symbol: str, nested: bool) -> Candidate:
        extra = {"nested_in": symbol.rsplit(".", 1)[0]} if nested else {}
        chunk = make_chunk("s", "pkg/mw.py", symbol, "def body_stream(): ...", extra=extra)
        return Candidate(chunk=chunk, fused=1.0, signals={"bm25": Signal(rank=1, score=1.0)})

    cands = [cand("pkg.mw.Middleware.call.body_stream", True), cand("pkg.mw.StreamingBody", False)]
    scorer = NestedDef()
    assert scorer(analyze("how do I stream a response body"), cands) == [0.8, 1.0]
    assert scorer(analyze("how does the middleware stream the body internally"), cands) == [1.0] * 2
    assert scorer(analyze("RuntimeError: No response returned."), cands) == [1.0] * 2
