"""Turning ranked candidates into Hits that fit a token budget.

The budget trims snippets, never citations: every hit keeps its id, path, symbol, lines
and metadata; only the snippet text shrinks (on a line boundary) to fit `max_tokens`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from ctxhub.core.budget import estimate_tokens, trim
from ctxhub.core.knowledge import Chunk, Hit
from ctxhub.search.rank import Candidate

#: Snippet length when the budget is not the constraint.
SNIPPET_CHARS = 1200
#: Lists longer than this in hit metadata are cut (the full lists stay in the store).
META_LIST_CAP = 25
#: Tokens held back for the response envelope (confidence, next_queries, ...).
ENVELOPE_TOKENS = 150


def hit_metadata(chunk: Chunk) -> dict[str, Any]:
    # `capabilities` only widens the tags filter; `tags` says what sets a hit apart
    meta = chunk.metadata.model_dump(exclude_defaults=True, exclude={"capabilities"})
    extra = meta.pop("extra", {})
    for key, value in list(meta.items()):
        if isinstance(value, list) and len(value) > META_LIST_CAP:
            meta[key] = value[:META_LIST_CAP]
            meta[f"{key}_total"] = len(value)
    for key, value in extra.items():
        if isinstance(value, (str, int, float, bool)) and len(str(value)) <= 300:
            meta.setdefault(key, value)
    return meta


def display_norm(fused_norm: float, scores: Iterable[float]) -> float:
    """What hit scores are divided by: the fused score of a hit ranked first by every
    path that returned, or the best re-ranked score when boosts lift it higher. Capping
    each at 1.0 instead made every boosted hit read 1.00, so the scores stopped telling
    the top hits apart."""
    return max(fused_norm, max(scores, default=0.0))


def to_hits(
    ranked: Sequence[Candidate], norm: float, max_tokens: int, snippet_chars: int = SNIPPET_CHARS
) -> tuple[list[Hit], bool]:
    """Hits with snippets trimmed so that the whole list fits max_tokens; `truncated` says
    whether anything (a snippet's tail, or the lowest-ranked hits) was left out. A hit's
    0-1 `score` is its re-ranked score over `norm` (`display_norm`)."""
    hits = [_hit(c, norm) for c in ranked]
    costs = [estimate_tokens(h.model_dump_json(exclude={"snippet"})) for h in hits]
    # Citations first: when even they do not fit, the lowest-ranked hits go.
    dropped = False
    while len(hits) > 1 and sum(costs) > max_tokens - ENVELOPE_TOKENS:
        hits.pop()
        costs.pop()
        dropped = True
    ranked = ranked[: len(hits)]
    overhead = sum(costs)
    room = max(0, max_tokens - ENVELOPE_TOKENS - overhead)
    per_hit = min(snippet_chars, (room * 3) // max(1, len(hits)))
    truncated = dropped
    for hit, cand in zip(hits, ranked, strict=True):
        hit.snippet, cut = trim(cand.chunk.content, per_hit)
        truncated = truncated or cut
    return hits, truncated


def _hit(cand: Candidate, norm: float) -> Hit:
    chunk = cand.chunk
    metadata = hit_metadata(chunk)
    if cand.boosts:
        metadata["boosts"] = cand.boosts
    if cand.duplicates:
        metadata["also_at"] = cand.duplicates[:5]
    return Hit(
        id=chunk.id,
        kind=chunk.kind,
        source=chunk.source,
        path=chunk.path,
        symbol=chunk.symbol,
        title=chunk.title,
        section=chunk.section,
        line_start=chunk.line_start,
        line_end=chunk.line_end,
        url=chunk.url,
        version=chunk.version,
        score=round(min(1.0, cand.score / norm), 4) if norm > 0 else 0.0,
        signals=cand.signals,
        metadata=json.loads(json.dumps(metadata, default=str)),
    )
