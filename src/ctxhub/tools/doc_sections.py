"""Which sections of a doc page a `section=` names, and how much of a page's section list
fits beside its content.

Headings are matched loosely: built Sphinx pages write typographic quotes and dashes
(`Don’t`, `“Offline Mode”`, `–`) where an agent types ASCII, and markup such as
backticks is not part of what a reader sees."""

from __future__ import annotations

import json
import re
import unicodedata

from ctxhub.core.budget import trim_lines
from ctxhub.core.knowledge import Chunk

#: Typographic characters and the ASCII an agent types for them.
_ASCII = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u00b4", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb", '"'),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
        "\u2026": "...",
        "\u00a0": " ",
        "`": None,  # markup, not text
        "*": None,
    }
)
_SPACES = re.compile(r"\s+")
#: A word, or a dotted number (`1.4.0`) as one: `1.5.0` is not the words 1, 5 and 0 that
#: `0.5.1 - 0.5.4` holds too.
_WORD = re.compile(r"\d+(?:\.\d+)+|[^\W_]+(?:'[^\W_]+)*")


def loose(text: str) -> str:
    """`text` as compared: NFKC, typographic quotes/dashes as ASCII, backticks and
    asterisks (markup) dropped, whitespace collapsed, case folded."""
    text = unicodedata.normalize("NFKC", text).translate(_ASCII)
    return _SPACES.sub(" ", text).strip().casefold()


def _words(text: str) -> set[str]:
    return set(_WORD.findall(loose(text)))


def matching_chunks(chunks: list[Chunk], wanted: str) -> list[Chunk]:
    """The chunks whose heading breadcrumb contains `wanted` (compared loosely); when
    none does, those whose breadcrumb holds every word of it."""
    want = loose(wanted)
    found = [c for c in chunks if want in loose(c.section or c.title or "")]
    if found:
        return found
    words = _words(wanted)
    return [c for c in chunks if words and words <= _words(c.section or c.title or "")]


def own_section(chunks: list[Chunk], hit: Chunk) -> list[Chunk]:
    """The section `hit` is in, exactly: the run of the page's chunks (in page order)
    around it that carry its breadcrumb, from the section's heading to its last window;
    not the sections below or after it."""
    at = next((i for i, c in enumerate(chunks) if c.id == hit.id), None)
    if at is None:
        return [hit]
    name = hit.section or hit.title
    start = at
    while start > 0 and (chunks[start - 1].section or chunks[start - 1].title) == name:
        start -= 1
    end = at + 1
    while end < len(chunks) and (chunks[end].section or chunks[end].title) == name:
        end += 1
    return chunks[start:end]


def json_chars(value: object) -> int:
    """Characters `value` takes in the structured content (JSON, non-ASCII kept)."""
    return len(json.dumps(value, ensure_ascii=False))


def trim_json(text: str, max_json_chars: int) -> tuple[str, bool]:
    """`text` cut on a line (or sentence) boundary until its JSON string takes at most
    `max_json_chars` characters (escapes count)."""
    cut = False
    while json_chars(text) > max_json_chars:
        size = json_chars(text)
        keep = max(0, len(text) * max_json_chars // size - 4)
        shorter, _ = trim_lines(text, keep)
        if len(shorter) >= len(text):
            break  # only the mark is left
        text, cut = shorter, True
    return text, cut


def fitting_sections(sections: list[str], max_json_chars: int) -> list[str]:
    """The page's first sections whose JSON list fits `max_json_chars`."""
    kept: list[str] = []
    used = 2  # []
    for name in sections:
        used += json_chars(name) + 1
        if used > max_json_chars:
            break
        kept.append(name)
    return kept
