"""Drill-down: a class overview that ranks on its content brings in its nearest methods.

A class chunk is an overview: its docstring, constructor and one line per method (a long
one is also embedded as windows, docs/RETRIEVAL.md). It can rank high for what is written
somewhere inside it while the methods that do the work share too few of the question's
words to rank on their own: "how does click figure out that '--shout/--no-shout' is an
on/off switch" finds `Option` through its docstring's paragraph on boolean flags, and
`Option._parse_decls`, which splits the slash, is in neither path's top 50; "how is
barge-in handled" finds `InterruptibleTTSService`, not its `push_frame`. Among the
class's own members, though, the hybrid search finds them.

So for a question about the internals, each class chunk in the top `top` hits that ranks
on its content asks for its `members` methods nearest the question (BM25 and dense over
the class's methods, fused by RRF; dunders are left out: `__init__` is already in the
overview, and the others are protocol), and ranks them just above the class: the precise
definitions first, the overview that explains them next. A class ranks on its content
when the query does not name it (no symbol path, no symbol boost), or when a window of it
matched better than its head: a class the query names ranks for its name, and the answer
is often next to it (`ServiceSwitcher` named, `ServiceSwitcherStrategyFailover` the
answer). A member already ranked higher keeps its place. A drilled member records where
it came from in `signals["drill"]` (its rank among the members, its fused score there)
and the factor in its boosts. Measured in docs/EVAL.md ("Drill-down").
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from ctxhub.core.knowledge import Chunk, SearchFilters, Signal
from ctxhub.search.analyzer import QueryAnalysis
from ctxhub.search.rank import Candidate

#: (filters, limit) -> [(chunk id, score)] best first: the hybrid search over a filtered set
MemberSearch = Callable[[SearchFilters, int], list[tuple[str, float]]]
Loader = Callable[[Sequence[str]], list[Chunk]]

#: Class chunks among the first TOP hits are drilled into
TOP = 5
#: Members brought in per class
MEMBERS = 2
#: The first member scores the class's score x LEAD, each next one STEP lower
LEAD = 1.01
STEP = 0.001
MEMBER_TYPES = ("method", "function")


def _dunder(symbol: str | None) -> bool:
    last = (symbol or "").rsplit(".", 1)[-1]
    return last.startswith("__") and last.endswith("__")


def member_filters(parent: Chunk, filters: SearchFilters) -> SearchFilters | None:
    """The request's filters narrowed to `parent`'s methods (None: the request's own
    chunk-type filter admits no method)."""
    types = [t for t in MEMBER_TYPES if not filters.chunk_type or t in filters.chunk_type]
    if not types or not parent.symbol:
        return None
    return filters.model_copy(
        update={
            "source": [parent.source],
            "symbol_prefix": parent.symbol + ".",
            "chunk_type": types,
        }
    )


def drill_down(
    analysis: QueryAnalysis,
    ranked: list[Candidate],
    filters: SearchFilters,
    window_led: Collection[str],
    search: MemberSearch,
    load: Loader,
    *,
    top: int = TOP,
    members: int = MEMBERS,
) -> list[Candidate]:
    """`ranked` (best first) with the nearest methods of its top class chunks that rank on
    their content ranked just above them; unchanged unless the question asks about the
    internals. `window_led`: the chunks whose dense score a window raised."""
    if not analysis.asks_implementation or analysis.is_error or members <= 0:
        return ranked
    by_id = {c.chunk.id: c for c in ranked}
    changed = False
    for parent in list(ranked[:top]):
        chunk = parent.chunk
        if chunk.kind != "api" or chunk.metadata.chunk_type != "class":
            continue
        named = "symbol" in parent.signals or "symbol" in parent.boosts
        if named and chunk.id not in window_led:
            continue
        scoped = member_filters(chunk, filters)
        if scoped is None:
            continue
        found = search(scoped, members + 4)  # room for the dunders left out below
        fresh = {c.id: c for c in load([cid for cid, _ in found if cid not in by_id])}
        picked = [
            (cid, score)
            for cid, score in found
            if (cid in by_id or cid in fresh)
            and not _dunder((by_id[cid].chunk if cid in by_id else fresh[cid]).symbol)
        ][:members]
        for i, (cid, score) in enumerate(picked):
            if cid not in by_id:
                by_id[cid] = Candidate(chunk=fresh[cid], fused=0.0, signals={})
            cand = by_id[cid]
            target = parent.score * (LEAD - STEP * i)
            if cand.score >= target:
                continue
            cand.boosts["drill"] = round(target / cand.score, 4) if cand.score > 0 else LEAD
            cand.signals = {**cand.signals, "drill": Signal(rank=i + 1, score=score)}
            cand.score = target
            changed = True
    if not changed:
        return ranked
    return sorted(by_id.values(), key=lambda c: -c.score)
