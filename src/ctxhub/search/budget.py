"""Turning ranked candidates into Hits that fit a token budget.

The budget trims snippets, never citations: every hit keeps its id, path, symbol and
lines. What is not the answer gives way first: a long signature is shown elided, a tight
budget reduces metadata to the keys that identify the definition, then the snippets
shrink (on a line boundary), and only then do the lowest-ranked hits go, counted in
`left_out` so the response can say so.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from ctxhub.core.budget import elide_signature, estimate_tokens, token_chars, trim_lines
from ctxhub.core.knowledge import Chunk, Hit
from ctxhub.search.collapse import page_sections
from ctxhub.search.parameter_sections import trim_keeping_parameters
from ctxhub.search.rank import Candidate

#: Snippet length when the budget is not the constraint.
SNIPPET_CHARS = 1200
#: Lists longer than this in hit metadata are cut (the full lists stay in the store).
META_LIST_CAP = 25
#: Tokens held back for the response envelope (confidence, next_queries, ...).
ENVELOPE_TOKENS = 150
#: A signature's length in hit metadata, and when the budget is tight: typer's
#: `Annotated[..., Doc("...")]` parameters make signatures of 20,000 characters, which
#: crowded the code and the other hits out of every response.
SIGNATURE_CHARS = 400
SLIM_SIGNATURE_CHARS = 160
#: What a hit's metadata keeps when the budget is tight (`included_from`/`included_parts`:
#: where a doc chunk's included text is, which its page lines do not show; `supplement`:
#: a docs page that follows search_examples' examples, search/examples_first.py).
CORE_METADATA = frozenset(
    {
        "chunk_type",
        "signature",
        "deprecated",
        "example",
        "tags",
        "public_path",
        "nested_in",
        "also_in",
        "included_from",
        "included_parts",
        "also_on_page",
        "supplement",
    }
)
#: Lists from a chunk's `extra` a hit carries (other lists there stay in the store).
EXTRA_LISTS = frozenset({"included_parts", "describes"})
#: The least snippet a hit is kept with (its first lines): a hit list is cut before its
#: hits' code is reduced to `…`.
MIN_SNIPPET_CHARS = 120


class FittedHits(NamedTuple):
    hits: list[Hit]
    truncated: bool  # a snippet's tail, metadata, or hits were left out
    left_out: int  # the lowest-ranked hits dropped because they did not fit


def hit_metadata(chunk: Chunk) -> dict[str, Any]:
    # `capabilities` only widens the tags filter; `tags` says what sets a hit apart
    meta = chunk.metadata.model_dump(exclude_defaults=True, exclude={"capabilities"})
    if isinstance(meta.get("signature"), str):
        meta["signature"] = elide_signature(meta["signature"], SIGNATURE_CHARS)
    extra = meta.pop("extra", {})
    for key, value in list(meta.items()):
        if isinstance(value, list) and len(value) > META_LIST_CAP:
            meta[key] = value[:META_LIST_CAP]
            meta[f"{key}_total"] = len(value)
    for key, value in extra.items():
        if isinstance(value, (str, int, float, bool)) and len(str(value)) <= 300:
            meta.setdefault(key, value)
        elif key in EXTRA_LISTS and isinstance(value, list):
            meta.setdefault(key, [str(v) for v in value[:META_LIST_CAP]])
    return meta


def slim_metadata(meta: dict[str, Any]) -> dict[str, Any]:
    """The metadata a tight budget keeps: the keys that identify the definition."""
    kept = {k: v for k, v in meta.items() if k in CORE_METADATA}
    if isinstance(kept.get("signature"), str):
        kept["signature"] = elide_signature(kept["signature"], SLIM_SIGNATURE_CHARS)
    if kept != meta:
        kept["trimmed"] = True
    return kept


def display_norm(fused_norm: float, scores: Iterable[float]) -> float:
    """What hit scores are divided by: the fused score of a hit ranked first by every
    path that returned, or the best re-ranked score when boosts lift it higher. Capping
    each at 1.0 instead made every boosted hit read 1.00, so the scores stopped telling
    the top hits apart."""
    return max(fused_norm, max(scores, default=0.0))


def to_hits(
    ranked: Sequence[Candidate],
    norm: float,
    max_tokens: int,
    snippet_chars: int = SNIPPET_CHARS,
    public: Mapping[str, str] | None = None,
    page_floor: float = 0.0,
) -> FittedHits:
    """Hits that fit max_tokens together, each with at least its snippet's first lines
    (MIN_SNIPPET_CHARS). Over budget, the metadata is slimmed first, then the
    lowest-ranked hits go (`left_out`). A hit's 0-1 `score` is its re-ranked score over
    `norm` (`display_norm`). `public` gives API hits their public dotted names
    (`search/reexports.public_paths`). A doc hit lists the other sections of its page
    that score at least `page_floor` (`also_on_page`: search/collapse.py)."""
    hits = [_hit(c, norm, public or {}, page_floor) for c in ranked]
    room = max_tokens - ENVELOPE_TOKENS
    least = [estimate_tokens(c.chunk.content[:MIN_SNIPPET_CHARS]) for c in ranked]
    costs = [_citation(h) for h in hits]
    slimmed = sum(costs) + sum(least) > room
    if slimmed:
        for hit in hits:
            hit.metadata = slim_metadata(hit.metadata)
        costs = [_citation(h) for h in hits]
    while len(hits) > 1 and sum(costs) + sum(least[: len(hits)]) > room:
        hits.pop()
        costs.pop()
    left_out = len(ranked) - len(hits)
    # each hit kept has at least its first lines, the floor's one hit too (the response
    # then fits as a whole: tools/fit.py)
    left = max(token_chars(room - sum(costs)), MIN_SNIPPET_CHARS * len(hits))
    truncated = slimmed or left_out > 0
    for i, (hit, cand) in enumerate(zip(hits, ranked, strict=False)):
        # in rank order, each takes an equal share of what is left: a short snippet
        # leaves more to the hits after it
        hit.snippet, cut = trim_snippet(
            cand.chunk.content, min(snippet_chars, left // (len(hits) - i)), hit.kind
        )
        left -= len(hit.snippet)
        truncated = truncated or cut
    return FittedHits(hits, truncated, left_out)


def trim_snippet(text: str, max_chars: int, kind: str) -> tuple[str, bool]:
    """A hit's text cut to max_chars on line boundaries; a definition's (an `api` hit)
    keeps its docstring's parameter section before the prose ahead of it."""
    if kind == "api":
        return trim_keeping_parameters(text, max_chars)
    return trim_lines(text, max_chars)


def _citation(hit: Hit) -> int:
    return estimate_tokens(hit.model_dump_json(exclude={"snippet"}))


def _hit(cand: Candidate, norm: float, public: Mapping[str, str], floor: float) -> Hit:
    chunk = cand.chunk
    metadata = hit_metadata(chunk)
    if sections := page_sections(cand, floor):
        metadata["also_on_page"] = sections
    if chunk.kind == "api" and (name := public.get(chunk.symbol or "")):
        metadata["public_path"] = name
    if cand.boosts:
        metadata["boosts"] = cand.boosts
    if cand.duplicates:
        metadata["also_at"] = cand.duplicates[:5]
    if cand.versions:
        metadata["also_in"] = [
            {"source": c.source, "version": c.version, "id": c.id} for c in cand.versions[:5]
        ]
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
