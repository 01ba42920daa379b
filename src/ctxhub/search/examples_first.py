"""search_examples' answer: the examples that match the question first, docs pages after
them as supplements.

Ranked in one pool, docs took every slot whenever they shared more of the question's
words than the examples did (a guide's section on periodic tasks outscores the example
that defines one): each path fetches its top 50 of the pool, so the examples were often
past that cut on BM25, and the kind preference could not lift what was never fetched.
So the examples are ranked among themselves, and those the retriever is confident
answer the question, each on its own evidence (`confidence.as_answer` at least
LOW_CONFIDENCE), lead. What is left of the limit is what the tool answered before:
examples and docs ranked together (the other examples, and guides with worked code),
each docs page marked `supplement`. When no example matches, that list alone (docs still
marked), and a notice says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ctxhub.core.knowledge import Hit, SearchRequest, SearchResponse
from ctxhub.search import confidence as conf
from ctxhub.search.budget import display_norm, to_hits
from ctxhub.search.collapse import collapse_key
from ctxhub.search.rank import Candidate
from ctxhub.search.retriever import Ranking, Retriever, SearchOptions, response

#: The metadata key that marks a docs page in search_examples' answer.
SUPPLEMENT = "supplement"
#: The notice when docs pages rank among examples none of which matches.
NO_EXAMPLE_MATCHES = (
    "no indexed example matches the question closely: examples and docs pages "
    "(marked supplement) are ranked together"
)


def matching_examples(ranking: Ranking) -> list[Candidate]:
    """The ranked examples the retriever is confident answer the question, in order."""
    sure = conf.as_answer(ranking.analysis, ranking.candidates, ranking.paths, ranking.coverage)
    return [c for c, p in zip(ranking.candidates, sure, strict=True) if p >= conf.LOW_CONFIDENCE]


def _on_own_scale(candidates: Sequence[Candidate], ranking: Ranking) -> list[Candidate]:
    """Copies scored 0-1 against their own ranking (examples and supplements are two
    rankings, each with its own norm)."""
    norm = display_norm(ranking.norm, (c.score for c in ranking.candidates))
    return [replace(c, score=c.score / norm if norm > 0 else 0.0) for c in candidates]


def mark_supplements(hits: list[Hit]) -> None:
    """Mark each docs page hit as a supplement to the examples."""
    for hit in hits:
        if hit.kind == "doc":
            hit.metadata[SUPPLEMENT] = True


def examples_first(
    retriever: Retriever, request: SearchRequest, options: SearchOptions
) -> SearchResponse | None:
    """The matching examples, then up to `request.limit` the rest of examples and docs
    ranked together, docs marked supplements; None when no example matches (or none is
    indexed under the request's filters)."""
    examples = retriever.rank(request.model_copy(update={"kinds": ["example"]}), options)
    matching = matching_examples(examples)[: request.limit]
    if not matching:
        return None
    shown = _on_own_scale(matching, examples)
    room = request.limit - len(matching)
    floor = 0.0
    if room > 0:
        # the rest as when no example matches: examples and docs ranked together
        both = retriever.rank(request, options)
        led = {collapse_key(c) for c in matching}
        rest = [c for c in both.candidates if collapse_key(c) not in led]
        # a page's other sections are listed above the last hit when the rest was cut,
        # as Retriever.search lists them (raw scores: `on_page` keeps them unscaled)
        floor = rest[room - 1].score if len(rest) > room else 0.0
        shown += _on_own_scale(rest[:room], both)
    fitted = to_hits(shown, 1.0, request.max_tokens, page_floor=floor)
    mark_supplements(fitted.hits)
    return response(request.query, examples, fitted)


def examples_answer(
    retriever: Retriever, request: SearchRequest, options: SearchOptions
) -> SearchResponse:
    """search_examples' response: examples only when `request.kinds` is examples alone
    (an example-only filter); else `examples_first`, or, when no example matches,
    examples and docs ranked together, docs marked supplements and a notice saying so."""
    if "doc" not in (request.kinds or []):
        return retriever.search(request, options)
    led = examples_first(retriever, request, options)
    if led is not None:
        return led
    found = retriever.search(request, options)
    mark_supplements(found.hits)
    if any(h.kind == "doc" for h in found.hits):
        found.notice = NO_EXAMPLE_MATCHES
    return found
