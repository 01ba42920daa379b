"""A release's source distribution from PyPI (sdist: it has the docs and examples),
downloaded once by pip (which checks the index's sha256; a caller may pin the archive's
too), unpacked without links or escaping paths, and cached. `pypi:NAME==X` uses it when
X is not installed; so does the demo."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

from ctxhub.core.errors import SourceError


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def fetch_release(
    name: str,
    version: str,
    dest: Path,
    *,
    sha256: str | None = None,
    say: Callable[[str], None] = lambda _: None,
) -> tuple[Path, str]:
    """(unpacked root, sha256 of the archive) of NAME==VERSION's sdist under `dest`.
    `sha256` pins the archive: another one is deleted before it is unpacked."""
    root = dest / f"{name}-{version}"
    stamp = root / ".sha256"
    if stamp.is_file():
        digest = stamp.read_text().strip()
        if sha256 is None or digest == sha256:
            return root, digest
    download = dest / ".download"
    shutil.rmtree(download, ignore_errors=True)
    download.mkdir(parents=True)
    say(f"downloading {name}=={version} (sdist) from PyPI")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
         "--no-binary", ":all:", "--dest", str(download), f"{name}=={version}"],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    archives = [p for p in download.iterdir() if p.suffix in (".gz", ".zip", ".bz2")]
    if done.returncode != 0 or len(archives) != 1:
        shutil.rmtree(download, ignore_errors=True)
        last = (done.stderr.strip().splitlines() or ["no archive"])[-1]
        raise SourceError(f"cannot fetch {name}=={version} from PyPI: {last}")
    archive = archives[0]
    digest = sha256_of(archive)
    if sha256 is not None and digest != sha256:
        shutil.rmtree(download, ignore_errors=True)
        raise SourceError(f"{archive.name}: sha256 mismatch, deleted; try again")
    unpacked = dest / ".unpack"
    shutil.rmtree(unpacked, ignore_errors=True)
    _unpack(archive, unpacked)
    tops = list(unpacked.iterdir())
    top = tops[0] if len(tops) == 1 and tops[0].is_dir() else unpacked
    shutil.rmtree(root, ignore_errors=True)
    top.rename(root)
    shutil.rmtree(unpacked, ignore_errors=True)
    shutil.rmtree(download, ignore_errors=True)
    stamp.write_text(digest + "\n")
    return root, digest


def _unpack(archive: Path, dest: Path) -> None:
    """Unpack refusing links and paths that leave `dest`."""
    dest.mkdir(parents=True)
    if archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as zf:
            for member in zf.namelist():
                if member.startswith("/") or ".." in Path(member).parts:
                    raise SourceError(f"{archive.name}: unsafe path {member!r}")
            zf.extractall(dest)
        return
    with tarfile.open(archive) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(dest, filter="data")  # links and escaping paths refused
            return
        for info in tar.getmembers():  # Pythons before 3.10.12: the same checks
            if info.issym() or info.islnk() or info.name.startswith("/"):
                raise SourceError(f"{archive.name}: unsafe member {info.name!r}")
            if ".." in Path(info.name).parts:
                raise SourceError(f"{archive.name}: unsafe path {info.name!r}")
        tar.extractall(dest)
