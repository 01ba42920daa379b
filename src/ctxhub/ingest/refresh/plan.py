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
from dataclasses import dataclass, field
from typing import Literal

from ctxhub.core.doc_paths import is_aggregate_doc
from ctxhub.core.errors import SourceError
from ctxhub.ingest.docs.built_site import (
    BUILT_TWIN,
    built_twins,
    is_site_page,
    site_file_reason,
    site_root_of,
    site_roots,
)
from ctxhub.ingest.examples.docs_code import docs_code_examples, in_docs_dir
from ctxhub.ingest.examples.files import SCRIPT_EXTS, ext_of
from ctxhub.ingest.examples.layout import Example, discover_examples
from ctxhub.ingest.examples.package_scripts import (
    in_package_tree,
    package_roots,
    package_script_examples,
)
from ctxhub.ingest.python.changelog_files import is_release_page
from ctxhub.ingest.python.deprecation_helpers import DeprecationHelpers, scan_package
from ctxhub.ingest.python.modules import (
    PackageLayout,
    find_internal_packages,
    is_python_path,
)
from ctxhub.ingest.python.package_types import PackageTypes, scan_types
from ctxhub.ingest.refresh.chunker_versions import CHUNKER_VERSIONS
from ctxhub.ingest.refresh.detect import detect_kinds, detect_version, txt_kind
from ctxhub.ingest.refresh.doc_units import included_digests, includes_text, page_nav_titles
from ctxhub.ingest.refresh.file_roles import (
    DOC_EXT,
    ext_txt,
    in_test_dir,
    is_doc,
    is_package_test,
    is_template,
    is_text_changelog,
    package_test_suites,
    why_left_out,
)
from ctxhub.ingest.refresh.included_changelogs import reads_changelog_records
from ctxhub.ingest.refresh.top_modules import declared_top_modules
from ctxhub.sources.base import CONTENT_KINDS, ContentKind, Snapshot

UnitKind = Literal["python", "docs", "dump", "examples", "changelog"]


@dataclass
class Unit:
    key: str  # the `file` the store keys its chunks by
    kind: UnitKind
    members: list[str]
    hash: str = ""
    example: Example | None = None

    @property
    def reads_own_records(self) -> bool:
        """A changelog read by its own unit: a changelog unit, or a docs page that is a
        changelog (`releases/v6.0.0.rst` in a docs-only source). A page that includes it
        does not read its records again."""
        return self.kind == "changelog" or (self.kind == "docs" and is_text_changelog(self.key))


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
    #: what the package's modules state about types (returns, signatures): a first pass
    types: PackageTypes | None = None
    #: docs page -> the title an MkDocs `nav` gives it (mkdocs_nav.py)
    nav_titles: dict[str, str] = field(default_factory=dict)


#: Layouts that say "a collection of examples" when the root is not a package.
_PROJECT_LAYOUTS = {"repo_of_projects", "topic_folders"}
_PACKAGE_FILES = frozenset({"pyproject.toml", "setup.py", "setup.cfg", "package.json", "PKG-INFO"})


def _is_package_root(files: list[str]) -> bool:
    return any(f in _PACKAGE_FILES for f in files)


def _package_layout(files: list[str]) -> PackageLayout:
    """Which folders are packages, from the Python files that can be API."""
    suites = package_test_suites(files)
    return PackageLayout.from_paths(
        f
        for f in files
        if is_python_path(f) and not in_test_dir(f) and not is_package_test(f, suites)
    )


def _hash_digests(digests: dict[str, bytes]) -> str:
    """A unit's content hash from {member: sha256 of its bytes}."""
    h = hashlib.sha256()
    for rel in sorted(digests):
        h.update(rel.encode("utf-8") + b"\0")
        h.update(digests[rel])
    return h.hexdigest()


def plan_units(snapshot: Snapshot, kinds: list[ContentKind] | None = None) -> Plan:
    """Split a snapshot into units; `kinds` empty or None means detect them."""
    files = snapshot.files
    explicit = list(kinds or [])
    for k in explicit:
        if k not in CONTENT_KINDS:
            raise SourceError(f"unknown content kind {k!r}; use one of {CONTENT_KINDS}")

    def read_text(rel: str) -> str:
        return snapshot.read(rel).decode("utf-8", "replace")

    # a built docs site's pages are docs, and what they load (theme JS/CSS) is no content
    roots = site_roots(files)
    site_left = {f: r for f in files if (r := site_file_reason(f, roots)) is not None}
    site_pages = {f for f in files if is_site_page(f, roots)}
    examples: list[Example] = []
    if not explicit or "examples" in explicit:
        # a repository's tests are never its examples (nor its docs, nor its API), nor
        # is any file of a built docs site; a folder added as examples alone is all
        # examples: its `testing/` is a topic (a tutorial tree's "how to test your app")
        tests_out = explicit != ["examples"]
        # with python asked for too, a package's tree is its API (and its template
        # scripts, below), never one big example
        api_tree = package_roots(_package_layout(files)) if "python" in explicit else []
        found = discover_examples(
            [
                f
                for f in files
                if not (tests_out and in_test_dir(f))
                and site_root_of(f, roots) is None
                and not in_package_tree(f, api_tree)
            ],
            read_text,
        )
        # Detection trusts an examples folder holding code (a docs site's `examples/`
        # pages are docs), and a tree of example projects or tutorial topics whose root
        # is no package itself (a library's repo has its pyproject at the root);
        # `kind = examples` takes any layout.
        trusted = {"examples_dir"} | (set() if _is_package_root(files) else _PROJECT_LAYOUTS)
        if api_tree:  # what is left beside the API is an example only if it holds code
            found = [e for e in found if any(ext_of(f) in SCRIPT_EXTS for f in e.files)]
        examples = (
            found
            if explicit
            else [
                e
                for e in found
                if e.layout in trusted and not all(f.lower().endswith(DOC_EXT) for f in e.files)
            ]
        )
    in_examples = {f for e in examples for f in e.files}
    top = declared_top_modules(
        snapshot,
        [f for f in files if f not in in_examples and f not in site_left and not in_test_dir(f)],
        "python" in explicit,
    )
    chosen = explicit or detect_kinds([f for f in files if f not in site_left], examples, top)
    # one .txt file alone (a dump under another name, Markdown saved as .txt) or a .txt in
    # a source said to be docs is read by what it holds
    txt_docs = "docs" in explicit or (not chosen and len(files) == 1 and ext_txt(files[0]))
    if txt_docs and not chosen and txt_kind(snapshot, files[0]) is not None:
        chosen = ["docs"]
    if "examples" not in chosen:
        examples = []

    units: list[Unit] = []
    claimed: set[str] = set()
    for ex in examples:
        units.append(Unit(key=ex.path or ".", kind="examples", members=list(ex.files), example=ex))
        claimed.update(ex.files)

    rest = [f for f in files if f not in claimed and f not in site_left]
    file_set = set(files)
    # a changelog by its name that is a docs page including the release history (Sphinx's
    # `docs/changes.rst` = `.. include:: ../CHANGES.rst`) is that page, when docs are read
    include_pages = (
        {
            f
            for f in rest
            if is_doc(f) and is_text_changelog(f) and includes_text(snapshot, f, file_set)
        }
        if "docs" in chosen
        else set()
    )
    suites = package_test_suites(files)
    py_files = [
        f
        for f in rest
        if is_python_path(f) and not in_test_dir(f) and not is_package_test(f, suites)
    ]
    # the code under a docs folder is the docs' worked examples, not the package's API,
    # when the source has Python beside it (a docs tree added alone keeps its packages)
    docs_code = {f for f in py_files if in_docs_dir(f)}
    if docs_code and len(docs_code) < len(py_files):
        py_files = [f for f in py_files if f not in docs_code]
    else:
        docs_code = set()
    layout = PackageLayout.from_paths(py_files)
    packages: set[str] = set()
    modules: dict[str, str] = {}
    if "python" in chosen:
        # a single-module library (`peewee.py`) is a top-level package of its own
        packages = find_internal_packages(py_files, layout) | top
        for rel in py_files:
            module = layout.module_for(rel)
            if module and module.split(".", 1)[0] in packages:
                units.append(Unit(key=rel, kind="python", members=[rel]))
                modules[rel] = module
                claimed.add(rel)
        for rel in rest:
            if is_text_changelog(rel) and not in_test_dir(rel) and rel not in include_pages:
                if "docs" in chosen and is_release_page(rel):
                    continue  # a page of the docs site (`doc` opens it), records read there
                units.append(Unit(key=rel, kind="changelog", members=[rel]))
                claimed.add(rel)
        # scripts in the package's non-package folders (templates, scaffolds): examples
        scripts = package_script_examples(rest, layout, excluded=claimed)
        # the docs' code: one example per project the docs hold, its tests left out
        if docs_code:
            every_package = PackageLayout.from_paths(f for f in files if is_python_path(f))
            scripts += docs_code_examples(rest, every_package.package_dirs, excluded=claimed)
        for ex in scripts:
            units.append(Unit(key=ex.path, kind="examples", members=list(ex.files), example=ex))
            claimed.update(ex.files)
        if scripts and "examples" not in chosen:
            chosen = [*chosen, "examples"]
        examples = [*examples, *scripts]

    if "docs" in chosen:
        doc_files = [
            f
            for f in rest
            if f not in claimed and not in_test_dir(f) and not is_package_test(f, suites)
        ]
        for rel in doc_files:
            name = posixpath.basename(rel).lower()
            txt = txt_kind(snapshot, rel) if ext_txt(name) and name != "llms-full.txt" else None
            if name == "llms-full.txt" or txt == "dump":
                units.append(Unit(key=rel, kind="dump", members=[rel]))
            elif txt == "markdown" and (txt_docs or is_aggregate_doc(rel)):
                # Markdown saved as .txt in a source said to be docs, or an llmstxt.org
                # `llms.txt` (H1, summary, facts and links written for agents)
                units.append(Unit(key=rel, kind="docs", members=[rel]))
            elif is_aggregate_doc(rel):
                continue
            elif is_doc(rel) and (rel in site_pages or not is_template(rel, layout)):
                # a changelog page no changelog unit read (a docs-only source's
                # `releases/v6.0.0.rst`) is a page whose chunks are lookup-only and whose
                # records are read from it (extract.py): get_doc opens it, search does
                # not rank it, check_deprecation answers from it
                units.append(Unit(key=rel, kind="docs", members=[rel]))
            else:
                continue
            claimed.add(rel)
        # a built page and the source page it was built from: the source is indexed
        docs_units = [u.key for u in units if u.kind == "docs"]
        twins = built_twins(docs_units, roots, files)
        units = [u for u in units if u.key not in twins]
        claimed.difference_update(twins)
        site_left.update(dict.fromkeys(twins, BUILT_TWIN))

    skipped: list[tuple[str, str]] = []
    readable: list[Unit] = []
    titles = page_nav_titles(snapshot, files) if any(u.kind == "docs" for u in units) else {}
    own_changelogs = {u.key for u in units if u.reads_own_records}
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
            included = included_digests(snapshot, unit.key, file_set)
            digests.update(included)
            if unit.key in titles:  # a new nav title is a new page title
                digests["nav:" + titles[unit.key]] = b""
            # an included changelog is read for deprecations by the page, unless it is
            # a unit of its own (extract.py): which it is belongs to the page's state
            for key in included:
                if key.removeprefix("include:") in own_changelogs:
                    digests["own-changelog:" + key] = b""
            # a page that reads changelog records is read again by a new changelog
            # chunker, not only by a new docs one
            paths = [key.removeprefix("include:") for key in included]
            if reads_changelog_records(unit.key, paths, own_changelogs):
                digests["chunker:changelog"] = str(CHUNKER_VERSIONS["changelog"]).encode()
        digests["chunker:" + unit.kind] = str(CHUNKER_VERSIONS[unit.kind]).encode()
        unit.hash = _hash_digests(digests)
        readable.append(unit)
    units = readable
    helpers = types = None
    if modules:
        read_modules = {u.key: modules[u.key] for u in units if u.kind == "python"}
        helpers = scan_package(read_modules, snapshot.read, packages)
        types = scan_types(read_modules, snapshot.read, modules.values())
        helper_mark = helpers.fingerprint()
        for unit in units:
            if unit.kind == "python":
                # a file's deprecations depend on helpers defined in any other file (when
                # those change, every Python unit is read again); its calls on the types
                # stated by the modules it imports, followed through theirs
                mark = helper_mark + types.fingerprints.of(read_modules[unit.key])
                unit.hash = hashlib.sha256(f"{unit.hash}:{mark}".encode()).hexdigest()
    doc_pages = sorted(u.key for u in units if u.kind == "docs")
    doc_pages_set = set(doc_pages)
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
            (f, why_left_out(f, chosen, examples, layout, site_left, suites))
            for f in files
            if f not in claimed
        ],
        skipped=skipped,
        helpers=helpers,
        types=types,
        nav_titles={k: v for k, v in titles.items() if k in doc_pages_set},
    )
