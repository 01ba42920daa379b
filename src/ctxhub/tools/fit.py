"""Every tool response fits its token budget: the split of the budget between the
structured content and the text, the last-resort trim of the structured content, the
search that asks for fewer hits while its citations alone overflow, and the text cut to
what the structured content leaves."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ctxhub.core.budget import estimate_tokens, trim
from ctxhub.core.knowledge import SearchResponse
from ctxhub.core.limits import MIN_TOKENS
from ctxhub.search.budget import slim_metadata

#: The structured content's share of a search's budget: the text renders the same hits in
#: about half the characters, so together they fill the budget.
SEARCH_SHARE = 0.6
#: The structured content's share for a tool whose text repeats its content (a page, the
#: code, an example's files): half each.
CONTENT_SHARE = 0.5
#: Characters of a tool result around the text and the structured content
#: (`{"content":[{"type":"text","text":...}],"structuredContent":...,"isError":false}`
#: and what the SDK adds), with room to spare.
ENVELOPE_CHARS = 200
#: The least text worth sending (the first lines: what the response is, its first
#: citations); below it the structured content gives up more.
MIN_TEXT_CHARS = 300

#: Keys whose string values a last-resort budget pass may shorten (never ids or paths).
TEXT_KEYS = frozenset({"snippet", "content", "code", "summary", "note", "description"})


def _text_leaves(node: Any, out: list[tuple[Any, Any, int]]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(value, str) and key in TEXT_KEYS and len(value) > 80:
                out.append((node, key, len(value)))
            else:
                _text_leaves(value, out)
    elif isinstance(node, list):
        for item in node:
            _text_leaves(item, out)


def enforce_budget(data: dict[str, Any], max_tokens: int) -> bool:
    """Last resort: shorten the longest text fields until `data` fits. True if it cut.

    Each tool budgets its own output; this only catches what their estimates missed
    (long metadata, many small hits), so the contract holds for every response."""
    over = estimate_tokens(json.dumps(data)) - max_tokens
    if over <= 0:
        return False
    leaves: list[tuple[Any, Any, int]] = []
    _text_leaves(data, leaves)
    excess = over * 3 + 200
    for container, key, length in sorted(leaves, key=lambda leaf: -leaf[2]):
        if excess <= 0:
            break
        keep = max(40, length - excess)
        container[key], _ = trim(container[key], keep)
        excess -= length - len(container[key])
    if estimate_tokens(json.dumps(data)) > max_tokens:
        _slim_metadata(data)
    if "truncated" in data:
        data["truncated"] = True
    return True


def _slim_metadata(node: Any) -> None:
    """Reduce every `metadata` object to the keys that identify the definition."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "metadata" and isinstance(value, dict):
                kept = slim_metadata(value)
                value.clear()
                value.update(kept, trimmed=True)
            else:
                _slim_metadata(value)
    elif isinstance(node, list):
        for item in node:
            _slim_metadata(item)


def fit_search(
    call: Callable[[int], SearchResponse], limit: int, max_tokens: int
) -> SearchResponse:
    """Run a search, asking for fewer hits while the response exceeds the budget.

    Snippets are trimmed by the retriever; this handles lists whose citations alone do not
    fit (many hits with long metadata). A cursor stays consistent: it counts the hits
    actually returned; without one, `left_out` counts the ranked hits the budget dropped."""
    response = call(limit)
    ranked = len(response.hits) + response.left_out
    while limit > 1:
        tokens = estimate_tokens(response.model_dump_json())
        if tokens <= max_tokens:
            break
        limit = max(1, min(limit - 1, limit * max_tokens // tokens))
        response = call(limit)
        response.truncated = True
    if response.next_cursor is None:
        response.left_out = max(0, ranked - len(response.hits))
    return response


def structured_budget(max_tokens: int, search: bool) -> int:
    """The tokens the tool runs within: its structured content's share of `max_tokens`
    (never below the tools' own minimum)."""
    share = SEARCH_SHARE if search else CONTENT_SHARE
    return max(MIN_TOKENS, int(max_tokens * share))


def compact(data: Any) -> str:
    """JSON as it travels: compact, non-ASCII kept."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def text_room(data: dict[str, Any], max_tokens: int) -> int:
    """Characters left for the JSON-escaped text beside `data` and the result's envelope."""
    return max_tokens * 3 - 3 - ENVELOPE_CHARS - len(compact(data))


def data_floor(max_tokens: int) -> int:
    """The token budget the structured content shrinks to when it leaves the text less
    than MIN_TEXT_CHARS."""
    return max(1, (max_tokens * 3 - ENVELOPE_CHARS - MIN_TEXT_CHARS) // 3)


def fit_text(text: str, room: int) -> str:
    """The text cut (on a line boundary) until its JSON-escaped form fits `room`
    characters; never shorter than its first line (what the response is), whose
    citations the structured content carries whole."""
    first = text.split("\n", 1)[0]
    while (size := len(compact(text))) > room and len(text) > len(first) + 2:
        # Escapes (\n, \", \t) make the JSON longer than the text: cut in proportion.
        keep = max(len(first), len(text) * room // size - 8)
        shorter, _ = trim(text, keep)
        if len(shorter) >= len(text):
            break
        text = shorter
    return text
