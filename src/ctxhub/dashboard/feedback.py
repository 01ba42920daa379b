"""The feedback page: the queries agents rated not useful, with the hits they rated and
what search gives them now, and the memory records that keep failing."""

from __future__ import annotations

from typing import Any

from ctxhub.core.records import Record
from ctxhub.session import HubSession
from ctxhub.tools.run import call

#: Unhelpful queries listed, and hits shown for each.
QUERIES = 20
HITS = 5
FAILING = 50


def _failing(records: list[Record]) -> list[dict[str, Any]]:
    """Records with more failed than worked ratings, most failures first."""
    bad = [r for r in records if r.not_worked > 0 and r.not_worked >= r.worked]
    bad.sort(key=lambda r: (r.not_worked - r.worked, r.not_worked, r.last_seen), reverse=True)
    return [
        {
            "id": r.id,
            "problem": r.problem[:300],
            "worked": r.worked,
            "not_worked": r.not_worked,
            "occurrences": r.occurrences,
            "source": r.source,
        }
        for r in bad[:FAILING]
    ]


def _hit_row(
    hit: dict[str, Any], ratings: dict[str, tuple[int, int]], rated: dict[str, int]
) -> dict[str, Any]:
    useful, not_useful = ratings.get(hit["id"], (0, 0))
    return {
        "id": hit["id"],
        "kind": hit["kind"],
        "source": hit["source"],
        "path": hit["path"],
        "symbol": hit.get("symbol"),
        "title": hit.get("title", ""),
        "score": hit.get("score"),
        "useful": useful,
        "not_useful": not_useful,
        "rated_for_query": rated.get(hit["id"], 0),
    }


def feedback(hub: HubSession) -> dict[str, Any]:
    """Each unhelpful query with the hits agents rated not useful for it (what they
    got), and the hits `search` gives it now, each with its ratings."""
    queries = []
    for query, count in hub.store.unhelpful_queries(QUERIES):
        rated = dict(hub.store.unhelpful_targets(query, HITS))
        got = [c.model_dump(mode="json") for c in hub.store.get_chunks(list(rated))]
        now = call(hub, "search", query=query, limit=HITS).data["hits"]
        ratings = hub.store.knowledge_feedback([h["id"] for h in [*got, *now]])
        queries.append(
            {
                "query": query,
                "not_useful": count,
                "rated": [_hit_row(h, ratings, rated) for h in got],
                "hits": [_hit_row(h, ratings, rated) for h in now],
            }
        )
    return {"queries": queries, "failing": _failing(list(hub.store.iter_records()))}
