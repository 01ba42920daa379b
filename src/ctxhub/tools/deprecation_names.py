"""Which records a deprecation answer may use: whether a record names the symbol asked
(not a namesake), and whether it tells a removal rather than a deprecation."""

from __future__ import annotations

import re

from ctxhub.core.knowledge import Deprecation

_REMOVED = re.compile(r"remov|^drop")
_SENTENCE_END = re.compile(r"[.;](?:\s|$)")
#: "`x` has been undeprecated", "is no longer deprecated": an earlier deprecation withdrawn
_UNDEPRECATED = re.compile(r"\bun-?deprecat|\bno\s+longer\s+deprecated\b", re.I)


def member_path(symbol: str) -> str:
    """The part of a dotted name past its leading module parts: from its first CapWords
    part on (`anyio.Event.clear` -> `Event.clear`), else its last part."""
    parts = symbol.split(".")
    for i, part in enumerate(parts[1:], start=1):
        if part[:1].isupper():
            return ".".join(parts[i:])
    return parts[-1]


def names_it(recorded: str, asked: str) -> bool:
    """A record names the symbol asked: the same dotted name, or one that spells all of
    it past its modules (`Event.clear` for `anyio.Event.clear`; a bare `clear` does not)."""
    rec, low = recorded.lower(), asked.lower()
    if rec == low or rec.endswith("." + low):
        return True
    return (
        low.endswith("." + rec)
        and rec.count(".") >= member_path(low).count(".")
        and (rec.endswith(member_path(asked).lower()))
    )


def is_removal(record: Deprecation) -> bool:
    """A changelog's "Removed" entry (for a parameter too): the name is gone in that
    version, not merely deprecated."""
    head = record.text.lower()[:40]
    removed = _REMOVED.search(head)
    deprecated = head.find("deprecat")
    # "Removed the deprecated `x`" is a removal; "Deprecated `x`, to be removed" is not
    return (
        record.origin == "changelog"
        and removed is not None
        and (deprecated < 0 or removed.start() < deprecated)
    )


def is_undeprecation(record: Deprecation) -> bool:
    """A record that withdraws a deprecation ("The *cmp* argument ... has been
    undeprecated"), not one that makes it."""
    text = record.text
    end = _SENTENCE_END.search(text)
    return bool(_UNDEPRECATED.search(text[: end.start()] if end else text))
