"""Dotted module names for Python files, derived from their paths alone.

A source tree is given as relative POSIX paths; no file is read. Two layouts are
understood without configuration: the `src/` (or `lib/`) layout, where everything below
the prefix is importable, and a flat layout, where the importable part is the topmost
unbroken chain of directories holding an `__init__.py`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

#: Directory prefixes that hold importable code in the common packaging layouts.
SOURCE_PREFIXES: tuple[str, ...] = ("src/", "lib/")
PY_SUFFIXES: tuple[str, ...] = (".py", ".pyi")
_INIT_NAMES = ("__init__.py", "__init__.pyi")


def is_python_path(relpath: str) -> bool:
    return relpath.endswith(PY_SUFFIXES)


def is_package_init(relpath: str) -> bool:
    return relpath.rsplit("/", 1)[-1] in _INIT_NAMES


def _stem_parts(relpath: str) -> list[str]:
    """Path components with the suffix dropped and a trailing `__init__` removed."""
    stem = relpath.rsplit(".", 1)[0]
    parts = stem.split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return parts


#: PEP 561: a `NAME-stubs` package holds the type stubs of package NAME.
STUBS_SUFFIX = "-stubs"


def _dotted(parts: list[str]) -> str | None:
    """The dotted name of import-root-relative `parts`, or None when it is not one: a
    name is only importable when every part is an identifier (`my-scripts/run.py`,
    `setup.cfg.py` are not modules). A top `NAME-stubs` folder stands for NAME, whose
    stubs it holds (`peewee-stubs/__init__.pyi` -> `peewee`)."""
    if parts and parts[0].endswith(STUBS_SUFFIX):
        parts = [parts[0][: -len(STUBS_SUFFIX)], *parts[1:]]
    if parts and all(p.isidentifier() for p in parts):
        return ".".join(parts)
    return None


@dataclass(frozen=True)
class PackageLayout:
    """Which directories of a tree are packages (hold an `__init__.py`/`.pyi`)."""

    package_dirs: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def from_paths(cls, relpaths: Iterable[str]) -> PackageLayout:
        dirs = {p.rsplit("/", 1)[0] if "/" in p else "" for p in relpaths if is_package_init(p)}
        return cls(frozenset(dirs))

    def module_for(self, relpath: str) -> str | None:
        return module_name_for(relpath, self)


def module_name_for(relpath: str, layout: PackageLayout | None = None) -> str | None:
    """Dotted module of a `.py`/`.pyi` file, or None when it is not importable.

    `src/pkg/mod.py` -> `pkg.mod`; `pkg/__init__.py` -> `pkg` when `pkg/` is a package
    in `layout`; a top-level `setup.py` -> `setup`; `examples/demo.py` outside any
    package -> None; `pkg-stubs/mod.pyi` -> `pkg.mod` (PEP 561 stubs of `pkg`). Without a
    layout, anything outside `src/`/`lib/` is taken as importable from the tree root.
    """
    if not is_python_path(relpath):
        return None
    for prefix in SOURCE_PREFIXES:
        if relpath.startswith(prefix):
            return _dotted(_stem_parts(relpath[len(prefix) :]))
    dirs = relpath.split("/")[:-1]
    if layout is None or not dirs:  # no layout known, or a module at the tree root
        return _dotted(_stem_parts(relpath))
    # Walk up while the parent is still a package: the topmost one is the import root.
    top = len(dirs)
    while top > 0 and "/".join(dirs[:top]) in layout.package_dirs:
        top -= 1
    if top == len(dirs):
        return None  # the file's own directory is not a package
    return _dotted(_stem_parts("/".join(relpath.split("/")[top:])))


def find_internal_packages(
    relpaths: Iterable[str], layout: PackageLayout | None = None
) -> set[str]:
    """Top-level package (or module) names importable from a tree.

    Imports under these names count as framework-internal.
    """
    paths = [p for p in relpaths if is_python_path(p)]
    layout = layout if layout is not None else PackageLayout.from_paths(paths)
    names: set[str] = set()
    for p in paths:
        mod = module_name_for(p, layout)
        # Loose scripts at the tree root (setup.py, conftest.py) are not the framework.
        if mod and "/" in p:
            names.add(mod.split(".", 1)[0])
    return names


def module_names(relpaths: Iterable[str], layout: PackageLayout | None = None) -> set[str]:
    """Dotted names of every importable module of a tree."""
    paths = [p for p in relpaths if is_python_path(p)]
    layout = layout if layout is not None else PackageLayout.from_paths(paths)
    return {m for m in (module_name_for(p, layout) for p in paths) if m}


def resolve_relative(module: str, is_package: bool, level: int, target: str | None) -> str | None:
    """Absolute dotted name of `from <level dots><target> import ...` inside `module`.

    `is_package` is True for an `__init__` file, whose own name is the anchor package.
    Returns None when the import climbs above the top-level package.
    """
    if level == 0:
        return target
    parts = module.split(".") if module else []
    if not is_package:
        parts = parts[:-1]
    climb = level - 1
    if climb >= len(parts):
        return None
    base = parts[: len(parts) - climb]
    if target:
        base = [*base, *target.split(".")]
    return ".".join(base) if base else None
