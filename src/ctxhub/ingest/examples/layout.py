"""Where the examples of a source tree are: which files make up which example.

Four layouts, tried in order:

1. examples folders (`examples/`, `samples/`, `demos/`, `docs_src/`, `docs/examples/`, ...;
   each one not inside another, the tests or a package):
   a script directly in it is one example, a sub-folder that looks like a project
   (README, pyproject/requirements/package.json, Dockerfile, a main-ish script) is one
   example, any other sub-folder is a topic whose children are examples (recursively);
2. a repo of example projects: at least two top-level folders (or folders one level below
   a top-level grouping folder) that look like projects; every other folder that holds
   scripts is a topic, as in an examples folder (one example per standalone script);
3. topic folders of standalone scripts (a tutorial tree such as `topic/tutorial001.py`)
   under a root that is no project itself: every script is one example;
4. the whole tree as one example.

Files that support examples without being one (a helper module the scripts import, an
`assets/` folder, the examples README) are returned as `role="support"` entries, so their
text is still indexed but they are never offered as "an example of X".
Everything works on relative paths plus a `read` callable, so the caller decides what is
readable (a directory, a git tree, an sdist).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from ctxhub.ingest.examples.files import (
    JUNK_DIRS,
    README_RE,
    SCRIPT_EXTS,
    Reader,
    ext_of,
    read_or_empty,
    skip_reason,
)

#: Files whose presence makes a folder a project of its own.
STRONG_MARKERS = re.compile(
    r"^(pyproject\.toml|setup\.py|setup\.cfg|package\.json|pipfile|requirements[\w.-]*\.txt|"
    r"(docker|container)file[\w.-]*|environment\.ya?ml)$",
    re.IGNORECASE,
)
#: Packaging metadata: a folder with one of these is one project however many scripts it has.
PACKAGE_MARKERS = re.compile(r"^(pyproject\.toml|setup\.py|setup\.cfg|package\.json)$", re.I)
MAIN_STEMS = frozenset({"main", "app", "bot", "server", "run", "__main__", "agent", "cli", "index"})
EXAMPLES_DIR_NAMES = frozenset({"examples", "example", "samples", "sample", "demos", "demo"})
#: Other names of an examples tree: the code a docs site includes (`docs_src/`, the
#: FastAPI family's tutorials), `docs-examples/`, `typing-examples/`, `code_samples/`.
EXAMPLES_DIR_RE = re.compile(
    r"^(docs?[-_](src|examples?|snippets|code)|[a-z0-9]+[-_](examples?|samples?|demos?))$", re.I
)
#: Top-level folders of a repository's own tests: never an examples tree.
TEST_DIR_NAMES = frozenset({"tests", "test", "testing"})
#: Folders inside an examples tree that hold shared material, not examples.
SUPPORT_DIR_NAMES = frozenset(
    {"assets", "static", "images", "img", "media", "data", "resources", "shared", "common",
     "utils", "helpers", "lib", "fixtures", "tests", "test", "docs", "scripts"}
)  # fmt: skip
MAIN_GUARD = re.compile(r"^if\s+__name__\s*==\s*['\"]__main__['\"]\s*:", re.MULTILINE)
IMPORT_RE = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))", re.MULTILINE)
#: A folder with this many stand-alone scripts (and no packaging metadata) is a topic.
SCRIPT_COLLECTION = 3


Layout = Literal[
    "examples_dir",
    "repo_of_projects",
    "topic_folders",
    "single_project",
    "package_scripts",
    "docs_code",
]


@dataclass(frozen=True)
class Example:
    """One example: a single file or a folder, with the files that belong to it."""

    name: str  # path below the examples root without extension: "quickstart", "foo/bar"
    path: str  # the file or folder, relative to the source root ("" for the whole tree)
    files: tuple[str, ...]  # relative paths of its indexable files
    layout: Layout
    is_file: bool = False
    role: Literal["example", "support"] = "example"
    #: pyproject/requirements files in enclosing folders, nearest first (inherited pins).
    context_files: tuple[str, ...] = ()
    skipped: tuple[tuple[str, str], ...] = ()  # (path, reason) of junk inside this example

    @property
    def folder(self) -> str:
        return posixpath.dirname(self.path) if self.is_file else self.path

    def rel(self, path: str) -> str:
        """A file's path inside the example (its name for a single-file example)."""
        base = self.folder
        return path[len(base) + 1 :] if base and path.startswith(base + "/") else path


@dataclass
class _Tree:
    files: dict[str, list[str]] = field(default_factory=dict)  # dir -> direct files
    dirs: dict[str, set[str]] = field(default_factory=dict)  # dir -> direct subdirs

    @classmethod
    def build(cls, paths: Iterable[str]) -> _Tree:
        t = cls()
        for p in sorted(paths):
            d = posixpath.dirname(p)
            t.files.setdefault(d, []).append(p)
            while d:
                t.dirs.setdefault(posixpath.dirname(d), set()).add(d)
                d = posixpath.dirname(d)
        return t

    def subdirs(self, d: str) -> list[str]:
        return sorted(self.dirs.get(d, ()))

    def under(self, d: str) -> list[str]:
        return sorted(
            f
            for k, fs in self.files.items()
            if not d or k == d or k.startswith(d + "/")
            for f in fs
        )


def _stem(path: str) -> str:
    return posixpath.basename(path).rsplit(".", 1)[0]


def _is_runnable(path: str, read: Reader) -> bool:
    return ext_of(path) == "py" and bool(MAIN_GUARD.search(read_or_empty(read, path)))


def _looks_like_project(t: _Tree, d: str, read: Reader) -> bool:
    names = [posixpath.basename(f) for f in t.files.get(d, [])]
    scripts = [f for f in t.files.get(d, []) if ext_of(f) in SCRIPT_EXTS]
    if any(PACKAGE_MARKERS.match(n) for n in names):
        return True
    # A README beside many stand-alone scripts documents a collection, not one project.
    if sum(_is_runnable(f, read) for f in scripts) >= SCRIPT_COLLECTION:
        return False
    if any(STRONG_MARKERS.match(n) for n in names):
        return True
    mainish = any(_stem(f).lower() in MAIN_STEMS for f in scripts)
    if len(scripts) >= SCRIPT_COLLECTION and not mainish:
        return False  # a README over a few scripts with no entry point: still a collection
    return mainish or any(README_RE.match(n) for n in names)


def _context_files(t: _Tree, start: str) -> tuple[str, ...]:
    """Requirement files of `start` and each folder above it, nearest first."""
    out: list[str] = []
    d: str | None = start
    while d is not None:
        out.extend(
            f
            for f in t.files.get(d, [])
            if re.match(r"^(pyproject\.toml|requirements[\w.-]*\.txt)$", posixpath.basename(f))
        )
        d = posixpath.dirname(d) if d else None
    return tuple(out)


class _Collector:
    def __init__(self, tree: _Tree, read: Reader, layout: Layout, skipped: list[tuple[str, str]]):
        self.t, self.read, self.layout, self.skipped = tree, read, layout, skipped
        self.out: list[Example] = []

    def add(
        self,
        name: str,
        path: str,
        files: list[str],
        *,
        is_file: bool,
        role: str,
        top_only: bool = False,
    ) -> None:
        def mine(p: str) -> bool:  # junk inside this entry (loose-file entries: top level only)
            if is_file:
                return p == path
            rest = p[len(path) + 1 :] if path else p
            return (not path or p.startswith(path + "/")) and not (top_only and "/" in rest)

        ctx = _context_files(self.t, posixpath.dirname(path)) if path else ()
        self.out.append(
            Example(
                name=name,
                path=path,
                files=tuple(files),
                layout=self.layout,
                is_file=is_file,
                role="support" if role == "support" else "example",
                context_files=ctx,
                skipped=tuple(s for s in self.skipped if mine(s[0])),
            )
        )

    def walk_topic(self, d: str, root: str, helpers: set[str], depth: int = 0) -> None:
        """A folder whose children are examples."""

        def name_of(p: str) -> str:
            return p[len(root) + 1 :] if root else p

        loose: list[str] = []
        for f in self.t.files.get(d, []):
            stem = _stem(f)
            # __init__.py, conftest.py, setup.py are plumbing, not examples.
            plumbing = stem.startswith("_") or stem in {"conftest", "setup"}
            if ext_of(f) in SCRIPT_EXTS and f not in helpers and not plumbing:
                self.add(name_of(f).rsplit(".", 1)[0], f, [f], is_file=True, role="example")
            else:
                loose.append(f)
        for sub in self.t.subdirs(d):
            base = posixpath.basename(sub)
            if base.lower() in SUPPORT_DIR_NAMES:
                self.add(name_of(sub), sub, self.t.under(sub), is_file=False, role="support")
            elif _looks_like_project(self.t, sub, self.read) or depth >= 3:
                self.add(name_of(sub), sub, self.t.under(sub), is_file=False, role="example")
            else:
                self.walk_topic(sub, root, helpers, depth + 1)
        if loose:
            label = name_of(d) if d != root else posixpath.basename(root) or "examples"
            self.add(label, d, loose, is_file=False, role="support", top_only=True)


def _helper_modules(t: _Tree, root: str, read: Reader) -> set[str]:
    """Scripts that sibling scripts import and that do not run on their own (utils.py)."""
    py = [f for f in t.under(root) if ext_of(f) == "py"]
    imported: set[str] = set()
    for f in py:
        for m in IMPORT_RE.finditer(read_or_empty(read, f)):
            imported.add((m.group(1) or m.group(2)).split(".")[0])
    return {f for f in py if _stem(f) in imported and not _is_runnable(f, read)}


def is_examples_dir_name(name: str) -> bool:
    return name.lower() in EXAMPLES_DIR_NAMES or bool(EXAMPLES_DIR_RE.match(name))


def _examples_roots(t: _Tree) -> list[str]:
    """Every examples folder not inside another one, nor inside the tests, nor in a
    Python package (`pkg/examples/__init__.py` beside `pkg/__init__.py` is the
    package's code): a repo may have `docs_src/` and `docs/examples/` both."""
    every = {d for subs in t.dirs.values() for d in subs}
    package_dirs = {d for d, fs in t.files.items() if any(_stem(f) == "__init__" for f in fs)}
    cands = sorted(
        d
        for d in every
        if is_examples_dir_name(posixpath.basename(d))
        and d.split("/", 1)[0].lower() not in TEST_DIR_NAMES
        and not (posixpath.dirname(d) and posixpath.dirname(d) in package_dirs)
    )
    return [d for d in cands if not any(d.startswith(o + "/") for o in cands)]


def _project_folders(t: _Tree, read: Reader) -> list[str]:
    """Top-level project folders, or project folders one level below a grouping folder."""
    out: list[str] = []
    for top in t.subdirs(""):
        if top.lower() in SUPPORT_DIR_NAMES | {"src"}:
            continue
        if _looks_like_project(t, top, read):
            out.append(top)
        else:
            out.extend(s for s in t.subdirs(top) if _looks_like_project(t, s, read))
    return out


def _root_name(t: _Tree, read: Reader) -> str:
    from ctxhub.ingest.examples.versions import project_name_from_pyproject

    if "pyproject.toml" in t.files.get("", []):
        name = project_name_from_pyproject(read_or_empty(read, "pyproject.toml"))
        if name:
            return name
    for f in t.files.get("", []):
        if README_RE.match(f):
            m = re.search(r"^#\s+(.+)$", read_or_empty(read, f), re.MULTILINE)
            if m:
                return m.group(1).strip()
    return "project"


def discover_examples(relpaths: list[str], read: Reader) -> list[Example]:
    """Split a source tree into examples (and support entries); junk is left out.

    `relpaths` are the tree's files relative to its root; `read` returns a file's text
    and may raise OSError/ValueError/UnicodeDecodeError for files it will not serve.
    """
    files: list[str] = []
    skipped: list[tuple[str, str]] = []
    for p in sorted(set(relpaths)):
        reason = skip_reason(p)
        (skipped.append((p, reason)) if reason else files.append(p))
    t = _Tree.build(files)
    roots = _examples_roots(t)
    if roots:
        c = _Collector(t, read, "examples_dir", skipped)
        for root in roots:
            c.walk_topic(root, root, _helper_modules(t, root, read))
        return c.out
    projects = _project_folders(t, read)
    root_has_marker = any(STRONG_MARKERS.match(posixpath.basename(f)) for f in t.files.get("", []))
    # A project with a server/ and a client/ folder is still one project.
    if len(projects) >= (3 if root_has_marker else 2):
        c = _Collector(t, read, "repo_of_projects", skipped)
        for p in projects:
            c.add(p, p, t.under(p), is_file=False, role="example")
        _walk_other_folders(c, t, projects)
        claimed = {f for e in c.out for f in e.files}
        rest = [f for f in files if "/" not in f and f not in claimed]
        readmes = [f for f in rest if README_RE.match(f)]
        if readmes:
            c.add("(root)", "", readmes, is_file=False, role="support", top_only=True)
        return c.out
    if not root_has_marker and len(_script_folders(t)) >= 2:
        c = _Collector(t, read, "topic_folders", skipped)
        for p in projects:  # a project folder among the topics is an example too
            c.add(p, p, t.under(p), is_file=False, role="example")
        _walk_other_folders(c, t, projects)
        claimed = {f for e in c.out for f in e.files}
        loose = [f for f in t.files.get("", []) if f not in claimed]
        if loose:
            c.add("(root)", "", loose, is_file=False, role="support", top_only=True)
        return c.out
    c = _Collector(t, read, "single_project", skipped)
    c.add(_root_name(t, read), "", files, is_file=False, role="example")
    return c.out


def _script_folders(t: _Tree) -> set[str]:
    """Folders that directly hold at least one standalone script."""
    return {d for d, fs in t.files.items() if d and any(ext_of(f) in SCRIPT_EXTS for f in fs)}


def _walk_other_folders(c: _Collector, t: _Tree, projects: list[str]) -> None:
    """Every top-level folder (or folder beside the projects of a grouping folder) that
    holds scripts and is not a project: a topic whose scripts are examples."""
    taken = set(projects)
    holding = _script_folders(t)

    def has_scripts(d: str) -> bool:
        return any(h == d or h.startswith(d + "/") for h in holding)

    for top in t.subdirs(""):
        if top in taken or top.lower() in SUPPORT_DIR_NAMES | JUNK_DIRS:
            continue
        inside = [p for p in taken if p.startswith(top + "/")]
        if not inside:
            if has_scripts(top):
                c.walk_topic(top, "", _helper_modules(t, top, c.read))
            continue
        for sub in t.subdirs(top):  # a grouping folder: its other folders are topics
            if sub not in taken and has_scripts(sub):
                c.walk_topic(sub, "", _helper_modules(t, sub, c.read))
