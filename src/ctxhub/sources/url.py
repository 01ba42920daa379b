"""A URL (e.g. an llms-full.txt dump): one HTTP GET with a timeout and a size cap."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from urllib.parse import urlparse

import httpx

from ctxhub import __version__
from ctxhub.core.errors import SourceError

#: How ctxhub names itself to every server it reads from.
USER_AGENT = f"ctxhub/{__version__}"
TIMEOUT_S = 30.0
MAX_BYTES = 50_000_000


def filename_for(url: str) -> str:
    name = Path(urlparse(url).path).name
    return name if name and "." in name else "index.md"


def fetch(url: str, dest_dir: Path) -> Path:
    """Download url into dest_dir/<its file name>; the old copy stays if anything fails."""
    if urlparse(url).scheme not in ("http", "https"):
        raise SourceError(f"only http(s) URLs can be fetched, not {url!r}")
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
            for block in resp.iter_bytes():
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
