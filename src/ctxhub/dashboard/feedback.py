"""The feedback page: the queries agents rated not useful, with what they get, and the
memory records that keep failing."""

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


def feedback(hub: HubSession) -> dict[str, Any]:
    """Each unhelpful query with the hits `search` gives it now and each hit's ratings
    (the store keeps counts per query and per hit: a hit with not-useful ratings is
    most likely what the agent got)."""
    queries = []
    for query, count in hub.store.unhelpful_queries(QUERIES):
        hits = call(hub, "search", query=query, limit=HITS).data["hits"]
        ratings = hub.store.knowledge_feedback([h["id"] for h in hits])
        queries.append(
            {
                "query": query,
                "not_useful": count,
                "hits": [
                    {
                        "id": h["id"],
                        "kind": h["kind"],
                        "source": h["source"],
                        "path": h["path"],
                        "symbol": h.get("symbol"),
                        "title": h.get("title", ""),
                        "score": h["score"],
                        "useful": ratings.get(h["id"], (0, 0))[0],
                        "not_useful": ratings.get(h["id"], (0, 0))[1],
                    }
                    for h in hits
                ],
            }
        )
    return {"queries": queries, "failing": _failing(list(hub.store.iter_records()))}
