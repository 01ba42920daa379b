"""A local directory: walk it, skipping what is never content (VCS, caches, binaries);
or one local file."""

from __future__ import annotations

import fnmatch
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from ctxhub.core.errors import SourceError
from ctxhub.sources.base import Snapshot, link_problem

#: Directory names never descended into.
SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        "__pycache__",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        "site-packages",
        ".eggs",
        ".idea",
        ".vscode",
        ".next",
        ".cache",
    }
)
#: Folder names that usually hold build output: skipped, and named as skipped, unless
#: they hold docs sources (a Sphinx project kept in `docs/build/`).
OUTPUT_DIRS = frozenset({"build", "dist"})
#: Files whose presence at a folder's top makes it a folder of docs sources.
DOCS_PROJECT_FILES = frozenset({"conf.py", "mkdocs.yml", "mkdocs.yaml"})
DOCS_SOURCE_EXT = (".rst", ".md", ".mdx", ".markdown")
BUILD_OUTPUT = "a build output folder (no docs sources at its top): not read"

#: Extensions that are never text content.
BINARY_EXT = frozenset(
    {
        ".png",
        ".jpg",
        ".jpeg",
        ".gif",
        ".webp",
        ".ico",
        ".svg",
        ".bmp",
        ".mp3",
        ".mp4",
        ".wav",
        ".ogg",
        ".webm",
        ".mov",
        ".pdf",
        ".zip",
        ".gz",
        ".tgz",
        ".bz2",
        ".xz",
        ".whl",
        ".so",
        ".dylib",
        ".dll",
        ".pyc",
        ".pyo",
        ".onnx",
        ".bin",
        ".pt",
        ".npz",
        ".npy",
        ".ttf",
        ".woff",
        ".woff2",
        ".eot",
        ".otf",
        ".db",
        ".sqlite",
        ".lock",
        ".jar",
        ".class",
        ".exe",
        ".safetensors",
        ".pkl",
        ".parquet",
    }
)
#: Larger files are skipped (a generated bundle, a data dump), except doc dumps.
MAX_FILE_BYTES = 1_000_000
MAX_DUMP_BYTES = 50_000_000


def is_dump(name: str) -> bool:
    return name.lower() in ("llms-full.txt", "llms.txt")


def selected(relpath: str, include: Iterable[str], exclude: Iterable[str]) -> bool:
    """The manifest's globs: in `include` (when any is given) and in no `exclude`."""
    include = list(include)
    if include and not any(fnmatch.fnmatch(relpath, g) for g in include):
        return False
    return not any(fnmatch.fnmatch(relpath, g) for g in exclude)


def _wanted_dir(rel: str, include: list[str], exclude: list[str]) -> bool:
    """Could files under the folder `rel` be selected (to name a skipped folder link)?"""
    if any(fnmatch.fnmatch(rel, g) or fnmatch.fnmatch(rel + "/", g) for g in exclude):
        return False
    probe = rel + "/*"
    return not include or any(fnmatch.fnmatch(probe, g) or g.startswith(rel + "/") for g in include)


def holds_docs_sources(folder: Path) -> bool:
    """A folder whose top holds a docs project (`conf.py`, `mkdocs.yml`) or pages
    (.rst, .md, .mdx): docs sources, whatever the folder is called. Build output
    (`lib/`, `bdist.*`, a built site's `html/`) holds none at its top."""
    try:
        names = [e.name for e in os.scandir(folder) if e.is_file(follow_symlinks=False)]
    except OSError:
        return False
    return any(n in DOCS_PROJECT_FILES or n.lower().endswith(DOCS_SOURCE_EXT) for n in names)


def file_problem(full: Path, root: Path, name: str) -> str | None:
    """Why a listed file is left out (a bad link, not a regular file, over the cap)."""
    if full.is_symlink():
        problem = link_problem(full, root)
        if problem is not None:
            return problem
    try:
        st = full.stat()
    except OSError as exc:  # vanished or unreadable since it was listed
        return f"unreadable: {exc.strerror or exc}"
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file"  # a FIFO or a device would block or never end
    cap = MAX_DUMP_BYTES if is_dump(name) else MAX_FILE_BYTES
    if st.st_size > cap:
        return f"{st.st_size} bytes is over the {cap}-byte cap"
    return None


def walk(
    root: Path,
    include: Iterable[str] = (),
    exclude: Iterable[str] = (),
    by_extension: list[str] | None = None,
) -> tuple[list[str], list[tuple[str, str]]]:
    """(files to index, (path, reason) of what was left out) under root, as relative
    POSIX paths; `by_extension` gathers the files left out for a binary extension only
    (a docs page may include one). Links to folders are never followed (so a folder
    loop cannot recur) and are named; a file link is read when it resolves to a file
    inside root. A `build/` or `dist/` folder is read when it holds docs sources, else
    named as build output. Junk (VCS, caches, virtualenvs, dot files, binaries, what the
    globs exclude) is left out silently."""
    include, exclude = list(include), list(exclude)
    files: list[str] = []
    skipped: list[tuple[str, str]] = []

    def unreadable(exc: OSError) -> None:
        where = Path(exc.filename or root)
        rel = where.relative_to(root).as_posix() if where.is_relative_to(root) else str(where)
        skipped.append((rel, f"unreadable directory: {exc.strerror or exc}"))

    for dirpath, dirnames, filenames in os.walk(root, onerror=unreadable):
        rel_dir = Path(dirpath).relative_to(root).as_posix()
        prefix = "" if rel_dir == "." else f"{rel_dir}/"
        kept: list[str] = []
        for d in sorted(dirnames):
            if d in SKIP_DIRS or d.startswith("."):
                continue
            if d in OUTPUT_DIRS and not holds_docs_sources(Path(dirpath) / d):
                if _wanted_dir(prefix + d, include, exclude):
                    skipped.append((prefix + d + "/", BUILD_OUTPUT))
                continue
            if (Path(dirpath) / d).is_symlink():
                if _wanted_dir(prefix + d, include, exclude):
                    skipped.append((prefix + d, "symlinked directory, not followed"))
                continue
            kept.append(d)
        dirnames[:] = kept
        for name in sorted(filenames):
            rel = prefix + name
            if name.startswith(".") and name not in (".env.example",):
                continue
            if not selected(rel, include, exclude):
                continue
            problem = file_problem(Path(dirpath) / name, root, name)
            binary = Path(name).suffix.lower() in BINARY_EXT
            if binary:
                if problem is None and by_extension is not None:
                    by_extension.append(rel)
                continue
            if problem is not None:
                skipped.append((rel, problem))
                continue
            files.append(rel)
    return files, skipped


def snapshot_dir(
    path: str | Path, include: Iterable[str] = (), exclude: Iterable[str] = ()
) -> Snapshot:
    root = Path(path).expanduser()
    if root.is_file():
        return snapshot_file(root, include, exclude)
    if not root.is_dir():
        raise SourceError(f"source directory {root} does not exist")
    root = root.resolve()
    by_extension: list[str] = []
    files, skipped = walk(root, include, exclude, by_extension)
    return Snapshot(
        root=root, files=files, origin=str(root), skipped=skipped, by_extension=by_extension
    )


def snapshot_file(path: Path, include: Iterable[str] = (), exclude: Iterable[str] = ()) -> Snapshot:
    """One file as a source: its folder is the root, but the file is all it lists, so
    nothing beside it can be read (Snapshot.read refuses unlisted paths)."""
    full = path.resolve()
    root, name = full.parent, full.name
    if full.suffix.lower() in BINARY_EXT:
        raise SourceError(f"{path} is a binary file ({full.suffix}): nothing to index")
    files: list[str] = []
    skipped: list[tuple[str, str]] = []
    if selected(name, include, exclude):
        problem = file_problem(full, root, name)
        if problem is None:
            files.append(name)
        else:
            skipped.append((name, problem))
    return Snapshot(root=root, files=files, origin=str(full), skipped=skipped)
