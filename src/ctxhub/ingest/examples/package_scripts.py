"""Scripts a package ships without making them importable: project templates and
scaffolds (`pkg/templates/generic/env.py`, copied into a user's project by a command),
in a folder without `__init__.py` inside the package's tree. They are worked code a user
starts from, so a source of kind python indexes them as examples, one example per
folder (its scripts and README), beside the package's API."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from ctxhub.ingest.examples.files import README_RE
from ctxhub.ingest.examples.layout import Example, is_examples_dir_name
from ctxhub.ingest.python.modules import PackageLayout

#: Folders of a package's own tests: never examples.
_TEST_FOLDERS = frozenset({"tests", "test", "testing", "_tests", "_test"})


def package_roots(layout: PackageLayout) -> list[str]:
    """The outermost package folders (`pkg`, `src/pkg`), never the tree's root."""
    dirs = layout.package_dirs
    return sorted(d for d in dirs if d and posixpath.dirname(d) not in dirs)


def in_package_tree(rel: str, roots: Iterable[str]) -> bool:
    """Inside a package's folder (not one named as an examples folder: `examples/` with an
    `__init__.py` is still a tree of examples)."""
    return any(
        rel.startswith(r + "/") and not is_examples_dir_name(posixpath.basename(r)) for r in roots
    )


def package_script_examples(
    files: Iterable[str], layout: PackageLayout, excluded: Iterable[str] = ()
) -> list[Example]:
    """One example per folder of `.py` scripts inside a package's tree that is no package
    itself; `excluded` files (tests, what another unit takes) are never members."""
    roots = package_roots(layout)
    skip = set(excluded)
    listed = [f for f in files if f not in skip]
    folders: dict[str, list[str]] = {}
    for rel in listed:
        folder = posixpath.dirname(rel)
        if (
            rel.endswith(".py")
            and folder not in layout.package_dirs
            and in_package_tree(rel, roots)
            and not _TEST_FOLDERS & set(folder.lower().split("/"))
        ):
            folders.setdefault(folder, []).append(rel)
    examples: list[Example] = []
    for folder, scripts in sorted(folders.items()):
        readmes = [
            f
            for f in listed
            if posixpath.dirname(f) == folder and README_RE.match(posixpath.basename(f))
        ]
        root = next(r for r in roots if folder.startswith(r + "/"))
        examples.append(
            Example(
                name=folder[len(posixpath.dirname(root)) :].lstrip("/"),
                path=folder,
                files=tuple(sorted([*scripts, *readmes])),
                layout="package_scripts",
            )
        )
    return examples
