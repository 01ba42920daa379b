"""Which files are changelogs: a changelog by its name (`CHANGELOG.md`, `CHANGES.rst`,
SQLAlchemy's `changelog_20.rst`), a towncrier fragment in a changelog folder, a Sphinx
`unreleased*/` entry, or a reno note."""

from __future__ import annotations

import re

from ctxhub.ingest.python.changelog_reno import is_reno_note
from ctxhub.ingest.python.changelog_sphinx import is_unreleased_fragment

_CHANGELOG_STEMS = frozenset(
    {
        "changelog",
        "changes",
        "history",
        "news",
        "releases",
        "release-notes",
        "release_notes",
        "releasenotes",
        "versionhistory",
        "version-history",
        "version_history",
    }
)
#: one file per release series (SQLAlchemy's `changelog_20.rst`)
_NUMBERED_STEM = re.compile(r"^(?:changelog|changes)[_-]\d+$")
_CHANGELOG_EXTS = frozenset({"", "md", "markdown", "rst", "txt"})
_FRAGMENT_DIRS = frozenset({"changelog", "changes", "newsfragments", "changelog.d", "news"})
_FRAGMENT = re.compile(r"^[^/]+?\.(?P<type>[a-z_]+)(?:\.\d+)?\.(?:md|markdown|rst|txt)$")


def is_changelog(relpath: str) -> bool:
    """A changelog file, a towncrier fragment in a changelog folder, or a reno note."""
    if is_reno_note(relpath):
        return True
    parts = relpath.split("/")
    name = parts[-1].lower()
    stem, _, ext = name.partition(".")
    if (stem in _CHANGELOG_STEMS or _NUMBERED_STEM.match(stem)) and ext in _CHANGELOG_EXTS:
        return True
    if is_unreleased_fragment(relpath):
        return True
    return fragment_type(relpath) is not None


def fragment_type(relpath: str) -> str | None:
    """A towncrier fragment's type (`changelog/1234.deprecated.md` -> `deprecated`);
    None for any other file."""
    parts = relpath.split("/")
    if len(parts) < 2 or parts[-2].lower() not in _FRAGMENT_DIRS:
        return None
    fragment = _FRAGMENT.match(parts[-1].lower())
    return fragment.group("type") if fragment else None
