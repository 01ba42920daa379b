"""A changelog bullet that deprecates a name in a later sentence, after saying what
changed: "`cattrs.Converter` has been renamed to `cattrs.BaseConverter`, and
`cattrs.GenConverter` to `cattrs.Converter`. The `GenConverter` name is still available
for backwards compatibility, but is deprecated."

The later sentence must open with the names (after "the", "old", ...) and say they are
deprecated in its own clause: not through "which" or "that" ("... instead of their
`typing` alternatives, which are deprecated" deprecates nothing of the package's). A
name the bullet writes qualified elsewhere (`cattrs.GenConverter`) is recorded so, and
what it was renamed to ("`cattrs.GenConverter` to `cattrs.Converter`") replaces it.
"""

from __future__ import annotations

import re

_CODE = r"`{1,2}[^`\n]+`{1,2}"
_LATER = re.compile(
    rf"(?<=[.;!]\s)(?:the\s+)?(?:(?:old|former|previous|legacy)\s+)?"
    rf"{_CODE}(?:\s*(?:,|and|or)\s*{_CODE})*"
    r"(?P<between>[^.;`]*?)\b(?:is|are|has\s+been|have\s+been)\s+(?:now\s+)?(?:also\s+)?"
    r"deprecated\b",
    re.IGNORECASE,
)
# words that make the deprecation another clause's: "..., which is deprecated"
_OTHER_CLAUSE = re.compile(r"\b(?:which|that|who|whose|where|when|if|unless|while)\b", re.I)


def later_sentence(text: str) -> int | None:
    """Where the sentence that deprecates the bullet's names starts, when it is not the
    first (the first is read as any bullet is)."""
    for match in _LATER.finditer(text):
        if not _OTHER_CLAUSE.search(match.group("between")):
            return match.start()
    return None


def qualified(name: str, text: str) -> str:
    """`name` as the bullet writes it qualified (`GenConverter` -> `cattrs.GenConverter`)."""
    if "." in name:
        return name
    pattern = re.compile(rf"`{{1,2}}((?:[A-Za-z_]\w*\.)+{re.escape(name)})(?:\(\))?`{{1,2}}")
    match = pattern.search(text)
    return match.group(1) if match else name


def renamed_to(name: str, text: str) -> str | None:
    """What the bullet says `name` was renamed to ("`a.X` has been renamed to `a.Y`",
    "..., and `a.X` to `a.Y`")."""
    if "renam" not in text.lower():
        return None
    last = re.escape(name.rsplit(".", 1)[-1])
    pattern = re.compile(
        rf"`{{1,2}}(?:[\w.]*\.)?{last}(?:\(\))?`{{1,2}}\s+(?:(?:has\s+been|was|is)\s+)?"
        r"(?:renamed\s+)?to\s+`{1,2}(?P<new>[^`\n]+?)(?:\(\))?`{1,2}",
        re.IGNORECASE,
    )
    match = pattern.search(text)
    return match.group("new") if match else None
