"""Which files are changelogs: a changelog by its name (`CHANGELOG.md`, `CHANGES.rst`,
SQLAlchemy's `changelog_20.rst`), one release's page in a release-notes folder
(tornado's `releases/v6.0.0.rst`, Django's `releases/4.2.rst`, `whatsnew/3.12.rst`), a
towncrier fragment in a changelog folder, a Sphinx `unreleased*/` entry, or a reno
note."""

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
#: the conventional names a prefix or suffix may surround (`BFG_HISTORY.rst`,
#: `HISTORY-1.x.txt`, `OLD_CHANGES.md`)
_AFFIXED_WORDS = frozenset({"changelog", "changes", "history", "news"})
_NAME_WORDS = re.compile(r"[_\-.\s]+")
#: the last part of a series' number (`1.x`, `2.0`), no file type
_SERIES_PART = re.compile(r"^(?:\d+|x)$", re.I)
_FRAGMENT_DIRS = frozenset({"changelog", "changes", "newsfragments", "changelog.d", "news"})
#: folders that hold one page per release, each named by its version
_RELEASE_DIRS = frozenset(
    {"releases", "release-notes", "release_notes", "releasenotes", "whatsnew", "whats_new"}
)
_VERSION_STEM = re.compile(r"^v?\d+(?:[._-]\d+)*(?:[._-]?(?:a|b|rc|post|dev)\d*)?$")
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
    if is_affixed_changelog(relpath):
        return True
    if is_release_page(relpath):
        return True
    if is_unreleased_fragment(relpath):
        return True
    return fragment_type(relpath) is not None


def is_changelog_text(page: str, included_from: str | None = None) -> bool:
    """A doc chunk's text is a changelog's: its page is one, or an include took it from
    one (`included_from` is `FILE:LINES`). Such chunks are lookup-only (docs chunker)."""
    return is_changelog(page) or (
        included_from is not None and is_changelog(included_from.split(":")[0])
    )


def is_affixed_changelog(relpath: str) -> bool:
    """A changelog's conventional name with a prefix or suffix: `BFG_HISTORY.rst` (another
    project's history), `HISTORY-1.x.txt`, `OLD_CHANGES.md`. "changelog" says so in any
    case anywhere; the other words (history, changes, news) are topics in lower case
    inside a docs tree (`docs/browser_history.rst`), so there they count only when
    written in capitals, the way a history file is named, or at the source's root."""
    parts = relpath.split("/")
    stem, dot, ext = parts[-1].rpartition(".")
    if not dot:
        stem = parts[-1]
    elif ext.lower() not in _CHANGELOG_EXTS:
        if not _SERIES_PART.match(ext):  # another file type (`history.py`)
            return False
        stem = parts[-1]  # the dot was the name's (`HISTORY-1.x`)
    for word in _NAME_WORDS.split(stem):
        lower = word.lower()
        if lower not in _AFFIXED_WORDS:
            continue
        if lower == "changelog" or word.isupper() or len(parts) == 1:
            return True
    return False


def is_release_page(relpath: str) -> bool:
    """One release's notes in a release-notes folder, named by its version
    (`docs/releases/v6.0.0.rst`, `whatsnew/3.12.rst`). The name's dots are the
    version's, so the extension is what follows the last dot."""
    parts = relpath.split("/")
    if len(parts) < 2 or parts[-2].lower() not in _RELEASE_DIRS:
        return False
    stem, dot, ext = parts[-1].lower().rpartition(".")
    return bool(dot) and ext in _CHANGELOG_EXTS - {""} and bool(_VERSION_STEM.match(stem))


def fragment_type(relpath: str) -> str | None:
    """A towncrier fragment's type (`changelog/1234.deprecated.md` -> `deprecated`);
    None for any other file."""
    parts = relpath.split("/")
    if len(parts) < 2 or parts[-2].lower() not in _FRAGMENT_DIRS:
        return None
    fragment = _FRAGMENT.match(parts[-1].lower())
    return fragment.group("type") if fragment else None
