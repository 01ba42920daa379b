"""A docs page's title, which every chunk of the page carries and every breadcrumb
starts with.

A page with an H1 (or a built page's `<title>`) is titled as before: its front-matter
`title:`, else that. A page without one (an MkDocs `getting-started/index.md` that opens
with `## Install`, a page with no heading at all) is titled, in order, by the MkDocs
`nav` entry that lists it, its front-matter `title:`, its first heading of any level,
and last by its name: an index or README page by its folder (`getting-started/index.md`
-> "Getting started"), any other by its file name (`rate_limits.md` -> "Rate limits").
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from ctxhub.ingest.docs.cleaned import CleanedText
from ctxhub.ingest.docs.markdown_split import find_headings

#: Pages named for their folder: the folder says what they are about.
_INDEX_STEMS = frozenset({"index", "readme", "_index"})
_ORDER_PREFIX = re.compile(r"^\d+[-_. ]+(?=\D)")  # `01-intro` -> `intro`
_SEPARATORS = re.compile(r"[-_\s]+")


def humanised(name: str) -> str:
    """A file or folder name as a title: `getting-started` -> "Getting started"; a name
    with capitals keeps them (`API_guide` -> "API guide")."""
    words = _SEPARATORS.sub(" ", _ORDER_PREFIX.sub("", name)).strip()
    if not words:
        return name
    return words[0].upper() + words[1:] if words.islower() else words


def name_title(path: str) -> str:
    """The title a page's path gives: its folder's for an index page, else its stem's."""
    pure = PurePosixPath(path)
    folder = pure.parent.name
    if pure.stem.lower() in _INDEX_STEMS and folder:
        return humanised(folder)
    return humanised(pure.stem)


def page_title(
    doc: CleanedText,
    syntax: str,
    path: str,
    *,
    html_title: str | None = None,
    nav_title: str | None = None,
) -> str:
    headings = find_headings(doc, syntax)
    h1 = next((text for _, _, level, text in headings if level == 1), None)
    if html_title or h1:
        return doc.title or html_title or h1 or ""
    first = headings[0][3] if headings else None
    return nav_title or doc.title or first or name_title(path)
