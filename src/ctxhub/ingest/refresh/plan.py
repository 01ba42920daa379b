"""From a snapshot's file list to units of work: which files become which kind of chunks.

A unit is what the store replaces atomically and what a content hash guards: one Python
module, one docs page (or one dump of pages), one example (a file or a whole folder),
one changelog. Planning reads only the files it must (example READMEs, pyproject) and
never anything outside the snapshot.
"""

from __future__ import annotations

import dataclasses
import hashlib
import posixpath
import re
from dataclasses import dataclass, field
from typing import Literal

from ctxhub.core.doc_paths import is_aggregate_doc
from ctxhub.core.errors import SourceError
from ctxhub.ingest.docs.includes import candidate_paths, include_targets
from ctxhub.ingest.examples.layout import Example, discover_examples
from ctxhub.ingest.python.deprecation_helpers import DeprecationHelpers, scan_package
from ctxhub.ingest.python.modules import (
    PackageLayout,
    find_internal_packages,
    is_python_path,
)
from ctxhub.sources.base import CONTENT_KINDS, ContentKind, Snapshot

UnitKind = Literal["python", "docs", "dump", "examples", "changelog"]
#: What each kind's chunker makes of the same bytes, versioned: a unit's hash covers its
#: kind's version, so after an upgrade that chunks a kind differently, the next refresh
#: re-reads those units (embeddings of unchanged texts come from the cache). Bump a
#: kind's number whenever its chunks change for unchanged files.
CHUNKER_VERSIONS: dict[str, int] = {
    "python": 18,  # 2: super() and typed-attribute calls, call receivers; 3: helpers by
    # behaviour, attribute docstrings; 4: window texts of long chunks; 5: calls through
    # typed locals, parameters and properties; 6: name templates (`f"key_{key}"`);
    # 7: the API a module declares (`__all__`, a package's re-exports); 8: a module
    # that offers only deprecated names is deprecated; 9: a class's name-mangled methods
    # (`__helper`) in its embedded member list; 10: the messages a function emits by
    # key from a message table; 11: the message templates a function formats; 12:
    # templates keyed by their first three telling words, without markup, specs or keys;
    # 13: a warning about one argument is a parameter record ("parameter `x`: ...");
    # 14: documented or exported module-level instances (`name = Class(...)`); 15: a
    # private module declares no API; 16: no instances of TypeVar, none by a private
    # module's `__all__`; 17: a function's value is `value_of`, not an instance; 18:
    # a top-level docstring note about one parameter or usage, a later-superseded note,
    # a conditional warning about one usage, a deprecated `Annotated` Doc: partial records;
    # and every name of a chained alias (`s = attributes = attrs`) is an alias, and a
    # function's calls of its own nested defs are `calls_nested`
    "docs": 7,  # 2: included files; 3: reST through docutils; 4: Sphinx `.. class::`;
    # 5: MyST roles and directives in Markdown made readable; 6: a worked example's
    # tag only on the sections that hold its code; 7: HTML read in the charset its
    # <meta> names, short HTML pages kept, an H1 with markup not repeated after the title
    "dump": 1,
    "examples": 2,  # 2: a small example file is one chunk
    "changelog": 2,  # 2: "`f()`'s *x* argument ..." deprecates parameter x of f, not f
}

DOC_EXT = (".md", ".mdx", ".markdown", ".rst", ".html", ".htm")
#: Top-level folders that hold a repository's own tests, not its API or examples.
TEST_DIRS = frozenset({"tests", "test", "testing"})
#: Repository housekeeping, not product documentation.
HOUSEKEEPING = re.compile(
    r"^(contributing|code_of_conduct|security|license|licence|authors|maintainers|claude|"
    r"agents|codeowners|pull_request_template|issue_template)(\.[a-z]+)?$",
    re.I,
)
_CHANGELOG = re.compile(
    r"(^|/)(changelog|changes|history|news|release[-_ ]?notes)(\.[a-z]+)?$", re.I
)


def is_changelog(relpath: str) -> bool:
    """CHANGELOG.md and friends, and towncrier fragments under a changelog/ folder."""
    if _CHANGELOG.search(relpath):
        return True
    parts = relpath.lower().split("/")
    return len(parts) > 1 and parts[-2] in ("changelog", "changes", "newsfragments")


@dataclass
class Unit:
    key: str  # the `file` the store keys its chunks by
    kind: UnitKind
    members: list[str]
    hash: str = ""
    example: Example | None = None


@dataclass
class Plan:
    kinds: list[ContentKind]
    units: list[Unit]
    packages: set[str] = field(default_factory=set)  # this source's top-level packages
    modules: dict[str, str] = field(default_factory=dict)  # python unit key -> module
    version: str | None = None
    #: (file, why) of the listed files no unit takes: tests, loose scripts, files of a
    #: kind the source does not have, what is no content (LICENSE, a .toml, a .sh)
    left_out: list[tuple[str, str]] = field(default_factory=list)
    #: (file, reason) of listed files that could not be read when hashed (a file that
    #: became a symlink loop or a dangling link after the walk): left out of their unit
    skipped: list[tuple[str, str]] = field(default_factory=list)
    #: the package's deprecation helpers: a first pass over all its Python files
    helpers: DeprecationHelpers | None = None


#: Layouts that say "a collection of examples" when the root is not a package.
_PROJECT_LAYOUTS = {"repo_of_projects", "topic_folders"}
_PACKAGE_FILES = frozenset({"pyproject.toml", "setup.py", "setup.cfg", "package.json", "PKG-INFO"})


_DUMP_SOURCE = re.compile(rb"^Source:[ \t]*https?://", re.M)


def _reads_as_dump(snapshot: Snapshot, rel: str) -> bool:
    """A text file of several pages, each introduced by a `Source: URL` line, is an
    llms-full dump whatever its name (a docs site's `docs.txt`, `full.txt`, ...)."""
    if is_aggregate_doc(rel):
        return False  # llms.txt (a link index) and llms-*.txt twins of llms-full.txt
    try:
        head = snapshot.read(rel)[:65536]
    except (OSError, SourceError):
        return False
    return len(_DUMP_SOURCE.findall(head)) >= 2


def _is_package_root(files: list[str]) -> bool:
    return any(f in _PACKAGE_FILES for f in files)


def _hash_digests(digests: dict[str, bytes]) -> str:
    """A unit's content hash from {member: sha256 of its bytes}."""
    h = hashlib.sha256()
    for rel in sorted(digests):
        h.update(rel.encode("utf-8") + b"\0")
        h.update(digests[rel])
    return h.hexdigest()


def _in_test_dir(relpath: str) -> bool:
    """Under a top-level tests/ folder, at any depth (fixtures and assets too)."""
    first = relpath.split("/", 1)[0].lower()
    return "/" in relpath and first in TEST_DIRS


def _is_template(rel: str, layout: PackageLayout) -> bool:
    """An .html file inside a Python package is a template the code renders, not a page."""
    if not rel.lower().endswith((".html", ".htm")):
        return False
    parts = rel.split("/")[:-1]
    return any("/".join(parts[:i]) in layout.package_dirs for i in range(1, len(parts) + 1))


def _why_left_out(
    rel: str, chosen: list[ContentKind], examples: list[Example], layout: PackageLayout
) -> str:
    """Why no unit takes a listed file, in a few words the summary groups by."""
    if _in_test_dir(rel):
        return f"under {rel.split('/', 1)[0]}/: tests are not indexed"
    for ex in examples:
        reason = next((r for p, r in ex.skipped if p == rel), None)
        if reason is not None:
            return f"in an example: {reason}"
    name = posixpath.basename(rel)
    if HOUSEKEEPING.match(name):
        return "repository housekeeping (license, contributing, ...), not docs"
    if is_python_path(rel):
        if chosen and "python" not in chosen:
            return "python is not a kind of this source"
        return "not in an importable package (loose scripts index with --kind examples)"
    if rel.lower().endswith(DOC_EXT):
        if is_changelog(rel):
            return "a changelog: read as deprecation records (kind python or none), not docs"
        if is_aggregate_doc(rel):
            return "a link index (llms.txt), not docs"
        if _is_template(rel, layout):
            return "HTML inside a Python package: a template, not docs"
        if chosen and "docs" not in chosen:
            return "docs is not a kind of this source"
    ext = posixpath.splitext(name)[1].lower()
    return f"not docs, python or examples ({ext or name})"


def _is_doc(relpath: str) -> bool:
    name = posixpath.basename(relpath)
    return relpath.lower().endswith(DOC_EXT) and not HOUSEKEEPING.match(name)


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


def detect_kinds(files: list[str], examples: list[Example]) -> list[ContentKind]:
    kinds: list[ContentKind] = []
    claimed = {f for e in examples for f in e.files}
    if find_internal_packages(f for f in files if f not in claimed and not _in_test_dir(f)):
        kinds.append("python")
    docs = (f for f in files if f not in claimed and not _in_test_dir(f))
    if any(_is_doc(f) and not is_changelog(f) for f in docs) or any(
        posixpath.basename(f) == "llms-full.txt" for f in files
    ):
        kinds.append("docs")
    if examples:
        kinds.append("examples")
    if not kinds and any(
        is_changelog(f) and f.lower().endswith(DOC_EXT) and not _in_test_dir(f) for f in files
    ):
        # changelogs alone (a CHANGELOG.md added by itself, a fragments folder): read as
        # in any package, as the deprecation records `check_deprecation` answers from
        kinds.append("python")
    return kinds


def _included_digests(snapshot: Snapshot, page: str, files: set[str]) -> dict[str, bytes]:
    """Digests of the files a docs page includes (keyed `include:PATH`): the page's
    chunks carry their code, so a changed included file is a changed page."""
    try:
        text = snapshot.read(page).decode("utf-8", "replace")
    except (OSError, SourceError):
        return {}
    out: dict[str, bytes] = {}
    for target in include_targets(text):
        path = next((p for p in candidate_paths(page, target) if p in files), None)
        if path is None:
            continue
        try:
            out["include:" + path] = hashlib.sha256(snapshot.read(path)).digest()
        except (OSError, SourceError):
            continue  # the chunker says "include not found"
    return out


def plan_units(snapshot: Snapshot, kinds: list[ContentKind] | None = None) -> Plan:
    """Split a snapshot into units; `kinds` empty or None means detect them."""
    files = snapshot.files
    explicit = list(kinds or [])
    for k in explicit:
        if k not in CONTENT_KINDS:
            raise SourceError(f"unknown content kind {k!r}; use one of {CONTENT_KINDS}")

    def read_text(rel: str) -> str:
        return snapshot.read(rel).decode("utf-8", "replace")

    examples: list[Example] = []
    if not explicit or "examples" in explicit:
        # a repository's tests are never its examples (nor its docs, nor its API)
        found = discover_examples([f for f in files if not _in_test_dir(f)], read_text)
        # Detection trusts an examples folder holding code (a docs site's `examples/`
        # pages are docs), and a tree of example projects or tutorial topics whose root
        # is no package itself (a library's repo has its pyproject at the root);
        # `kind = examples` takes any layout.
        trusted = {"examples_dir"} | (set() if _is_package_root(files) else _PROJECT_LAYOUTS)
        examples = (
            found
            if explicit
            else [
                e
                for e in found
                if e.layout in trusted and not all(f.lower().endswith(DOC_EXT) for f in e.files)
            ]
        )
    chosen = explicit or detect_kinds(files, examples)
    if "examples" not in chosen:
        examples = []

    units: list[Unit] = []
    claimed: set[str] = set()
    for ex in examples:
        units.append(Unit(key=ex.path or ".", kind="examples", members=list(ex.files), example=ex))
        claimed.update(ex.files)

    rest = [f for f in files if f not in claimed]
    py_files = [f for f in rest if is_python_path(f) and not _in_test_dir(f)]
    layout = PackageLayout.from_paths(py_files)
    packages: set[str] = set()
    modules: dict[str, str] = {}
    if "python" in chosen:
        packages = find_internal_packages(py_files, layout)
        for rel in py_files:
            module = layout.module_for(rel)
            if module and module.split(".", 1)[0] in packages:
                units.append(Unit(key=rel, kind="python", members=[rel]))
                modules[rel] = module
                claimed.add(rel)
        for rel in rest:
            if is_changelog(rel) and rel.lower().endswith(DOC_EXT) and not _in_test_dir(rel):
                units.append(Unit(key=rel, kind="changelog", members=[rel]))
                claimed.add(rel)

    if "docs" in chosen:
        doc_files = [f for f in rest if f not in claimed and not _in_test_dir(f)]
        for rel in doc_files:
            name = posixpath.basename(rel).lower()
            if name == "llms-full.txt" or (name.endswith(".txt") and _reads_as_dump(snapshot, rel)):
                units.append(Unit(key=rel, kind="dump", members=[rel]))
            elif is_aggregate_doc(rel):
                continue
            elif _is_doc(rel) and not is_changelog(rel) and not _is_template(rel, layout):
                units.append(Unit(key=rel, kind="docs", members=[rel]))
            else:
                continue
            claimed.add(rel)

    skipped: list[tuple[str, str]] = []
    readable: list[Unit] = []
    file_set = set(files)
    for unit in units:
        digests: dict[str, bytes] = {}
        for rel in unit.members:
            try:
                digests[rel] = hashlib.sha256(snapshot.read(rel)).digest()
            except (OSError, SourceError) as exc:  # became a loop or dangling since the walk
                skipped.append((rel, str(exc) or type(exc).__name__))
        if not digests:
            continue
        if len(digests) < len(unit.members):
            unit.members = [m for m in unit.members if m in digests]
            if unit.example is not None:
                kept = tuple(f for f in unit.example.files if f in digests)
                unit.example = dataclasses.replace(unit.example, files=kept)
        if unit.kind == "docs":
            digests.update(_included_digests(snapshot, unit.key, file_set))
        digests["chunker:" + unit.kind] = str(CHUNKER_VERSIONS[unit.kind]).encode()
        unit.hash = _hash_digests(digests)
        readable.append(unit)
    units = readable
    helpers = None
    if modules:
        read_modules = {u.key: modules[u.key] for u in units if u.kind == "python"}
        helpers = scan_package(read_modules, snapshot.read, packages)
        mark = helpers.fingerprint()
        for unit in units:
            if unit.kind == "python" and mark:
                # a file's deprecations depend on helpers defined in other files: when
                # those change, every Python unit is read again
                unit.hash = hashlib.sha256(f"{unit.hash}:{mark}".encode()).hexdigest()
    doc_pages = sorted(u.key for u in units if u.kind == "docs")
    for unit in units:
        if unit.kind == "dump":
            # which pages the dump contributes depends on which pages exist as files
            unit.hash = hashlib.sha256(
                (unit.hash + "\0".join(doc_pages)).encode("utf-8")
            ).hexdigest()
    return Plan(
        kinds=chosen,
        units=units,
        packages=packages,
        modules=modules,
        version=snapshot.version or detect_version(snapshot),
        left_out=[
            (f, _why_left_out(f, chosen, examples, layout)) for f in files if f not in claimed
        ],
        skipped=skipped,
        helpers=helpers,
    )
