"""How Sphinx directives read in prose, shared by the reST (docutils) and MyST readers."""

from __future__ import annotations

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
