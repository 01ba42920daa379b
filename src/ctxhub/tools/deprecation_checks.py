"""What check_deprecation looks at before it answers "no deprecation found": each kind of
evidence in full (the structured answer's `checked`) and by a short name (the text's one
line: the full list on every call is noise)."""

from __future__ import annotations

#: (full description, short name) of each kind of evidence read
_KINDS = (
    ("DeprecationWarning/FutureWarning calls in its code", "warnings"),
    (
        "the package's deprecation helpers (functions that emit such a warning), at their"
        " call sites",
        "deprecation helpers",
    ),
    (
        "@deprecated decorators, and module-level names wrapped by one"
        " (`old = deprecated(...)(f)`)",
        "decorators",
    ),
    ("docstring notes (.. deprecated::, Deprecated:), attribute docstrings included", "docstrings"),
    ("module-level aliases of renamed names", "aliases"),
    ("the sources' changelogs", "changelogs"),
    ("the indexed docs (deprecation admonitions and 'is deprecated' sentences naming it)", "docs"),
)
CHECKED = tuple(full for full, _ in _KINDS)
_SHORT = dict(_KINDS)


def checked_line(checked: list[str]) -> str:
    """The kinds of evidence read, by their short names, on one line."""
    return ", ".join(_SHORT.get(c, c) for c in checked)
