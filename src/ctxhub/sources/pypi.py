"""An installed distribution (`pypi:NAME`): exactly the files pip installed, and its version.

Reading the distribution of the current environment keeps the index on the version the
agent actually codes against, not whatever is newest upstream.
"""

from __future__ import annotations

import importlib.metadata as md
import json
import sys
from pathlib import Path

from ctxhub.core.errors import SourceError
from ctxhub.sources.base import Snapshot
from ctxhub.sources.local import BINARY_EXT, file_problem, snapshot_dir


def installed_version(name: str) -> str | None:
    """The version of distribution `name` installed here, or None."""
    try:
        return md.version(name)
    except md.PackageNotFoundError:
        return None


def distribution_of(origin: str) -> str | None:
    """`pypi:NAME` (or `pypi:NAME (editable ...)`) -> NAME; None for other origins."""
    if not origin.startswith("pypi:"):
        return None
    return origin.removeprefix("pypi:").split(" ", 1)[0] or None


def snapshot_distribution(name: str) -> Snapshot:
    try:
        dist = md.distribution(name)
    except md.PackageNotFoundError as exc:
        raise SourceError(
            f"distribution {name!r} is not installed in this environment "
            f"({sys.executable}); pip install it first"
        ) from exc
    version = dist.version
    editable = _editable_root(dist)
    if editable is not None:
        snap = snapshot_dir(editable)
        snap.version, snap.origin = version, f"pypi:{name} (editable {editable})"
        return snap
    root = Path(str(dist.locate_file(""))).resolve()
    files: list[str] = []
    skipped: list[tuple[str, str]] = []
    for entry in dist.files or []:
        rel = entry.as_posix()
        parts = rel.split("/")
        if rel.startswith("..") or any(p.endswith((".dist-info", ".egg-info")) for p in parts):
            continue
        if "__pycache__" in parts or Path(rel).suffix.lower() in BINARY_EXT:
            continue
        full = root / rel
        if not full.exists() and not full.is_symlink():
            continue  # listed in RECORD but not installed (a script, a removed file)
        problem = file_problem(full, root, full.name)
        if problem is not None:
            skipped.append((rel, problem))
            continue
        files.append(rel)
    if not files:
        raise SourceError(f"distribution {name!r} lists no readable files")
    return Snapshot(
        root=root,
        files=sorted(files),
        origin=f"pypi:{name}",
        version=version,
        skipped=sorted(skipped),
    )


def _editable_root(dist: md.Distribution) -> Path | None:
    """The project folder of an editable install (PEP 660 direct_url.json), if any."""
    raw = dist.read_text("direct_url.json")
    if not raw:
        return None
    try:
        info = json.loads(raw)
    except json.JSONDecodeError:
        return None
    if not info.get("dir_info", {}).get("editable"):
        return None
    url = str(info.get("url", ""))
    if url.startswith("file://"):
        path = Path(url[len("file://") :])
        return path if path.is_dir() else None
    return None
