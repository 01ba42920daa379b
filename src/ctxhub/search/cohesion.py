"""Call-graph cohesion: lift API candidates that strong candidates call, or that call them.

"How does the framework do X" is answered by a few functions that call each other: the
public entry point the question names and the internal methods that do the work. Text
similarity finds the entry point; the helpers it calls often rank just below the top
five, because their own text shares fewer of the question's words. A candidate that is
called by (or calls) a strong candidate is more likely part of the answer than one that
only resembles the question, so it is multiplied by `1 + weight * support`, where
`support` sums the neighbours' scores relative to the best candidate (capped).

It applies only to questions about the implementation (`QueryAnalysis.
asks_implementation`): "how do I ..." wants the one public entry point, and lifting
what that entry point calls there pushes internals above it (measured in docs/EVAL.md).

Edges are read from the candidates' own call lists, within the candidate list only (no
store queries): a call `self.name` / `cls.name` links methods of one class, a plain
`name` links definitions of one module (or a top-level definition of that name), a
dotted call `x.y.name` links the definition whose qualified name ends with it (a call on
a typed attribute or local is recorded resolved, `pkg.mod.Class.name`: that method).
A call of the caller's own name links nothing: `App.set_focus` forwarding to
`self.screen.set_focus` (or an override to its base) is the same words twice, and lifting
both together crowds out the rest of the answer (docs/EVAL.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from ctxhub.core.knowledge import Chunk
from ctxhub.search.analyzer import QueryAnalysis
from ctxhub.search.rank import Candidate

_SELF_PREFIXES = ("self.", "cls.", "super().")


def _last(symbol: str) -> str:
    return symbol.rsplit(".", 1)[-1]


def _calls(caller: Chunk, callee: Chunk) -> bool:
    """Whether `caller`'s body calls the definition `callee`, as far as names tell."""
    target = callee.symbol or ""
    name = _last(target)
    if not name or (name.startswith("__") and name.endswith("__")) or target == caller.symbol:
        return False  # dunders are called everywhere; they link nothing (`__helper` does)
    if _last(caller.symbol or "") == name:
        return False  # a forwarder and its delegate: the same words twice, no evidence
    cm, em = caller.metadata, callee.metadata
    for q in cm.extra.get("calls_qualified", ()):
        if _last(q) != name:
            continue
        if q.startswith(_SELF_PREFIXES):
            if em.class_name and em.class_name == cm.class_name and em.module == cm.module:
                return True
        elif "." not in q:
            if em.module == cm.module or target == f"{em.module}.{name}":
                return True
        elif target.endswith("." + q) or target == q:
            return True
    return False


class CallCohesion:
    """Multiply API candidates by how strongly the top of the list calls them or is
    called by them (see the module docstring)."""

    name = "cohesion"

    def __init__(self, weight: float = 0.15, top: int = 10, cap: float = 1.0) -> None:
        self.weight = weight
        self.top = top
        self.cap = cap

    def __call__(self, analysis: QueryAnalysis, candidates: Sequence[Candidate]) -> list[float]:
        api = [c for c in candidates if c.chunk.kind == "api" and c.chunk.symbol]
        if len(api) < 2 or not analysis.asks_implementation:
            return [1.0] * len(candidates)
        strong = sorted(api, key=lambda c: -c.score)[: self.top]
        best = strong[0].score or 1.0
        support: dict[str, float] = {}
        for cand in api:
            total = 0.0
            for other in strong:
                if other is cand:
                    continue
                if _calls(other.chunk, cand.chunk) or _calls(cand.chunk, other.chunk):
                    total += other.score / best
            if total:
                support[cand.chunk.id] = min(total, self.cap)
        return [1.0 + self.weight * support.get(c.chunk.id, 0.0) for c in candidates]
