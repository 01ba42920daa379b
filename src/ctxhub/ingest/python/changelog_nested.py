"""A changelog entry that lists the names it deprecates in a nested bullet list:

    - Deprecated the authentication interfaces. The following APIs are deprecated
      as a result of this change:

      - ``pkg.config.Configurator.set_policy``
      - ``pkg.auth.TicketPolicy``

Under a Deprecated / Removed section, or after a line that says the things it lists are
deprecated or removed ("The following helpers are deprecated:"), each nested item that
is a code-marked name (alone, or followed by a dash, colon or parenthesis) is one
record; an item that is a sentence ("``x`` argument is ignored now") names nothing by
itself. The entry's words before the list must introduce it (end with a colon).
"""

from __future__ import annotations

import re

from ctxhub.core.knowledge import Deprecation
from ctxhub.ingest.python.changelog_subjects import is_language_name
from ctxhub.ingest.python.deprecation_text import clean_name, find_replacement
from ctxhub.ingest.sphinx_roles import readable_roles

_ANY_BULLET = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")
#: a line that says the things listed below it are deprecated or removed
LISTS_NAMES = re.compile(
    r"\b(?P<verb>deprecated|removed|dropped)\b(?:(?!\.\s)[^`])*:\s*$",
    re.IGNORECASE,
)
#: an item that is a name: the code-marked name, then nothing, punctuation, a dash, a
#: colon or a parenthesis ("``x`` (use ``y``)")
_NAME_ITEM = re.compile(
    r"^(?::[\w:]+:)?(?P<m>`{1,2})~?(?P<n>[^`\s]+)(?P=m)(?:\(\))?\s*(?:$|[,.;]\s*$|[-–—:(]\s*)"
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def split_nested(raw: list[str]) -> tuple[str, tuple[str, ...]]:
    """An entry's raw lines (its first line the entry's own, bullet included) as (its
    words before a nested bullet list, the list's items, each on one line); no items
    when it has no nested list."""
    if not raw:
        return "", ()
    base = _indent(raw[0])
    lead: list[str] = [_ANY_BULLET.sub("", raw[0], count=1).strip()]
    items: list[list[str]] = []
    item_indent = 0
    after_blank = False
    for line in raw[1:]:
        if not line.strip():
            after_blank = True
            continue
        indent = _indent(line)
        bullet = _ANY_BULLET.match(line)
        if bullet and indent > base:
            items.append([line[bullet.end() :].strip()])
            item_indent = indent
        elif items:
            if not after_blank and indent > item_indent:
                items[-1].append(line.strip())  # the item's continuation line
            # else: words after the list ("See https://..."), no item's
        else:
            lead.append(line.strip())
        after_blank = False
    return " ".join(w for w in lead if w), tuple(" ".join(i) for i in items)


def nested_records(
    lead: str, items: tuple[str, ...], kind: str, place: Deprecation
) -> list[Deprecation]:
    """One record per listed name (`place` gives source, version, path, line), its note
    the entry's first sentence and the item."""
    if not lead.rstrip().endswith(":"):
        return []  # the list does not follow words that introduce it
    first = _SENTENCE_END.split(lead.strip(), maxsplit=1)[0]
    out: list[Deprecation] = []
    for item in items:
        match = _NAME_ITEM.match(item)
        name = clean_name(match.group("n")) if match else None
        if name is None or is_language_name(name):
            continue
        said = readable_roles(f"{first} {item}")
        note = said if kind != "removed" or "remov" in said[:40].lower() else f"Removed: {said}"
        replacement = find_replacement(item[match.end() :]) if match else None
        out.append(
            place.model_copy(
                update={
                    "origin": "changelog",
                    "symbol": name,
                    "replacement": replacement if replacement != name else None,
                    "note": note,
                }
            )
        )
    return out
