"""The version of the Python project a local folder belongs to.

A docs or examples folder added by itself (`ctxhub add ./docs`) holds no packaging
metadata, but the project around it does: the nearest folder at or above it (at most
MAX_PARENTS up) that holds PKG-INFO, pyproject.toml, setup.cfg or setup.py is its
project. Its version is read from that metadata, following a dynamic version to the
module or file that states it (`attr: pkg.__version__`, setuptools' `file`, hatch's
`path`), then from the project's own package (`__version__ = "1.2"`), then from a
Sphinx `conf.py`'s `release = "..."`. Without a project root, a package beside the
folder and the folder's own `conf.py` still count. Only literal strings are read:
nothing is imported or run (a `setup.py`: `setup_py.py`). A placeholder (`0.0.0`,
`0+unknown`) is no version.
"""

from __future__ import annotations

import configparser
import contextlib
import importlib
import re
import sys
from pathlib import Path
from typing import Any

from ctxhub.core.identifiers import canonical_name
from ctxhub.sources.setup_py import setup_keyword

# tomllib is 3.11+; tomli is its 3.10 backport (a declared dependency there).
_toml: Any = importlib.import_module("tomllib" if sys.version_info >= (3, 11) else "tomli")

#: How many folders above the one added a project root is looked for (docs/source/ is
#: two below its project).
MAX_PARENTS = 3
#: Files whose presence makes a folder a Python project's root.
PROJECT_FILES = ("PKG-INFO", "pyproject.toml", "setup.cfg", "setup.py")
#: A file larger than this is no metadata file worth reading for a version.
MAX_BYTES = 512_000
#: Where a package states its version, most specific first.
VERSION_FILES = ("__version__.py", "_version.py", "version.py", "__about__.py", "__init__.py")
#: Folders beside a package that are never the project's package.
NOT_PACKAGES = frozenset({"tests", "test", "testing", "docs", "doc", "examples", "benchmarks"})

_VERSION = re.compile(r"^v?\d[\w.+!-]*$")
# A stand-in for "no version yet": every number of the release zero, whatever follows
# (`0.0.0`, `0.0.0.dev0`, setuptools-scm's `0+unknown`); `0.1.dev1+g...` is a real one.
_PLACEHOLDER = re.compile(r"^v?0+(?:\.0+)*(?![\d])(?:[.+_-]?[A-Za-z+].*)?$")
_PKG_INFO = re.compile(r"^Version:\s*(\S+)", re.M)
_PKG_NAME = re.compile(r"^Name:\s*(\S+)", re.M)
_RELEASE = re.compile(r"""^(release|version)\s*=\s*["']([^"']+)["']""", re.M)


def _assigned(name: str) -> re.Pattern[str]:
    """`name = "1.2"` (annotated or not) at a module's top level."""
    return re.compile(rf"""^{name}\s*(?::\s*\w+\s*)?=\s*["']([^"']+)["']""", re.M)


_MODULE_VERSION = (_assigned("__version__"), _assigned("version"), _assigned("VERSION"))


def project_version(folder: Path) -> str | None:
    """The version of the project `folder` belongs to, or None when nothing says one."""
    folder = folder.resolve()
    root = project_root(folder)
    if root is not None:
        name = _project_name(root)
        found = _declared(root) or _package_version(root, name)
        if found:
            return found
    return _docs_release(folder, root) or (
        None if root is not None else _package_version(folder.parent, None)
    )


def project_root(folder: Path) -> Path | None:
    """The nearest folder at or above `folder` (at most MAX_PARENTS up) holding a
    project file; None past a repository's top, the home folder or the filesystem root."""
    stops = {Path(folder.anchor)}
    with contextlib.suppress(RuntimeError, KeyError):  # no home folder to stop at
        stops.add(Path.home().resolve())
    for level, candidate in enumerate([folder, *folder.parents]):
        if level > MAX_PARENTS or candidate in stops:
            return None
        if any((candidate / name).is_file() for name in PROJECT_FILES):
            return candidate
        if (candidate / ".git").exists():
            return None  # a repository's top without packaging: no project above it
    return None


def _is_file(path: Path) -> bool:
    """`path.is_file()`, False where it cannot be looked at: a folder beside the docs
    that another user owns (a container's data volume) raises PermissionError there."""
    try:
        return path.is_file()
    except OSError:
        return False


def _read(path: Path) -> str | None:
    try:
        if not path.is_file() or path.stat().st_size > MAX_BYTES:
            return None
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _version(text: str | None) -> str | None:
    """`text` when it reads as a version (a digit first, no spaces) and is no placeholder
    (`0.0.0`, `0+unknown`): a project that says only that is unversioned."""
    text = (text or "").strip()
    return text if _VERSION.match(text) and not _PLACEHOLDER.match(text) else None


def _pyproject(root: Path) -> dict[str, Any]:
    text = _read(root / "pyproject.toml")
    if text is None:
        return {}
    try:
        data = _toml.loads(text)
    except Exception:  # tomllib.TOMLDecodeError, but the module is chosen at run time
        return {}
    return data if isinstance(data, dict) else {}


def _setup_cfg(root: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    text = _read(root / "setup.cfg")
    if text is not None:
        with contextlib.suppress(configparser.Error):  # unreadable: no version from it
            parser.read_string(text)
    return parser


def _table(data: dict[str, Any], *keys: str) -> dict[str, Any]:
    """The nested table at `keys`, or {}."""
    for key in keys:
        value = data.get(key)
        if not isinstance(value, dict):
            return {}
        data = value
    return data


def _project_name(root: Path) -> str | None:
    project = _table(_pyproject(root), "project")
    if isinstance(project.get("name"), str):
        return str(project["name"])
    poetry = _table(_pyproject(root), "tool", "poetry")
    if isinstance(poetry.get("name"), str):
        return str(poetry["name"])
    cfg = _setup_cfg(root)
    if cfg.has_option("metadata", "name"):
        return cfg.get("metadata", "name").strip()
    if match := _PKG_NAME.search(_read(root / "PKG-INFO") or ""):
        return match.group(1)
    return setup_keyword(_read(root / "setup.py") or "", "name")


def _declared(root: Path) -> str | None:
    """A version the project's metadata states, or points to."""
    if (match := _PKG_INFO.search(_read(root / "PKG-INFO") or "")) and (
        found := _version(match.group(1))
    ):
        return found
    data = _pyproject(root)
    project = _table(data, "project")
    if found := _version(
        project.get("version") if isinstance(project.get("version"), str) else None
    ):
        return found
    poetry = _table(data, "tool", "poetry").get("version")
    if isinstance(poetry, str) and (found := _version(poetry)):
        return found
    dynamic = _table(data, "tool", "setuptools", "dynamic", "version")
    attr = dynamic.get("attr")
    if isinstance(attr, str) and (found := _attr_version(root, attr)):
        return found
    # `{file = "VERSION"}` (or a list of one), as setup.cfg's `file:` below
    file = dynamic.get("file")
    file = file[0] if isinstance(file, list) and len(file) == 1 else file
    if isinstance(file, str) and (found := _version(_read(root / file))):
        return found
    for table in (("tool", "hatch", "version"), ("tool", "pdm", "version")):
        path = _table(data, *table).get("path")
        if isinstance(path, str) and (found := _module_version(root / path)):
            return found
    cfg = _setup_cfg(root)
    if cfg.has_option("metadata", "version"):
        value = cfg.get("metadata", "version").strip()
        if value.startswith("attr:"):
            found = _attr_version(root, value.removeprefix("attr:").strip())
        elif value.startswith("file:"):
            found = _version(_read(root / value.removeprefix("file:").strip()))
        else:
            found = _version(value)
        if found:
            return found
    return _version(setup_keyword(_read(root / "setup.py") or "", "version"))


def _attr_version(root: Path, attr: str) -> str | None:
    """The literal `pkg.mod.NAME` names (setuptools' `attr:`), under the root or src/."""
    module, _, name = attr.rpartition(".")
    if not module or not name.isidentifier():
        return None
    parts = module.split(".")
    for base in (root, root / "src"):
        for path in (
            base.joinpath(*parts).with_suffix(".py"),
            base.joinpath(*parts, "__init__.py"),
        ):
            if match := _assigned(re.escape(name)).search(_read(path) or ""):
                return _version(match.group(1))
    return None


def _module_version(path: Path) -> str | None:
    text = _read(path) or ""
    for pattern in _MODULE_VERSION:
        if match := pattern.search(text):
            return _version(match.group(1))
    return None


def _package_version(base: Path, name: str | None) -> str | None:
    """The version a top-level package under `base` (or `base/src`) states: the one
    named like the project, else the only one that states any."""
    found: dict[str, str] = {}
    for parent in (base, base / "src"):
        try:
            folders = sorted(p for p in parent.iterdir() if p.is_dir())
        except OSError:
            continue
        for package in folders:
            if package.name in NOT_PACKAGES or not _is_file(package / "__init__.py"):
                continue
            for file in VERSION_FILES:
                if version := _module_version(package / file):
                    found.setdefault(canonical_name(package.name), version)
                    break
    if name is not None and (own := found.get(canonical_name(name))):
        return own
    versions = set(found.values())
    return versions.pop() if len(versions) == 1 else None


def _docs_release(folder: Path, root: Path | None) -> str | None:
    """A Sphinx conf.py's literal `release` (else `version`): the folder's own, or the
    project's docs'."""
    places = [folder, folder / "source"]
    if root is not None:
        places += [root / "docs", root / "doc", root / "docs" / "source"]
    for place in dict.fromkeys(places):
        text = _read(place / "conf.py") or ""
        assigned = dict((m.group(1), m.group(2)) for m in _RELEASE.finditer(text))
        if found := _version(assigned.get("release") or assigned.get("version")):
            return found
    return None
