"""A local directory: walk it, skipping what is never content (VCS, caches, binaries)."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable
from pathlib import Path

from ctxhub.sources.base import Snapshot, SourceError

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
        "dist",
        "build",
        ".eggs",
        ".idea",
        ".vscode",
        ".next",
        ".cache",
    }
)
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


def walk(
    root: Path, include: Iterable[str] = (), exclude: Iterable[str] = ()
) -> tuple[list[str], list[str]]:
    """(files to index, notes about what was skipped) under root, as relative POSIX paths."""
    include, exclude = list(include), list(exclude)
    files: list[str] = []
    notes: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        rel_dir = Path(dirpath).relative_to(root).as_posix()
        for name in sorted(filenames):
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            if name.startswith(".") and name not in (".env.example",):
                continue
            if Path(name).suffix.lower() in BINARY_EXT:
                continue
            if not selected(rel, include, exclude):
                continue
            full = Path(dirpath) / name
            if full.is_symlink() and not full.resolve().is_relative_to(root):
                notes.append(f"{rel}: symlink outside the source, skipped")
                continue
            size = full.stat().st_size
            cap = MAX_DUMP_BYTES if is_dump(name) else MAX_FILE_BYTES
            if size > cap:
                notes.append(f"{rel}: {size} bytes is over the {cap}-byte cap, skipped")
                continue
            files.append(rel)
    return files, notes


def snapshot_dir(
    path: str | Path, include: Iterable[str] = (), exclude: Iterable[str] = ()
) -> Snapshot:
    root = Path(path).expanduser()
    if not root.is_dir():
        raise SourceError(f"source directory {root} does not exist")
    root = root.resolve()
    files, notes = walk(root, include, exclude)
    return Snapshot(root=root, files=files, origin=str(root), notes=notes)
