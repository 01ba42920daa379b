"""Python code under a source's docs folder (`docs/tutorials/wiki/src/views/tutorial/`,
`docs/quick_tour/json/app.py`): the worked code its pages include or walk through, not
the package's API. A source with a package beside it indexes this code as examples, one
example per project the docs hold (the folder with its `setup.py` / `pyproject.toml`,
else the folder holding its package, else the scripts' own folder); its tests stay out,
as a package's do, and so do the scripts right in the docs folder (`conf.py`)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable

from ctxhub.ingest.examples.files import README_RE
from ctxhub.ingest.examples.layout import PACKAGE_MARKERS, Example

#: Top-level folders that hold a source's documentation.
DOCS_DIRS = frozenset({"docs", "doc"})
#: Test code in a docs project: a tests folder, `test_*.py`, `*_test.py`, `conftest.py`,
#: a `tests.py` module (the unittest layout tutorials use).
_TEST_FOLDERS = frozenset({"tests", "test", "testing", "_tests", "_test"})
_TEST_FILE = re.compile(r"^(test_.*|.*_test|tests|conftest)\.py$")


def in_docs_dir(relpath: str) -> bool:
    """Under a top-level docs folder, at any depth."""
    first = relpath.split("/", 1)[0].lower()
    return "/" in relpath and first in DOCS_DIRS


def is_docs_test(relpath: str) -> bool:
    parts = relpath.lower().split("/")
    return bool(_TEST_FOLDERS & set(parts[:-1])) or bool(_TEST_FILE.match(parts[-1]))


def docs_code_examples(
    files: Iterable[str], package_dirs: frozenset[str], excluded: Iterable[str] = ()
) -> list[Example]:
    """One example per docs project holding `.py` files among `files` (those under a
    docs folder; `excluded` ones, taken by another unit, are never members); a project's
    README beside its root joins it. `package_dirs`: the folders holding an
    `__init__.py`, of the whole tree."""
    skip = set(excluded)
    listed = [f for f in files if f not in skip and in_docs_dir(f)]
    markers = {posixpath.dirname(f) for f in listed if PACKAGE_MARKERS.match(posixpath.basename(f))}
    folders: dict[str, list[str]] = {}
    for rel in listed:
        # a script right in the docs folder builds the docs (Sphinx's `conf.py`)
        if rel.endswith(".py") and rel.count("/") > 1 and not is_docs_test(rel):
            folders.setdefault(_project_of(rel, markers, package_dirs), []).append(rel)
    examples: list[Example] = []
    for folder, scripts in sorted(folders.items()):
        readmes = [
            f
            for f in listed
            if posixpath.dirname(f) == folder and README_RE.match(posixpath.basename(f))
        ]
        examples.append(
            Example(
                name=folder.split("/", 1)[1] if "/" in folder else folder,
                path=folder,
                files=tuple(sorted([*scripts, *readmes])),
                layout="docs_code",
            )
        )
    return examples


def _project_of(rel: str, markers: set[str], package_dirs: frozenset[str]) -> str:
    """The nearest folder above `rel` with packaging metadata (below the docs folder),
    else the folder holding the outermost package `rel` is in, else `rel`'s folder."""
    folder = posixpath.dirname(rel)
    ancestors = []
    current = folder
    while "/" in current:
        ancestors.append(current)
        current = posixpath.dirname(current)
    for ancestor in ancestors:
        if ancestor in markers:
            return ancestor
    packages = [a for a in ancestors if a in package_dirs]
    return posixpath.dirname(packages[-1]) if packages else folder
