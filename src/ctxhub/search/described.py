"""The symbol path's doc windows: a name the query gives is also looked up among the API
descriptions of Sphinx pages (`extra.describes`, docs/INGESTION.md), below every
definition. A doc chunk has no symbol, so without this a `search_docs` for `lock_task`
had no symbol path at all, and the window that documents it ranked on words alone,
behind ones that share its parts (`PriorityRedisExpireHuey` found a window on
`RedisExpireHuey` first)."""

from __future__ import annotations

from ctxhub.core.knowledge import SearchFilters
from ctxhub.store.protocol import Store

#: The symbol path's score of a doc window describing a name: below a definition's
#: (its matched parts, at least 1) and a name template's (0.5).
DESCRIBED_SCORE = 0.25


def described_docs(
    store: Store, names: list[str], filters: SearchFilters, kinds: list[str] | None, limit: int
) -> list[tuple[str, float]]:
    """Doc windows that describe one of `names` (as written or by its last dotted part,
    case-insensitive), those describing most of them first; none when the request
    excludes docs."""
    if limit <= 0 or (kinds is not None and "doc" not in kinds):
        return []
    wanted = {v for n in names for v in (n.lower().strip("."), n.rsplit(".", 1)[-1].lower())}
    found = store.term_matches("describes", sorted(w for w in wanted if w), filters, ["doc"], limit)
    return [(cid, DESCRIBED_SCORE) for cid, _ in found]
