"""reno release notes (`releasenotes/notes/<slug>-<hash>.yaml`): each note is a YAML
mapping of sections (`deprecations:`, `upgrade:`, `features:`, `fixes:`, ...) to lists of
reST strings. Deprecations are entries that deprecate; an entry of the other sections
that says it removed or dropped something is a removal; the rest is not read. A note
carries no version (reno takes it from the git tag that added the note)."""

from __future__ import annotations

import re

_NOTE = re.compile(r"(?:^|/)releasenotes/notes/[^/]+\.ya?ml$", re.IGNORECASE)
_REMOVAL = re.compile(r"\b(?:removed?|dropped)\b", re.IGNORECASE)
_FIRST_SENTENCE = re.compile(r"[.:;](?:\s|$)")
#: Sections whose entries are not changes of the API (what is new, what was fixed).
_NOT_REMOVALS = frozenset({"features", "fixes", "prelude", "issues", "security"})


def is_reno_note(relpath: str) -> bool:
    return bool(_NOTE.search(relpath))


def reno_entries(text: str) -> list[tuple[str, int, str]]:
    """(kind, line, text) of each deprecation or removal a note states; kind is
    "deprecated" or "removed", line the 1-based line where the entry's text starts."""
    import yaml  # only a reno note needs it

    try:
        note = yaml.safe_load(text)
    except yaml.YAMLError:
        return []
    if not isinstance(note, dict):
        return []
    lines = text.splitlines()
    out: list[tuple[str, int, str]] = []
    for section, items in note.items():
        if not isinstance(section, str) or not isinstance(items, list):
            continue
        for item in items:
            if not isinstance(item, str) or not item.strip():
                continue
            entry = " ".join(item.split())
            if section.lower() == "deprecations":
                kind = "deprecated"
            elif section.lower() not in _NOT_REMOVALS and _REMOVAL.search(_first(entry)):
                kind = "removed"
            else:
                continue
            out.append((kind, _line_of(lines, item), entry))
    return out


def _first(text: str) -> str:
    end = _FIRST_SENTENCE.search(text)
    return text[: end.start()] if end else text


def _line_of(lines: list[str], item: str) -> int:
    """Where an entry's first words stand in the file (1 when they cannot be found)."""
    head = " ".join(item.split()[:4])
    for i, line in enumerate(lines):
        if head and head in " ".join(line.split()):
            return i + 1
    return 1
