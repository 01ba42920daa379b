"""An installed distribution (`pypi:NAME`): exactly the files pip installed, and its version.

Reading the distribution of the current environment keeps the index on the version the
agent actually codes against, not whatever is newest upstream.
"""

from __future__ import annotations

import importlib.metadata as md
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ctxhub.core.errors import SourceError
from ctxhub.sources.base import ContentKind, Snapshot
from ctxhub.sources.local import BINARY_EXT, file_problem, snapshot_dir

#: Run in the project's interpreter (stdlib only): what pip installed for one distribution.
_DESCRIBE = """
import importlib.metadata as md, json, sys
d = md.distribution(sys.argv[1])
print(json.dumps({"version": d.version, "root": str(d.locate_file("")),
                  "files": [f.as_posix() for f in d.files or []],
                  "direct_url": d.read_text("direct_url.json")}))
"""


#: Written docs a wheel may ship beside its code (an agent skill's SKILL.md, a guide);
#: its .html files are templates, not pages.
DOC_SUFFIXES = (".md", ".mdx", ".markdown", ".rst")


@dataclass
class Distribution:
    """What one environment has installed for a distribution."""

    version: str
    root: Path
    files: list[str]
    direct_url: str | None


def project_python(cwd: Path | None = None) -> str | None:
    """The interpreter of the project being worked on, when it is not ctxhub's own: an
    activated virtualenv ($VIRTUAL_ENV), else `./.venv` (uv's and most tools' default)."""
    cwd = cwd or Path.cwd()
    candidates = []
    if os.environ.get("VIRTUAL_ENV"):
        candidates.append(Path(os.environ["VIRTUAL_ENV"]))
    candidates.append(cwd / ".venv")
    for venv in candidates:
        for rel in ("bin/python", "Scripts/python.exe"):
            python = venv / rel
            if python.is_file():
                if _same_interpreter(python):
                    return None
                return str(python)
    return None


def _same_interpreter(python: Path) -> bool:
    try:
        return Path(sys.prefix).resolve() == python.parent.parent.resolve()
    except OSError:
        return False


def describe(name: str, python: str | None = None) -> Distribution:
    """The installed distribution `name`, in this interpreter or in `python`'s."""
    if python is None:
        try:
            dist = md.distribution(name)
        except md.PackageNotFoundError as exc:
            raise SourceError(
                f"distribution {name!r} is not installed in this environment "
                f"({sys.executable}); pip install it first, or add it with --python PATH"
            ) from exc
        files = [f.as_posix() for f in dist.files or []]
        root = Path(str(dist.locate_file(""))).resolve()
        return Distribution(dist.version, root, files, dist.read_text("direct_url.json"))
    try:
        done = subprocess.run(
            [python, "-c", _DESCRIBE, name], capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SourceError(f"cannot run the project's interpreter {python}: {exc}") from exc
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["failed"])[-1]
        raise SourceError(
            f"distribution {name!r} is not installed in {python}"
            + ("" if "PackageNotFoundError" in last else f" ({last})")
        )
    info = json.loads(done.stdout)
    root = Path(info["root"]).resolve()
    return Distribution(str(info["version"]), root, list(info["files"]), info["direct_url"])


def installed_version(name: str, python: str | None = None) -> str | None:
    """The version of distribution `name` installed (here, or in `python`), or None."""
    try:
        return describe(name, python).version
    except SourceError:
        return None


def distribution_of(origin: str) -> tuple[str, str | None] | None:
    """`pypi:NAME`, `pypi:NAME @ /venv/bin/python` or `pypi:NAME (editable ...)` ->
    (NAME, the interpreter or None); None for other origins."""
    if not origin.startswith("pypi:"):
        return None
    rest = origin.removeprefix("pypi:")
    name = rest.split(" ", 1)[0]
    if "==" in name:
        return None  # a pinned release is what was asked for: never "refresh due"
    python = rest.split(" @ ", 1)[1].split(" (", 1)[0] if " @ " in rest else None
    return (name, python) if name else None


@dataclass(frozen=True)
class InstalledState:
    """A `pypi:NAME` source's indexed version beside the one installed now."""

    installed_version: str | None
    refresh_due: bool  # installed, and not the version indexed
    not_installed: bool


def installed_state(origin: str, indexed: str | None) -> InstalledState | None:
    """The one "refresh due" rule (status, doctor, sources, search notes and `serve`'s
    start all ask it): a source that follows an installed distribution is due when the
    version installed now is not the indexed one. None for any other origin, a pinned
    release (`pypi:NAME==X`) included: it never follows the environment."""
    found = distribution_of(origin)
    if found is None:
        return None
    now = installed_version(*found)
    return InstalledState(now, now is not None and now != indexed, now is None)


def origin_of(name: str, python: str | None) -> str:
    return f"pypi:{name}" + (f" @ {python}" if python else "")


def snapshot_distribution(name: str, python: str | None = None) -> Snapshot:
    dist = describe(name, python)
    version = dist.version
    origin = origin_of(name, python)
    editable = _editable_root(dist.direct_url)
    if editable is not None:
        snap = snapshot_dir(editable)
        snap.version, snap.origin = version, f"{origin} (editable {editable})"
        snap.kinds = ["python"]
        return snap
    root = dist.root
    files: list[str] = []
    skipped: list[tuple[str, str]] = []
    by_extension: list[str] = []  # a docs page may include one (a `.pt` template)
    for rel in dist.files:
        parts = rel.split("/")
        if rel.startswith("..") or any(p.endswith((".dist-info", ".egg-info")) for p in parts):
            continue
        if "__pycache__" in parts:
            continue
        full = root / rel
        if not full.exists() and not full.is_symlink():
            continue  # listed in RECORD but not installed (a script, a removed file)
        problem = file_problem(full, root, full.name)
        if Path(rel).suffix.lower() in BINARY_EXT:
            if problem is None:
                by_extension.append(rel)
            continue
        if problem is not None:
            skipped.append((rel, problem))
            continue
        files.append(rel)
    if not files:
        raise SourceError(f"distribution {name!r} lists no readable files")
    kinds: list[ContentKind] = ["python"]
    if any(f.lower().endswith(DOC_SUFFIXES) for f in files):
        kinds.append("docs")  # what it says in prose is indexed too, not dropped
    return Snapshot(
        root=root,
        files=sorted(files),
        origin=origin,
        version=version,
        skipped=sorted(skipped),
        kinds=kinds,
        # pip put these at the top of site-packages: each is an importable module
        top_modules=sorted(f for f in files if "/" not in f and f.endswith((".py", ".pyi"))),
        by_extension=sorted(by_extension),
    )


def _editable_root(raw: str | None) -> Path | None:
    """The project folder of an editable install (PEP 660 direct_url.json), if any."""
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
