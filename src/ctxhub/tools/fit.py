"""Every tool response fits its token budget: the split of the budget between the
structured content and the text, the search that asks for fewer hits while its
citations alone overflow, and the response as a whole fitted to `max_tokens`.

The rule: the text is rendered from the structured content and never cut as a string,
so every citation it writes (ids, paths and lines, urls, versions) is sent. While the
two together are over the budget, what is not the answer gives way first (metadata
slimmed to the keys that identify a definition), then the texts they share (snippets,
code, page content, files) are cut, evenly and on line boundaries, the same in both.
What is left then is citations: they are sent whole, over the budget by what they
take (the floor: `max_tokens` near its minimum)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from ctxhub.core.budget import CUT_MARK, estimate_tokens, token_chars, trim_lines
from ctxhub.core.knowledge import SearchResponse
from ctxhub.core.limits import MIN_TOKENS
from ctxhub.search.budget import slim_metadata, trim_snippet
from ctxhub.tools.fold import last_line_shown

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
#: Rounds of cutting at most: each cut is sized to what is over, so two or three do.
MAX_ROUNDS = 8

#: Keys whose string values the fitting may shorten (never ids or paths): the content
#: shown first, then the prose about it (an example's summary says how to open it).
TEXT_KEYS = (
    frozenset({"snippet", "content", "code"}),
    frozenset({"summary", "note", "description"}),
)


def compact(data: Any) -> str:
    """JSON as it travels: compact, non-ASCII kept."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def sent_chars(data: dict[str, Any], text: str) -> int:
    """Characters of a response as the client receives it: the structured content, the
    text (JSON-escaped) and the envelope around them."""
    return len(compact(data)) + len(compact(text)) + ENVELOPE_CHARS


def fit_response(
    render: Callable[[Any], str], model: type[BaseModel], data: dict[str, Any], max_tokens: int
) -> tuple[BaseModel, dict[str, Any], str]:
    """The output, its structured content and its text within `max_tokens` together (the
    module's rule); `data` is changed in place."""
    room = token_chars(max_tokens)
    output = model.model_validate(data)
    text = render(output)
    slimmed = False
    for _ in range(MAX_ROUNDS):
        over = sent_chars(data, text) - room
        if over <= 0:
            break
        # metadata first; a character cut from a shared text leaves both the content and
        # the text
        done = not slimmed and _slim_metadata(data)
        slimmed = True
        if not done and not any(shorten(data, over // 2 + 1, keys) for keys in TEXT_KEYS):
            break  # only citations are left
        output = model.model_validate(data)
        text = render(output)
    return output, data, text


def _text_leaves(node: Any, keys: frozenset[str], out: list[tuple[dict[str, Any], str]]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(value, str) and key in keys and len(value) > len(CUT_MARK):
                out.append((node, key))
            else:
                _text_leaves(value, keys, out)
    elif isinstance(node, list):
        for item in node:
            _text_leaves(item, keys, out)


def _level(lengths: list[int], excess: int) -> int:
    """The length every longer text is cut to so that about `excess` characters go."""
    longest_first = sorted(lengths, reverse=True)
    for i in range(len(longest_first)):
        below = longest_first[i + 1] if i + 1 < len(longest_first) else 0
        # cutting the i+1 longest down to `below` frees this much
        freed = sum(n - below for n in longest_first[: i + 1])
        if freed >= excess:
            return below + (freed - excess) // (i + 1)
    return 0


def shorten(data: dict[str, Any], excess: int, keys: frozenset[str]) -> bool:
    """Cut about `excess` characters from the longest texts of `data` under `keys`,
    evenly (each down to one length) and on line boundaries, marking what was cut
    `truncated`; a cut code's `line_end` is the last line it still shows. False when
    none could give any."""
    leaves: list[tuple[dict[str, Any], str]] = []
    _text_leaves(data, keys, leaves)
    level = _level([len(c[k]) for c, k in leaves], excess)
    cut_any = False
    for container, key in leaves:
        before = container[key]
        if len(before) <= level:
            continue
        if key == "snippet":  # a hit's: a definition keeps its parameter section
            container[key], _ = trim_snippet(before, level, str(container.get("kind")))
        else:
            container[key], _ = trim_lines(before, level)
        if len(container[key]) >= len(before):
            continue
        cut_any = True
        if "truncated" in container:
            container["truncated"] = True
        if key == "code" and isinstance(container.get("line_start"), int):
            start = container["line_start"]
            container["line_end"] = last_line_shown(container[key], start) or start
    if cut_any and "truncated" in data:
        data["truncated"] = True
    return cut_any


#: What an example's `taxonomy` keeps when metadata gives way: what cites it.
TAXONOMY_KEPT = frozenset({"kind", "url", "version", "entry_point"})


def _slim_metadata(node: Any) -> bool:
    """Reduce every `metadata` object to the keys that identify the definition, and an
    example's `taxonomy` to what cites it; True when that dropped anything."""
    changed = False
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("metadata", "taxonomy") and isinstance(value, dict):
                if key == "metadata":
                    kept = slim_metadata(value)
                else:
                    kept = {k: v for k, v in value.items() if k in TAXONOMY_KEPT}
                if kept != value:
                    value.clear()
                    value.update(kept)
                    changed = True
            else:
                changed = _slim_metadata(value) or changed
    elif isinstance(node, list):
        for item in node:
            changed = _slim_metadata(item) or changed
    return changed


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
