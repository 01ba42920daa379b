"""Why did a query miss? Where each retrieval path ranked each gold item."""

from __future__ import annotations

from pydantic import BaseModel

from ctxhub.core.knowledge import SearchFilters, SearchRequest
from ctxhub.evaluation.matching import RankedHit, matches
from ctxhub.evaluation.queries import EvalQuery
from ctxhub.evaluation.runner import CATEGORY_KINDS, run_tool, structural_filters
from ctxhub.search.retriever import ALL_PATHS, SearchOptions
from ctxhub.session import HubSession


class GoldRanks(BaseModel):
    gold: str
    ranks: dict[str, int | None]  # path or "final" -> 1-based rank within the top 200


def explain(hub: HubSession, q: EvalQuery, depth: int = 200) -> list[GoldRanks]:
    kinds = CATEGORY_KINDS.get(q.category)
    filters = SearchFilters.model_validate(structural_filters(q))
    lists: dict[str, list[RankedHit]] = {}
    for path in ALL_PATHS:
        request = SearchRequest(query=q.query, kinds=kinds, filters=filters, limit=depth)
        response = hub.retriever.search(
            # the declared path runs only for a tool that asks for API to use
            request,
            SearchOptions(
                paths=(path,), scorers=(), collapse=False, public_first=path == "declared"
            ),
        )
        lists[path] = [
            RankedHit(
                source=h.source,
                path=h.path,
                symbol=h.symbol,
                line_start=h.line_start,
                line_end=h.line_end,
            )
            for h in response.hits
        ]
    lists["final"] = run_tool(hub, q)[0]
    out = []
    for g in q.gold:
        ranks = {
            name: next((i for i, h in enumerate(hits, 1) if matches(h, g)), None)
            for name, hits in lists.items()
        }
        label = f"{g.repo}:{g.path}" + (f":{g.symbol}" if g.symbol else "")
        out.append(GoldRanks(gold=label, ranks=ranks))
    return out
