"""What a snapshot is, before it is cut into units (plan.py): the content kinds a tree
holds, its version from packaging metadata, what a `.txt` file holds."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable

from ctxhub.core.doc_paths import is_aggregate_doc
from ctxhub.core.errors import SourceError
from ctxhub.ingest.docs.text_kind import HEAD_BYTES, TextKind, text_kind
from ctxhub.ingest.examples.layout import Example
from ctxhub.ingest.python.modules import find_internal_packages
from ctxhub.ingest.refresh.file_roles import in_test_dir, is_doc, is_text_changelog
from ctxhub.sources.base import ContentKind, Snapshot


def txt_kind(snapshot: Snapshot, rel: str) -> TextKind | None:
    """What a `.txt` file holds (an llms dump, Markdown: an llmstxt.org `llms.txt` too)
    whatever its name."""
    name = posixpath.basename(rel)
    # llms-*.txt twins of an llms-full.txt beside them (in their own folder) say the
    # same again; one in another folder is another site's or version's
    if is_aggregate_doc(rel) and _beside_full_dump(rel, snapshot.files):
        return None
    try:
        head = snapshot.read(rel)[:HEAD_BYTES]
    except (OSError, SourceError):
        return None
    return text_kind(name, head)


def _beside_full_dump(rel: str, files: Iterable[str]) -> bool:
    """Whether `rel`'s own folder holds an `llms-full.txt` (any case)."""
    folder = posixpath.dirname(rel)
    return any(
        posixpath.dirname(f) == folder and posixpath.basename(f).lower() == "llms-full.txt"
        for f in files
    )


def detect_version(snapshot: Snapshot) -> str | None:
    """A version from packaging metadata at the root (sdist PKG-INFO, pyproject)."""
    for name, pattern in (
        ("PKG-INFO", r"^Version:\s*(\S+)"),
        ("pyproject.toml", r'^version\s*=\s*["\']([^"\']+)["\']'),
        ("setup.cfg", r"^version\s*=\s*(\S+)"),
    ):
        if name in snapshot.files:
            match = re.search(pattern, snapshot.read(name).decode("utf-8", "replace"), re.M)
            if match:
                return match.group(1)
    return None


def detect_kinds(
    files: list[str], examples: list[Example], top: Iterable[str] = ()
) -> list[ContentKind]:
    """The kinds a tree holds; `top`: its declared top-level modules (top_modules.py)."""
    kinds: list[ContentKind] = []
    claimed = {f for e in examples for f in e.files}
    if any(top) or find_internal_packages(
        f for f in files if f not in claimed and not in_test_dir(f)
    ):
        kinds.append("python")
    docs = (f for f in files if f not in claimed and not in_test_dir(f))
    if any(is_doc(f) and not is_text_changelog(f) for f in docs) or any(
        posixpath.basename(f) == "llms-full.txt" for f in files
    ):
        kinds.append("docs")
    if examples:
        kinds.append("examples")
    if not kinds and any(is_text_changelog(f) and not in_test_dir(f) for f in files):
        # changelogs alone (a CHANGELOG.md added by itself, a fragments folder): read as
        # in any package, as the deprecation records `check_deprecation` answers from
        kinds.append("python")
    return kinds
