"""A release's source distribution (sdist: it has the docs and examples), fetched from
the package index without building anything (`package_index`: its URL and sha256),
checked against the index's sha256 (a caller may pin the archive's too), unpacked without
links or escaping paths, and cached. A release with no sdist gets its wheel (code only).
`pypi:NAME==X` uses it when X is not installed; so does the demo."""

from __future__ import annotations

import hashlib
import os
import shutil
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

import httpx

from ctxhub.core.errors import SourceError
from ctxhub.sources.package_index import (
    PYPI_SIMPLE,
    IndexFile,
    index_url,
    release_file,
    shown,
)
from ctxhub.sources.url import USER_AGENT

#: The largest archive fetched (sdists with their docs run to tens of MB; more is no
#: source distribution worth indexing) and how long the server may stay silent.
MAX_ARCHIVE_BYTES = 300_000_000
TIMEOUT_S = 60.0
#: The cache stamp in an unpacked release: "<sha256> <archive name>".
STAMP = ".sha256"


@dataclass(frozen=True)
class FetchedRelease:
    """A release unpacked under the sources folder."""

    root: Path
    sha256: str  # of the archive
    archive: str  # its file name: an sdist's, or a wheel's when the release has no sdist

    @property
    def is_sdist(self) -> bool:
        return not self.archive.endswith(".whl")


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def index_label() -> str:
    """How origins name the index: PyPI, or the host pip is pointed at."""
    index = index_url()
    return "PyPI" if index == PYPI_SIMPLE else (urlparse(index).hostname or shown(index))


def fetch_release(
    name: str,
    version: str,
    dest: Path,
    *,
    sha256: str | None = None,
    say: Callable[[str], None] = lambda _: None,
) -> FetchedRelease:
    """NAME==VERSION's sdist (else wheel) unpacked under `dest`, fetched once: a later
    call reads the cache. `sha256` pins the archive: another one is deleted unread."""
    root = dest / f"{name}-{version}"
    stamp = root / STAMP
    if stamp.is_file():
        digest, _, archive = stamp.read_text().strip().partition(" ")
        if sha256 is None or digest == sha256:
            return FetchedRelease(root, digest, archive or f"{root.name} (sdist)")
    found = release_file(name, version)
    if not found.is_sdist:
        say(
            f"{name} {version} has no sdist on {shown(index_url())}: fetching its wheel "
            f"{found.filename} instead (its code only: no docs or examples)"
        )
    dest.mkdir(parents=True, exist_ok=True)
    archive_path = _download(found, dest, say)
    unpacked = dest / ".unpack"
    try:
        digest = sha256_of(archive_path)
        if sha256 is not None and digest != sha256:
            raise SourceError(
                f"{found.filename}: sha256 {digest} is not the pinned {sha256}; deleted"
            )
        shutil.rmtree(unpacked, ignore_errors=True)
        _unpack(archive_path, unpacked)
    except BaseException:
        shutil.rmtree(unpacked, ignore_errors=True)  # no half-unpacked tree left
        raise
    finally:
        archive_path.unlink(missing_ok=True)
    tops = list(unpacked.iterdir())  # an sdist has one folder NAME-X; a wheel, none
    top = tops[0] if found.is_sdist and len(tops) == 1 and tops[0].is_dir() else unpacked
    shutil.rmtree(root, ignore_errors=True)
    top.rename(root)
    shutil.rmtree(unpacked, ignore_errors=True)
    stamp.write_text(f"{digest} {found.filename}\n")
    return FetchedRelease(root, digest, found.filename)


def _size(n: int | None) -> str:
    if n is None:
        return "size unknown"
    return f"{n / 1_000_000:.1f} MB" if n >= 100_000 else f"{max(1, round(n / 1000))} kB"


def _download(found: IndexFile, dest: Path, say: Callable[[str], None]) -> Path:
    """`found` streamed into a file under `dest`, bounded in size and time, its sha256
    checked against the index's; nothing is left behind when anything fails."""
    fd, tmp = tempfile.mkstemp(dir=dest, prefix=".download.", suffix=_suffix(found.filename))
    started = time.perf_counter()
    try:
        digest = hashlib.sha256()
        got = 0
        with (
            os.fdopen(fd, "wb") as out,
            httpx.stream(
                "GET",
                found.url,
                timeout=TIMEOUT_S,
                follow_redirects=True,
                headers={"User-Agent": USER_AGENT},
            ) as resp,
        ):
            if resp.status_code != 200:
                raise SourceError(f"GET {shown(found.url)} answered HTTP {resp.status_code}")
            size = found.size or int(resp.headers.get("content-length") or 0) or None
            if size is not None and size > MAX_ARCHIVE_BYTES:
                raise SourceError(f"{found.filename} is {_size(size)}, over the fetch limit")
            host = urlparse(found.url).hostname or shown(found.url)
            say(f"fetching {found.filename} ({_size(size)}) from {host}")
            for block in resp.iter_bytes():
                got += len(block)
                if got > MAX_ARCHIVE_BYTES:
                    raise SourceError(f"{found.filename}: over {_size(MAX_ARCHIVE_BYTES)}, refused")
                digest.update(block)
                out.write(block)
        if found.sha256 is not None and digest.hexdigest() != found.sha256.lower():
            raise SourceError(
                f"{found.filename}: sha256 {digest.hexdigest()} is not the index's "
                f"{found.sha256}; deleted, try again"
            )
    except httpx.HTTPError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise SourceError(f"cannot fetch {found.filename} from {shown(found.url)}: {exc}") from exc
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    say(f"fetched {found.filename} in {time.perf_counter() - started:.1f}s")
    return Path(tmp)


def _suffix(filename: str) -> str:
    lower = filename.lower()
    return next((s for s in (".tar.gz", ".tar.bz2") if lower.endswith(s)), Path(lower).suffix)


def _unpack(archive: Path, dest: Path) -> None:
    """Unpack refusing links and paths that leave `dest`."""
    dest.mkdir(parents=True)
    if archive.suffix in (".zip", ".whl"):
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
