"""Deprecation records from a changelog a docs page includes.

A Sphinx or MkDocs site often shows its release history through a page that is only an
include (`docs/history.md` = ```` ```{include} ../HISTORY.md ````). The included file is
read as a changelog when its name says so (HISTORY, CHANGES, CHANGELOG, NEWS, ...) or
the including page's does, and its records cite the included file at its own lines.
One that is a unit of its own (a root `HISTORY.md` of a source with Python) is read
there, not again through the page.
"""

from __future__ import annotations

from collections.abc import Iterable

from ctxhub.core.knowledge import Deprecation
from ctxhub.ingest.docs.includes import IncludedText
from ctxhub.ingest.python.changelog_files import is_changelog
from ctxhub.ingest.python.deprecations import extract_changelog_deprecations


def reads_changelog_records(page: str, included: Iterable[str], own_units: set[str]) -> bool:
    """Whether a docs page's unit reads changelog records (`included_changelog_records`):
    the page is a changelog, or it includes one that no unit of its own reads. Such a
    page's content hash covers the changelog chunker's number too (plan.py)."""
    return is_changelog(page) or any(p not in own_units and is_changelog(p) for p in included)


def included_changelog_records(
    source: str,
    page: str,
    page_text: str,
    included: list[IncludedText],
    own_units: set[str],
) -> list[Deprecation]:
    """Records of the changelogs `page` includes (and of the page's own text when its
    name says it is the changelog)."""
    page_is_changelog = is_changelog(page)
    out: list[Deprecation] = []
    if page_is_changelog:  # the page is its own unit: its records are its to read
        out += extract_changelog_deprecations(source, page, page_text)
    for part in included:
        if part.path in own_units or not (page_is_changelog or is_changelog(part.path)):
            continue
        shift = part.first_line - 1
        for record in extract_changelog_deprecations(source, part.path, part.text):
            line = record.line + shift if record.line is not None else None
            out.append(record.model_copy(update={"line": line}))
    return out
