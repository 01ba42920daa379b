"""Names built by convention: the shapes of identifiers a framework constructs to find
user code (`getattr(widget, f"key_{key}")`, `f"on_{name}"`, `f"{field}_changed"`).

A user asks about their own method (`key_space`, `on_color_button_selected`), which no
index holds as a symbol; the framework code that looks it up holds the shape `key_*`.
Ingestion records each function's shapes as keys (`key_*`, `*_changed`, lowercased); a
query identifier is turned into every key it could match, and the two meet in the store.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_IDENT_TEXT = re.compile(r"[A-Za-z0-9_]*")
#: A literal prefix (`key_`) or suffix (`_changed`) this short says nothing (`_`, `x_`).
MIN_PREFIX = 3
MIN_SUFFIX = 4


def _wordy(text: str) -> bool:
    return sum(c.isalpha() for c in text) >= 2


def template_keys(parts: Sequence[str | None]) -> list[str]:
    """The keys of a name template: `parts` are the f-string's literal texts and None for
    each placeholder (`["key_", None]` -> `["key_*"]`). Empty unless the template has a
    placeholder, only identifier characters, and a literal prefix ending in `_` or a
    literal suffix starting with `_`."""
    if None not in parts or any(p is not None and not _IDENT_TEXT.fullmatch(p) for p in parts):
        return []
    first = parts.index(None)
    last = len(parts) - 1 - list(reversed(parts)).index(None)
    prefix = "".join(p for p in parts[:first] if p)
    suffix = "".join(p for p in parts[last + 1 :] if p)
    keys = []
    if len(prefix) >= MIN_PREFIX and prefix.endswith("_") and _wordy(prefix):
        keys.append(prefix.lower() + "*")
    if len(suffix) >= MIN_SUFFIX and suffix.startswith("_") and _wordy(suffix):
        keys.append("*" + suffix.lower())
    return keys


def keys_for_name(name: str) -> list[str]:
    """Every key a snake_case name could have been built from: `on_color_selected` ->
    `on_*`, `on_color_*`, `*_color_selected`, `*_selected` (the last part of a dotted
    name; a leading underscore kept, as in `_key_*`)."""
    last = name.rsplit(".", 1)[-1].lower()
    keys: list[str] = []
    for i, char in enumerate(last):
        if char != "_" or i == 0 or i == len(last) - 1:
            continue
        prefix, suffix = last[: i + 1], last[i:]
        if len(prefix) >= MIN_PREFIX and _wordy(prefix):
            keys.append(prefix + "*")
        if len(suffix) >= MIN_SUFFIX and _wordy(suffix):
            keys.append("*" + suffix)
    return keys
