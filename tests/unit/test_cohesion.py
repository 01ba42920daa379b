"""The call-graph cohesion scorer: what strong candidates call (or are called by) rises."""

from __future__ import annotations

from ctxhub.core.knowledge import Chunk, ChunkMeta
from ctxhub.search.analyzer import analyze
from ctxhub.search.cohesion import CallCohesion
from ctxhub.search.rank import Candidate, rerank


def _cand(symbol: str, score: float, calls: tuple[str, ...] = (), kind: str = "api") -> Candidate:
    module, _, rest = symbol.partition(":")
    qual = f"{module}.{rest}"
    class_name = rest.rsplit(".", 1)[0] if "." in rest else None
    chunk = Chunk(
        id=qual,
        source="fw",
        kind=kind,  # type: ignore[arg-type]
        path="fw.py",
        symbol=qual,
        content="x",
        embed_text="x",
        metadata=ChunkMeta(
            module=module,
            class_name=class_name,
            calls=[c.rsplit(".", 1)[-1] for c in calls],
            extra={"calls_qualified": list(calls)},
        ),
    )
    return Candidate(chunk=chunk, fused=score, signals={})


def _order(cands: list[Candidate], query: str = "how does fw run the app") -> list[str]:
    return [c.chunk.id for c in rerank(analyze(query), cands, [CallCohesion()])]


def test_a_helper_the_best_candidate_calls_overtakes_a_lookalike() -> None:
    entry = _cand("fw.app:App.run", 1.0, calls=("self._drive", "fw.util.helper"))
    lookalike = _cand("fw.other:Runner.go", 0.5)
    helper = _cand("fw.app:App._drive", 0.45)
    ranked = _order([entry, lookalike, helper])
    assert ranked == ["fw.app.App.run", "fw.app.App._drive", "fw.other.Runner.go"]
    assert helper.boosts["cohesion"] > 1.0 and "cohesion" not in lookalike.boosts


def test_a_caller_of_a_strong_candidate_rises_too() -> None:
    worker = _cand("fw.w:Worker.cancel", 1.0)
    manager = _cand("fw.w:Manager.cancel_group", 0.45, calls=("fw.w.Worker.cancel",))
    other = _cand("fw.x:Thing.stop", 0.5)
    assert _order([worker, other, manager])[1] == "fw.w.Manager.cancel_group"


def test_self_calls_link_one_class_only_and_dunders_link_nothing() -> None:
    entry = _cand("fw.a:A.run", 1.0, calls=("self.step", "self.__init__"))
    other_class = _cand("fw.a:B.step", 0.5)
    dunder = _cand("fw.a:A.__init__", 0.5)
    _order([entry, other_class, dunder])
    assert other_class.boosts == {} and dunder.boosts == {}


def test_a_name_mangled_private_method_is_linked_like_any_other() -> None:
    # `self.__apply_nested_option(...)`: a private helper of the class, not a dunder
    entry = _cand("fw.s:Schema._normalize", 1.0, calls=("self.__apply_option",))
    helper = _cand("fw.s:Schema.__apply_option", 0.45)
    lookalike = _cand("fw.t:Other.apply", 0.5)
    assert _order([entry, lookalike, helper])[1] == "fw.s.Schema.__apply_option"


def test_a_forwarder_and_its_delegate_do_not_lift_each_other() -> None:
    # App.set_focus calls self.screen.set_focus (resolved to Screen.set_focus at ingest)
    forwarder = _cand("fw.app:App.set_focus", 1.0, calls=("fw.screen.Screen.set_focus",))
    delegate = _cand("fw.screen:Screen.set_focus", 0.45)
    other = _cand("fw.x:Thing.stop", 0.5)
    assert _order([forwarder, other, delegate])[1] == "fw.x.Thing.stop"
    assert delegate.boosts == {} and forwarder.boosts == {}


def test_non_api_candidates_are_left_alone() -> None:
    entry = _cand("fw.a:A.run", 1.0, calls=("self.step",))
    page = _cand("fw.a:A.step", 0.5, kind="doc")
    _order([entry, page])
    assert page.boosts == {}


def test_a_usage_question_is_left_alone() -> None:
    entry = _cand("fw.app:App.run", 1.0, calls=("self._drive",))
    lookalike = _cand("fw.other:Runner.go", 0.5)
    helper = _cand("fw.app:App._drive", 0.45)
    ranked = _order([entry, lookalike, helper], query="how do I run the app")
    assert ranked == ["fw.app.App.run", "fw.other.Runner.go", "fw.app.App._drive"]
    assert helper.boosts == {}


def test_implementation_wording_is_told_from_usage_wording() -> None:
    asks = [
        "how does textual cancel the previous worker",
        "where is the timer loop",
        "which code swaps the field names",
        "what happens to queued frames on interruption",
        "how does `cli sdist upload` get split into subcommand runs",  # a quoted subject
    ]
    uses = ["how do I serve static files", "I want to run code at startup", "cache a response"]
    assert all(analyze(q).asks_implementation for q in asks)
    assert not any(analyze(q).asks_implementation for q in uses)
