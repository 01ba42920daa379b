"""Run labelled queries through the knowledge tools and score what comes back.

Each category goes through the tool an agent would call for it (see CATEGORY_TOOL), so
the eval measures the MCP tools' own code path, not a private shortcut.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, Field

from ctxhub.core.errors import NotFoundError
from ctxhub.core.knowledge import Hit, HitKind, SearchResponse
from ctxhub.core.limits import MAX_API_PAGE
from ctxhub.core.outputs import CodeSnippet
from ctxhub.evaluation import metrics
from ctxhub.evaluation.matching import RankedHit, credit
from ctxhub.evaluation.queries import EvalQuery
from ctxhub.search.analyzer import analyze
from ctxhub.search.retriever import ALL_PATHS, SearchOptions
from ctxhub.session import HubSession
from ctxhub.tools.run import call

CATEGORY_TOOL = {
    "symbol": "get_code_snippet + search_api",
    "api": "search_api",
    "yields": "search_api(yields=...)",
    "calls": "search_api(calls=...)",
    "docs": "search_docs",
    "examples": "search_examples",
    "error": "search",
}
DEPTH = 10
#: The kinds each category's tool searches (for diagnostics that run one path at a time).
CATEGORY_KINDS: dict[str, list[HitKind] | None] = {
    "symbol": ["api"],
    "api": ["api"],
    "yields": ["api"],
    "calls": ["api"],
    "docs": ["doc"],
    "examples": ["example", "doc"],
    "error": None,
}


class QueryResult(BaseModel):
    id: str
    category: str
    query: str
    recall5: float
    mrr10: float
    ndcg10: float
    set_precision: float | None = None
    set_recall: float | None = None
    set_size: int | None = None
    top: list[str] = Field(default_factory=list)  # what came back (source:path:symbol)
    missed: list[str] = Field(default_factory=list)  # gold items not in the top 5
    ms: float = 0.0


class CategoryScore(BaseModel):
    category: str
    n: int
    recall5: float
    mrr10: float
    ndcg10: float
    set_precision: float | None = None
    set_recall: float | None = None


class EvalReport(BaseModel):
    variant: str
    overall: CategoryScore
    categories: list[CategoryScore]
    queries: list[QueryResult]


def _ranked(hit: Hit) -> RankedHit:
    return RankedHit(
        source=hit.source,
        path=hit.path,
        symbol=hit.symbol,
        line_start=hit.line_start,
        line_end=hit.line_end,
    )


def _label(h: RankedHit) -> str:
    where = f"{h.source}:{h.path}"
    return f"{where}:{h.symbol}" if h.symbol else where


def symbol_argument(query: str) -> str | None:
    """The name an agent would pass as `symbol`: dotted first, then CamelCase, then snake."""
    names = analyze(query).identifiers
    for pick in (lambda n: "." in n, lambda n: n[:1].isupper(), lambda n: True):
        found = [n for n in names if pick(n)]
        if found:
            return found[0]
    return None


def _dedupe(hits: Sequence[RankedHit]) -> list[RankedHit]:
    seen: set[tuple[str, str, str | None, int | None]] = set()
    out = []
    for h in hits:
        key = (h.source, h.path, h.symbol, h.line_start)
        if key not in seen:
            seen.add(key)
            out.append(h)
    return out


def _call(hub: HubSession, tool: str, **arguments: object) -> BaseModel:
    """A tool exactly as an MCP client calls it (tools/run.py)."""
    return call(hub, tool, **arguments).output


def _hits(hub: HubSession, tool: str, **arguments: object) -> SearchResponse:
    found = _call(hub, tool, **arguments)
    assert isinstance(found, SearchResponse)
    return found


def structural_filters(q: EvalQuery) -> dict[str, str]:
    """The search_api filters of a yields/calls query."""
    filters = {k: v for k, v in q.filters.items() if k in ("yields", "calls")}
    if "calls" in filters:
        # the gold calls sets are bodies containing `self.<name>(` (README): no super()
        filters["calls_via"] = "self"
    return filters


def run_tool(hub: HubSession, q: EvalQuery) -> tuple[list[RankedHit], list[RankedHit] | None]:
    """(ranked hits, full filtered set or None) for one query, through the MCP tools."""
    if q.category == "symbol":
        hits: list[RankedHit] = []
        name = symbol_argument(q.query)
        try:
            snippet = _call(hub, "get_code_snippet", symbol=name, intent=q.query)
            assert isinstance(snippet, CodeSnippet)
            hits.append(
                RankedHit(
                    source=snippet.source,
                    path=snippet.path,
                    symbol=snippet.symbol,
                    line_start=snippet.full_line_start,
                    line_end=snippet.full_line_end,
                )
            )
        except NotFoundError:
            pass
        hits += [_ranked(h) for h in _hits(hub, "search_api", query=q.query, limit=DEPTH).hits]
        return _dedupe(hits), None
    if q.category in ("yields", "calls"):
        filters = structural_filters(q)
        first = _hits(hub, "search_api", query=q.query, limit=DEPTH, **filters)
        full = [_ranked(h) for h in first.hits]
        cursor = first.next_cursor
        while cursor:
            page = _hits(
                hub, "search_api", query=q.query, limit=MAX_API_PAGE, cursor=cursor, **filters
            )
            full += [_ranked(h) for h in page.hits]
            cursor = page.next_cursor
        return [_ranked(h) for h in first.hits], full
    tool = {"api": "search_api", "docs": "search_docs", "examples": "search_examples"}.get(
        q.category, "search"
    )
    return [_ranked(h) for h in _hits(hub, tool, query=q.query, limit=DEPTH).hits], None


def score_query(hub: HubSession, q: EvalQuery) -> QueryResult:
    started = time.perf_counter()
    hits, full = run_tool(hub, q)
    ms = (time.perf_counter() - started) * 1000
    credits = credit(hits[:5], q.gold)
    found = {c for c in credits if c is not None}
    result = QueryResult(
        id=q.id,
        category=q.category,
        query=q.query,
        recall5=metrics.recall_at(hits, q.gold, 5),
        mrr10=metrics.mrr_at(hits, q.gold, DEPTH),
        ndcg10=metrics.ndcg_at(hits, q.gold, DEPTH),
        top=[_label(h) for h in hits[:5]],
        missed=[
            f"{g.repo}:{g.path}" + (f":{g.symbol}" if g.symbol else "")
            for i, g in enumerate(q.gold)
            if i not in found
        ],
        ms=round(ms, 1),
    )
    if full is not None:
        result.set_precision, result.set_recall = metrics.set_precision_recall(full, q.gold)
        result.set_size = len(full)
    return result


def _mean(values: Sequence[float]) -> float:
    return round(sum(values) / len(values), 4) if values else 0.0


def aggregate(category: str, results: Sequence[QueryResult]) -> CategoryScore:
    precisions = [r.set_precision for r in results if r.set_precision is not None]
    recalls = [r.set_recall for r in results if r.set_recall is not None]
    return CategoryScore(
        category=category,
        n=len(results),
        recall5=_mean([r.recall5 for r in results]),
        mrr10=_mean([r.mrr10 for r in results]),
        ndcg10=_mean([r.ndcg10 for r in results]),
        set_precision=_mean(precisions) if precisions else None,
        set_recall=_mean(recalls) if recalls else None,
    )


@dataclass
class Variant:
    name: str
    options: SearchOptions | None  # None: the retriever's defaults


#: Every re-rank scorer (and the drill-down) a search_api call runs, for the "full, no X"
#: variants.
_SCORERS = ("symbol", "literal", "feedback", "currency", "kind", "cohesion", "public", "drill")


def _all_but(name: str) -> SearchOptions:
    return SearchOptions(scorers=tuple(s for s in _SCORERS if s != name))


def ablation_variants() -> list[Variant]:
    return [
        Variant("bm25 only", SearchOptions(paths=("bm25",), scorers=())),
        Variant("dense only", SearchOptions(paths=("dense",), scorers=())),
        Variant("symbol only", SearchOptions(paths=("symbol",), scorers=())),
        Variant("hybrid, no re-rank", SearchOptions(scorers=())),
        Variant("hybrid + symbol boost", SearchOptions(scorers=("symbol",))),
        Variant("hybrid + literal match", SearchOptions(scorers=("literal",))),
        Variant("hybrid + kind preference", SearchOptions(scorers=("kind",))),
        Variant("hybrid + call cohesion", SearchOptions(scorers=("cohesion",))),
        Variant("hybrid + public first", SearchOptions(scorers=("public",))),
        Variant("full, no call cohesion", _all_but("cohesion")),
        Variant("full, no public first", _all_but("public")),
        Variant("full, no drill-down", _all_but("drill")),
        Variant(
            "full, no declared path",
            SearchOptions(paths=tuple(p for p in ALL_PATHS if p != "declared")),
        ),
    ]


def run(
    hub: HubSession, queries: Sequence[EvalQuery], variant: Variant | None = None
) -> EvalReport:
    hub.retriever.ablation = variant.options if variant else None
    try:
        results = [score_query(hub, q) for q in queries]
    finally:
        hub.retriever.ablation = None
    by_cat: dict[str, list[QueryResult]] = defaultdict(list)
    for r in results:
        by_cat[r.category].append(r)
    return EvalReport(
        variant=variant.name if variant else "full",
        overall=aggregate("overall", results),
        categories=[aggregate(c, rs) for c, rs in by_cat.items()],
        queries=results,
    )
