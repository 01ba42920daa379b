"""A URL (e.g. an llms-full.txt dump): one HTTP GET with a timeout and a size cap; an
archive or binary file (by its name, its type or its first bytes) is refused."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from urllib.parse import urlparse

import httpx

from ctxhub import __version__
from ctxhub.core.errors import SourceError
from ctxhub.sources.local import BINARY_EXT

#: How ctxhub names itself to every server it reads from.
USER_AGENT = f"ctxhub/{__version__}"
TIMEOUT_S = 30.0
MAX_BYTES = 50_000_000


#: Server types that are never a docs file (an archive, a picture, a PDF, a font).
_BINARY_TYPES = ("application/gzip", "application/x-gzip", "application/x-tar",
                 "application/zip", "application/x-bzip2", "application/x-xz",
                 "application/pdf", "application/wasm", "application/java-archive")  # fmt: skip
_BINARY_FAMILIES = ("image/", "audio/", "video/", "font/")
#: Leading bytes of archives a server may label application/octet-stream.
_MAGIC = (b"\x1f\x8b", b"PK\x03\x04", b"BZh", b"\xfd7zXZ", b"%PDF")
_HINT = "add a docs page, a docs site or a text dump (llms-full.txt); a release: pypi:NAME==X"


def binary_reason(url: str) -> str | None:
    """Why the URL's name says it is no docs file (`.tar.gz`, `.whl`, `.png`), or None."""
    name = Path(urlparse(url).path).name.lower()
    suffix = ".tar" if name.endswith(".tar") else Path(name).suffix
    if suffix in BINARY_EXT or suffix == ".tar":
        return f"{url} is an archive or binary file ({suffix}), not docs; {_HINT}"
    return None


def _refused(url: str, content_type: str, head: bytes) -> str | None:
    """Why a response is no docs file: its type, or archive/binary bytes, or None."""
    kind = content_type.split(";")[0].strip().lower()
    if kind in _BINARY_TYPES or kind.startswith(_BINARY_FAMILIES):
        return f"GET {url}: {kind} is not a docs file, refused; {_HINT}"
    if head.startswith(_MAGIC) or b"\x00" in head[:8192]:
        return f"GET {url}: binary content ({kind or 'no type'}) is not a docs file; {_HINT}"
    return None


def filename_for(url: str) -> str:
    name = Path(urlparse(url).path).name
    return name if name and "." in name else "index.md"


def fetch(url: str, dest_dir: Path) -> Path:
    """Download url into dest_dir/<its file name>; the old copy stays if anything fails."""
    if urlparse(url).scheme not in ("http", "https"):
        raise SourceError(f"only http(s) URLs can be fetched, not {url!r}")
    reason = binary_reason(url)
    if reason is not None:
        raise SourceError(reason)
    dest_dir.mkdir(parents=True, exist_ok=True)
    dest = dest_dir / filename_for(url)
    fd, tmp = tempfile.mkstemp(dir=dest_dir, prefix=".download.")
    try:
        size = 0
        headers = {"User-Agent": USER_AGENT}
        with (
            os.fdopen(fd, "wb") as out,
            httpx.stream(
                "GET", url, timeout=TIMEOUT_S, follow_redirects=True, headers=headers
            ) as resp,
        ):
            if resp.status_code != 200:
                raise SourceError(f"GET {url} answered HTTP {resp.status_code}")
            first = True
            for block in resp.iter_bytes():
                if first and block:
                    first = False
                    refused = _refused(url, resp.headers.get("content-type", ""), block)
                    if refused is not None:
                        raise SourceError(refused)
                size += len(block)
                if size > MAX_BYTES:
                    raise SourceError(f"GET {url}: more than {MAX_BYTES} bytes, refused")
                out.write(block)
        os.replace(tmp, dest)
    except httpx.HTTPError as exc:
        raise SourceError(f"GET {url} failed: {exc}") from exc
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return dest
