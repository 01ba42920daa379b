"""A release's source distribution (sdist: it has the docs and examples), fetched from
the package index without building anything (`package_index`: its URL and sha256),
checked against the index's sha256 when it publishes one (a caller may pin the archive's
too), unpacked without absolute or escaping paths or links (links within the release are
kept), and cached. A release with no sdist gets its wheel (code only).
`pypi:NAME==X` uses it when X is not installed; so does the demo."""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import shutil
import tarfile
import tempfile
import time
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

import httpx
from pydantic import BaseModel, ConfigDict, ValidationError

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
#: source distribution worth indexing), how long the server may stay silent, and how long
#: a whole download may take (a server trickling bytes is stopped too).
MAX_ARCHIVE_BYTES = 300_000_000
TIMEOUT_S = 60.0
MAX_FETCH_S = 900.0
#: The cache stamp in an unpacked release: a `ReleaseStamp` as JSON.
STAMP = ".sha256"
#: Archive errors a damaged or hostile download raises while unpacking (tarfile's
#: FilterError for an escaping member is a TarError; gzip's BadGzipFile an OSError).
_ARCHIVE_ERRORS = (
    tarfile.TarError,
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    gzip.BadGzipFile,
    EOFError,
    zlib.error,
)


class ReleaseStamp(BaseModel):
    """What the cache remembers of the archive a release was unpacked from."""

    model_config = ConfigDict(frozen=True)

    sha256: str
    archive: str  # its file name: an sdist's, or a wheel's when the release has no sdist
    index: str  # how origins name the index it came from (PyPI, or its host)
    #: its sha256 matched the index's or a pinned one (False: none published, or an old stamp)
    checked: bool


@dataclass(frozen=True)
class FetchedRelease:
    """A release unpacked under the sources folder."""

    root: Path
    stamp: ReleaseStamp

    @property
    def sha256(self) -> str:
        return self.stamp.sha256

    @property
    def archive(self) -> str:
        return self.stamp.archive

    @property
    def is_sdist(self) -> bool:
        return not self.archive.lower().endswith(".whl")

    @property
    def note(self) -> str:
        """The refresh note naming the archive and whether its hash was checked."""
        checked = "" if self.stamp.checked else " (no sha256 published: unchecked)"
        return f"{self.archive}: sha256 {self.sha256}{checked}"


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
    cached = _read_stamp(root / STAMP, f"{name}-{version}.tar.gz")
    if cached is not None and (sha256 is None or cached.sha256 == sha256):
        return FetchedRelease(root, cached)
    found = release_file(name, version)
    label = index_label()
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
        _unpack(archive_path, unpacked, found.filename)
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
    checked = found.sha256 is not None or sha256 is not None
    if not checked:
        say(f"{found.filename}: {label} publishes no sha256 for it: unchecked")
    stamp = ReleaseStamp(sha256=digest, archive=found.filename, index=label, checked=checked)
    (root / STAMP).write_text(stamp.model_dump_json() + "\n")
    return FetchedRelease(root, stamp)


#: A stamp written before stamps were JSON: "<sha256>" or "<sha256> <archive name>".
_LINE_STAMP = re.compile(r"^([0-9a-f]{64})(?: (\S+))?$")


def _read_stamp(path: Path, default_archive: str) -> ReleaseStamp | None:
    """The cache's stamp, or None when there is none or it is unreadable. A stamp of an
    earlier version (one line) still reads, so a cached release is not fetched again
    (offline it could not be); which index it came from, and whether its hash was
    checked, that stamp does not say, and neither does this one."""
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError):
        return None
    try:
        return ReleaseStamp.model_validate_json(text)
    except ValidationError:
        line = _LINE_STAMP.match(text.strip())
        if line is None:
            return None
        archive = line.group(2) or default_archive
        return ReleaseStamp(
            sha256=line.group(1), archive=archive, index="an index not recorded", checked=False
        )


def _size(n: int | None) -> str:
    if n is None:
        return "size unknown"
    return f"{n / 1_000_000:.1f} MB" if n >= 100_000 else f"{max(1, round(n / 1000))} kB"


def _download(found: IndexFile, dest: Path, say: Callable[[str], None]) -> Path:
    """`found` streamed into a file under `dest`, bounded in size, in silence (TIMEOUT_S
    a read) and in total time (MAX_FETCH_S, checked as blocks arrive), its sha256 checked
    against the index's when it publishes one; nothing is left behind when anything fails."""
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
            declared = resp.headers.get("content-length", "").strip()
            size = found.size or (int(declared) if declared.isdigit() else None) or None
            if size is not None and size > MAX_ARCHIVE_BYTES:
                raise SourceError(f"{found.filename} is {_size(size)}, over the fetch limit")
            host = urlparse(found.url).hostname or shown(found.url)
            say(f"fetching {found.filename} ({_size(size)}) from {host}")
            for block in resp.iter_bytes():
                got += len(block)
                if got > MAX_ARCHIVE_BYTES:
                    raise SourceError(f"{found.filename}: over {_size(MAX_ARCHIVE_BYTES)}, refused")
                if time.perf_counter() - started > MAX_FETCH_S:
                    raise SourceError(
                        f"{found.filename}: not fetched in {MAX_FETCH_S:.0f}s "
                        f"({_size(got)} of {_size(size)}), stopped"
                    )
                digest.update(block)
                out.write(block)
        if found.sha256 is not None and digest.hexdigest() != found.sha256.lower():
            raise SourceError(
                f"{found.filename}: sha256 {digest.hexdigest()} is not the index's "
                f"{found.sha256}; deleted, try again"
            )
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
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


def _unpack(archive: Path, dest: Path, name: str) -> None:
    """Unpack `archive` (the index calls it `name`) into `dest`, refusing absolute paths,
    paths that leave `dest` and links that point out of it; a link within the release is
    kept (the snapshot reads it as the file it names). A damaged archive is a SourceError."""
    dest.mkdir(parents=True)
    try:
        if archive.suffix in (".zip", ".whl"):
            with zipfile.ZipFile(archive) as zf:  # zip members are never links here
                for member in zf.namelist():
                    if member.startswith("/") or ".." in Path(member).parts:
                        raise SourceError(f"{name}: unsafe path {member!r}")
                zf.extractall(dest)
            return
        with _opened_tar(archive, name) as tar:
            if hasattr(tarfile, "data_filter"):
                # refuses absolute and escaping paths, links out of `dest`, devices
                tar.extractall(dest, filter="data")
                return
            for info in tar.getmembers():  # Pythons before 3.10.12: stricter, no links
                if info.issym() or info.islnk() or info.name.startswith("/"):
                    raise SourceError(f"{name}: unsafe member {info.name!r}")
                if ".." in Path(info.name).parts:
                    raise SourceError(f"{name}: unsafe path {info.name!r}")
            tar.extractall(dest)
    except _ARCHIVE_ERRORS as exc:
        why = " ".join(str(exc).split())  # one line, whatever the library wrote
        raise SourceError(f"cannot unpack {name}: {why}") from exc


def _opened_tar(archive: Path, name: str) -> tarfile.TarFile:
    """The tar archive, in any compression whatever its name says; a file that is none
    is said in one line (tarfile's message lists every method it tried)."""
    try:
        return tarfile.open(archive)
    except tarfile.ReadError as exc:
        raise SourceError(f"cannot unpack {name}: not a tar archive") from exc
