"""What a listed file is to a source before any chunker reads it: a test, repository
housekeeping, a changelog, a template, a docs page; and, for a file no unit takes, why
(the few words the refresh summary groups by)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable

from ctxhub.core.doc_paths import is_aggregate_doc
from ctxhub.ingest.examples.docs_code import in_docs_dir, is_docs_test
from ctxhub.ingest.examples.layout import Example
from ctxhub.ingest.python.changelog_files import is_changelog
from ctxhub.ingest.python.changelog_reno import is_reno_note
from ctxhub.ingest.python.modules import PackageLayout, is_python_path
from ctxhub.sources.base import ContentKind

DOC_EXT = (".md", ".mdx", ".markdown", ".rst", ".html", ".htm")
#: Top-level folders that hold a repository's own tests, not its API or examples.
TEST_DIRS = frozenset({"tests", "test", "testing"})
#: Repository housekeeping, not product documentation.
HOUSEKEEPING = re.compile(
    r"^(contributing|code_of_conduct|security|license|licence|authors|maintainers|claude|"
    r"agents|codeowners|pull_request_template|issue_template)(\.[a-z]+)?$",
    re.I,
)


def is_text_changelog(relpath: str) -> bool:
    """A changelog read as deprecation records: Markdown, reST, plain text (an sdist's
    `CHANGES.txt`, a `HISTORY` or `NEWS` without an extension) or a reno note (YAML). A
    built HTML changelog (Sphinx's changes.html) is a page of the docs site, indexed as
    docs."""
    if is_reno_note(relpath):
        return True
    return is_changelog(relpath) and not relpath.lower().endswith((".html", ".htm"))


def in_test_dir(relpath: str) -> bool:
    """Under a top-level tests/ folder, at any depth (fixtures and assets too)."""
    first = relpath.split("/", 1)[0].lower()
    return "/" in relpath and first in TEST_DIRS


#: A test module's file name (pytest's default patterns). pytest's own config file
#: (`conftest.py`) is no evidence of tests: it sits beside helpers too.
_TEST_MODULE = re.compile(r"^(test_.*|.*_test)\.pyi?$")
#: Folders of tests inside a package (`trio/_tests/`, `pkg/tests/test_x.py`).
_PACKAGE_TEST_DIRS = frozenset({"tests", "_tests", "test", "_test"})


def package_test_suites(files: Iterable[str]) -> frozenset[str]:
    """The folders of test suites shipped inside a package: any private tests folder
    (`trio/_core/_tests/`), and a tests folder holding a test module at any depth
    (`huey/tests/` with its `test_api.py`, `tornado/test/` with its `web_test.py`):
    all of such a folder is the suite, its helpers (`huey/tests/base.py`) too. A tests
    package without a test module (`pipecat/tests/utils.py`, helpers users import; a
    `conftest.py` beside them is no test module) is none. A public testing module
    (`tornado.testing`) is not named like one."""
    suites: set[str] = set()
    for rel in files:
        parts = rel.split("/")
        test_module = bool(_TEST_MODULE.match(parts[-1]))
        for i, folder in enumerate(parts[:-1]):
            name = folder.lower()
            if name in _PACKAGE_TEST_DIRS and (test_module or name.startswith("_")):
                suites.add("/".join(parts[: i + 1]))
    return frozenset(suites)


def is_package_test(relpath: str, suites: frozenset[str]) -> bool:
    """A file of a test suite shipped inside the package (under one of `suites`, from
    `package_test_suites`), a `conftest.py`, or a `tests.py` module in a folder (the
    unittest / Django layout: `app/tests.py`). A module named like a test outside any
    tests folder (`aiohttp/test_utils.py`, public API) stays."""
    parts = relpath.split("/")
    if parts[-1] == "conftest.py" or (len(parts) > 1 and parts[-1] == "tests.py"):
        return True
    return any("/".join(parts[:i]) in suites for i in range(1, len(parts)))


def is_template(rel: str, layout: PackageLayout) -> bool:
    """An .html file inside a Python package is a template the code renders, not a page."""
    if not rel.lower().endswith((".html", ".htm")):
        return False
    parts = rel.split("/")[:-1]
    return any("/".join(parts[:i]) in layout.package_dirs for i in range(1, len(parts) + 1))


def why_left_out(
    rel: str,
    chosen: list[ContentKind],
    examples: list[Example],
    layout: PackageLayout,
    site_left: dict[str, str],
    suites: frozenset[str] = frozenset(),
) -> str:
    """Why no unit takes a listed file, in a few words the summary groups by."""
    if in_test_dir(rel) and chosen != ["examples"]:  # (an examples folder keeps them)
        return f"under {rel.split('/', 1)[0]}/: tests are not indexed"
    if is_package_test(rel, suites) and chosen != ["examples"]:
        return "a test module inside the package: tests are not indexed"
    if rel in site_left:
        return site_left[rel]
    for ex in examples:
        reason = next((r for p, r in ex.skipped if p == rel), None)
        if reason is not None:
            return f"in an example: {reason}"
    name = posixpath.basename(rel)
    # a LICENSE or AUTHORS file (no page) says what it is anywhere
    if is_housekeeping(rel) or (HOUSEKEEPING.match(name) and not rel.lower().endswith(DOC_EXT)):
        return "repository housekeeping (license, contributing, ...), not docs"
    if is_python_path(rel):
        if in_docs_dir(rel) and "python" in chosen:
            if is_docs_test(rel):
                return "a test module of the docs' code: tests are not indexed"
            if rel.count("/") == 1:
                return "a script at the docs folder's root (its build: conf.py), not an example"
        if chosen and "python" not in chosen:
            return "python is not a kind of this source"
        return "not in an importable package (loose scripts index with --kind examples)"
    if is_text_changelog(rel):
        return "a changelog: read as deprecation records (kinds python, docs or none)"
    if rel.lower().endswith(DOC_EXT):
        if is_aggregate_doc(rel):
            return "a link index (llms.txt), not docs"
        if is_template(rel, layout):
            return "HTML inside a Python package: a template, not docs"
        if chosen and "docs" not in chosen:
            return "docs is not a kind of this source"
    if ext_txt(rel) and is_aggregate_doc(rel) and "docs" in chosen:
        return "an llms .txt file that reads as no Markdown, or beside llms-full.txt"
    if ext_txt(rel) and "docs" in chosen:
        return "a .txt file that reads as no llms dump (nor as Markdown with --kind docs)"
    ext = posixpath.splitext(name)[1].lower()
    return f"not docs, python or examples ({ext or name})"


def ext_txt(relpath: str) -> bool:
    return relpath.lower().endswith(".txt")


def is_housekeeping(relpath: str) -> bool:
    """A repository's own housekeeping file (LICENSE, CONTRIBUTING.md, SECURITY.md): at
    the source's root or in a hidden folder there (`.github/`), or anywhere under its
    conventional upper-case name (a vendored project's `vendor/llhttp/CODE_OF_CONDUCT.md`).
    A lower-case page of that name inside a docs tree (Tornado's `guide/security.rst`) is
    documentation."""
    parts = relpath.split("/")
    if not HOUSEKEEPING.match(parts[-1]):
        return False
    stem = parts[-1].split(".", 1)[0]
    return len(parts) == 1 or parts[0].startswith(".") or stem.isupper()


def is_doc(relpath: str) -> bool:
    return relpath.lower().endswith(DOC_EXT) and not is_housekeeping(relpath)
