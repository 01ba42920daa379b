"""Which top-level modules of a tree are the library: a single-module distribution
(`peewee.py`, `six.py`) has no package folder, and a loose script beside it
(`runtests.py`, `setup.py`) is no API. Decided by evidence only, never by the file alone:

- the origin says so (`Snapshot.top_modules`: what pip installed at the top of
  site-packages);
- the project's metadata names it: `top_level.txt` of an `.egg-info`/`.dist-info` at the
  root (an sdist built by setuptools ships one), `py_modules=[...]` in `setup.py`,
  `py_modules` under `[options]` in `setup.cfg`, `[tool.setuptools] py-modules` or
  `[tool.flit.module] name` in `pyproject.toml`, or the project's own name (`[project]
  name`, `Name:` in PKG-INFO, setup.cfg's `name`), which is how flit, hatch and PDM
  find a one-module project;
- the user said `--kind python` for a tree with no package at all: its top-level
  modules are what there is, bar the tooling files every project has (`setup.py`,
  `conftest.py`, `noxfile.py`) and test modules.

Only files the snapshot lists are read.
"""

from __future__ import annotations

import ast
import configparser
import importlib
import re
import sys
from collections.abc import Iterable
from typing import Any

from ctxhub.core.errors import SourceError
from ctxhub.ingest.python.modules import find_internal_packages, is_python_path
from ctxhub.sources.base import Snapshot

_toml: Any = importlib.import_module("tomllib" if sys.version_info >= (3, 11) else "tomli")

#: Top-level scripts of a project's tooling, never its API.
TOOLING = frozenset({"setup", "conftest", "noxfile"})
_TEST_NAME = re.compile(r"^(test_.*|.*_test|tests?)$")
_META_DIR = re.compile(r"^(src/)?[^/]+\.(egg|dist)-info/top_level\.txt$")


def root_modules(files: Iterable[str]) -> dict[str, list[str]]:
    """module name -> its files (`x.py`, `x.pyi`) at the tree's top."""
    out: dict[str, list[str]] = {}
    for rel in files:
        if "/" not in rel and is_python_path(rel):
            stem = rel.rsplit(".", 1)[0]
            if stem.isidentifier():
                out.setdefault(stem, []).append(rel)
    return out


def declared_top_modules(snapshot: Snapshot, files: list[str], python_asked: bool) -> set[str]:
    """The names of the top-level modules of `files` (the tree's files no example or test
    took) that are the library's API."""
    roots = root_modules(files)
    if not roots:
        return set()
    named = {m.rsplit(".", 1)[0] for m in snapshot.top_modules if "/" not in m}
    named |= _metadata_names(snapshot, files)
    found = {m for m in roots if m in named or _normal(m) in named}
    if not found and python_asked and not find_internal_packages(files):
        found = {m for m in roots if m not in TOOLING and not _TEST_NAME.match(m)}
    return found


def _normal(name: str) -> str:
    """A project name as a module would spell it (`Flask-Foo` -> `flask_foo`)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def _text(snapshot: Snapshot, rel: str) -> str | None:
    try:
        return snapshot.read(rel).decode("utf-8", "replace")
    except (OSError, SourceError):
        return None


def _metadata_names(snapshot: Snapshot, files: list[str]) -> set[str]:
    names: set[str] = set()
    listed = set(files)
    for rel in files:
        if _META_DIR.match(rel) and (text := _text(snapshot, rel)):
            names.update(line.strip() for line in text.splitlines() if line.strip())
    if "pyproject.toml" in listed and (text := _text(snapshot, "pyproject.toml")):
        names |= _pyproject_names(text)
    if "setup.py" in listed and (text := _text(snapshot, "setup.py")):
        names |= _setup_py_names(text)
    if "setup.cfg" in listed and (text := _text(snapshot, "setup.cfg")):
        names |= _setup_cfg_names(text)
    if "PKG-INFO" in listed and (text := _text(snapshot, "PKG-INFO")):
        found = re.search(r"^Name:\s*(\S+)", text, re.M)
        if found:
            names.add(_normal(found.group(1)))
    return names


def _pyproject_names(text: str) -> set[str]:
    try:
        data = _toml.loads(text)
    except Exception:  # tomllib.TOMLDecodeError: the module is chosen at run time
        return set()
    names: set[str] = set()
    project = data.get("project")
    if isinstance(project, dict) and isinstance(project.get("name"), str):
        names.add(_normal(project["name"]))
    tool = data.get("tool") if isinstance(data.get("tool"), dict) else {}
    setuptools = tool.get("setuptools")
    if isinstance(setuptools, dict):
        names |= _strings(setuptools.get("py-modules"))
    flit = tool.get("flit")
    if isinstance(flit, dict) and isinstance(flit.get("module"), dict):
        names |= _strings([flit["module"].get("name")])
    return names


def _strings(value: object) -> set[str]:
    if not isinstance(value, list | tuple):
        return set()
    return {v for v in value if isinstance(v, str)}


def _setup_py_names(text: str) -> set[str]:
    """`py_modules=[...]` of any call in setup.py (string literals only: nothing runs)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.keyword) and node.arg == "py_modules"):
            continue
        if isinstance(node.value, ast.List | ast.Tuple):
            elts = node.value.elts
            names |= {
                e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
            }
    return names


def _setup_cfg_names(text: str) -> set[str]:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return set()
    names = set(parser.get("options", "py_modules", fallback="").replace(",", " ").split())
    if name := parser.get("metadata", "name", fallback="").strip():
        names.add(_normal(name))
    return names
