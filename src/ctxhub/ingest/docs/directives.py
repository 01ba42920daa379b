"""How Sphinx directives read in prose, shared by the reST (docutils) and MyST readers."""

from __future__ import annotations

import re

#: Admonitions by their title (`.. note::`, ```` ```{note} ````, `:::{note}`).
ADMONITIONS = {
    "note": "Note",
    "warning": "Warning",
    "attention": "Attention",
    "caution": "Caution",
    "danger": "Danger",
    "error": "Error",
    "hint": "Hint",
    "important": "Important",
    "tip": "Tip",
    "seealso": "See also",
    "todo": "Todo",
}
#: Version directives by the words before their version.
VERSIONED = {
    "versionadded": "Added in version",
    "versionchanged": "Changed in version",
    "deprecated": "Deprecated since version",
    "versionremoved": "Removed in version",
}


def label_prefix(label: str, text: str) -> str:
    """`Label: ` before an admonition's text, unless the text already opens with the
    label as a heading of its own (`.. seealso:: See also: ...` would read "See also:
    See also: ..."); `.. note:: Note that ...` keeps its label."""
    said = re.match(rf"\s*{re.escape(label)}\s*(?::|$)", text, re.IGNORECASE | re.MULTILINE)
    return "" if said else f"{label}: "
