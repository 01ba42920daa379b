"""Where a release's files lie on a package index: the one file to fetch for NAME==X (its
sdist, else a wheel), with its URL, sha256 and size, read from the project's page in the
simple repository API (PEP 691 JSON, else the PEP 503 HTML every index serves).

Asking the index directly needs no build: `pip download` prepares an sdist's metadata,
which installs its build requirements first (from source under `--no-binary :all:`).
The index is pip's `$PIP_INDEX_URL` when set, else PyPI's."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urljoin, urlparse, urlunparse

import httpx
from packaging.version import InvalidVersion, Version

from ctxhub.core.errors import SourceError
from ctxhub.core.identifiers import canonical_name
from ctxhub.sources.url import USER_AGENT

PYPI_SIMPLE = "https://pypi.org/simple/"
TIMEOUT_S = 30.0
#: The largest project page read (PyPI's pages for projects with thousands of wheels run
#: to a few MB; more is no index page worth reading into memory).
MAX_PAGE_BYTES = 50_000_000
#: JSON first; HTML from an index that has no JSON (a mirror, devpi, a folder served).
_ACCEPT = (
    "application/vnd.pypi.simple.v1+json, "
    "application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.1"
)
#: Source distributions' archive names, preferred first (PEP 625 says .tar.gz; older
#: releases have zips and bzip2 tarballs).
SDIST_SUFFIXES = (".tar.gz", ".tgz", ".zip", ".tar.bz2")
#: Versions named when the one asked for is not on the index.
_SHOWN_VERSIONS = 5


@dataclass(frozen=True)
class IndexFile:
    """One file the index lists for a release."""

    filename: str
    url: str
    sha256: str | None  # None only from an index that publishes no hash
    size: int | None  # None when the index does not say (HTML pages never do)

    @property
    def is_sdist(self) -> bool:
        return self.filename.lower().endswith(SDIST_SUFFIXES)


def index_url() -> str:
    """The index pip is pointed at by `$PIP_INDEX_URL`, else PyPI's (with a final /); a
    value that is no http(s) URL with a host is a SourceError, not an httpx traceback."""
    url = os.environ.get("PIP_INDEX_URL", "").strip() or PYPI_SIMPLE
    try:
        parts = urlparse(url)
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError as exc:
        raise SourceError(f"$PIP_INDEX_URL {shown(url)!r} is not a URL ({exc})") from exc
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SourceError(f"$PIP_INDEX_URL {shown(url)!r} is not an http(s) URL of a package index")
    return url.rstrip("/") + "/"


def shown(url: str) -> str:
    """A URL fit to print: without the user and password an index URL may carry (cut
    out by hand from a URL too malformed to parse)."""
    try:
        parts = urlparse(url)
        if parts.username is None and parts.password is None:
            return url
        host = parts.hostname or ""
        netloc = f"{host}:{parts.port}" if parts.port else host
    except ValueError:
        return re.sub(r"//[^/]*@", "//", url)
    return urlunparse(parts._replace(netloc=netloc))


def release_file(name: str, version: str, index: str | None = None) -> IndexFile:
    """The file to fetch for NAME==VERSION: its sdist, else a wheel (a pure-Python one
    first); a SourceError names what is missing (the project, the release)."""
    index = index or index_url()
    files, versions = _project_files(name, index)
    mine = [f for f in files if _release_of(f.filename, name) is not None]
    wanted = [f for f in mine if _same_version(_release_of(f.filename, name) or "", version)]
    if not wanted:
        known = sorted(versions or {_release_of(f.filename, name) or "" for f in mine}, key=_order)[
            -_SHOWN_VERSIONS:
        ]
        newest = f" (newest: {', '.join(reversed(known))})" if known else ""
        raise SourceError(f"{name} has no release {version} on {shown(index)}{newest}")
    sdists = sorted(
        (f for f in wanted if f.is_sdist),
        key=lambda f: next(
            i for i, s in enumerate(SDIST_SUFFIXES) if f.filename.lower().endswith(s)
        ),
    )
    if sdists:
        return sdists[0]
    wheels = [f for f in wanted if f.filename.lower().endswith(".whl")]
    if not wheels:
        raise SourceError(
            f"{name} {version} on {shown(index)} has neither an sdist nor a wheel "
            f"({', '.join(f.filename for f in wanted)})"
        )
    return sorted(wheels, key=lambda f: not f.filename.lower().endswith("-none-any.whl"))[0]


def _project_files(name: str, index: str) -> tuple[list[IndexFile], set[str]]:
    """The files the index lists on NAME's page, and the versions it names (PEP 700)."""
    page = urljoin(index, canonical_name(name) + "/")
    headers = {"User-Agent": USER_AGENT, "Accept": _ACCEPT}
    try:
        with httpx.stream(
            "GET", page, headers=headers, timeout=TIMEOUT_S, follow_redirects=True
        ) as resp:
            if resp.status_code == 404:
                raise SourceError(f"no project {name!r} on the package index {shown(index)}")
            if resp.status_code != 200:
                raise SourceError(
                    f"the package index answered HTTP {resp.status_code} for {shown(page)}"
                )
            body = _bounded_body(resp, page)
            charset, final_url = resp.charset_encoding, str(resp.url)
            kind = resp.headers.get("content-type", "").split(";")[0].strip().lower()
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
        raise SourceError(f"cannot reach the package index {shown(index)}: {exc}") from exc
    try:
        text = body.decode(charset or "utf-8", errors="replace")
    except LookupError:  # a charset Python does not know
        text = body.decode("utf-8", errors="replace")
    if kind.endswith("json"):
        return _from_json(text, final_url)
    return _from_html(text, final_url), set()


def _bounded_body(resp: httpx.Response, page: str) -> bytes:
    """The page's bytes, refused past MAX_PAGE_BYTES (before reading, when its
    Content-Length says so)."""
    too_big = SourceError(f"{shown(page)}: the project page is over {MAX_PAGE_BYTES} bytes")
    declared = resp.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_PAGE_BYTES:
        raise too_big
    chunks: list[bytes] = []
    got = 0
    for block in resp.iter_bytes():
        got += len(block)
        if got > MAX_PAGE_BYTES:
            raise too_big
        chunks.append(block)
    return b"".join(chunks)


def _from_json(text: str, page: str) -> tuple[list[IndexFile], set[str]]:
    try:
        data = json.loads(text)
        files = [
            IndexFile(
                filename=str(f["filename"]),
                url=urljoin(page, str(f["url"])),
                # an empty hash is no hash (PEP 691 allows `"hashes": {}`)
                sha256=str((f.get("hashes") or {}).get("sha256") or "") or None,
                size=_size_of(f.get("size")),
            )
            for f in data.get("files", [])
        ]
        versions = {str(v) for v in data.get("versions", [])}
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise SourceError(f"{shown(page)}: not a simple-API project page ({exc})") from exc
    return files, versions


def _size_of(value: object) -> int | None:
    """A file's size as the index states it: a count of bytes, else unknown."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


class _Links(HTMLParser):
    """The `<a href>` links of a PEP 503 page, hashes from their `#sha256=` fragments."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.page = page
        self.files: list[IndexFile] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag != "a" or not href:
            return
        try:
            url, _, fragment = urljoin(self.page, href).partition("#")
            filename = urlparse(url).path.rsplit("/", 1)[-1]
        except ValueError:  # a link no URL parser reads (`http://[x`): no file of ours
            return
        algo, _, digest = fragment.partition("=")
        sha256 = digest if algo == "sha256" and digest else None  # `#sha256=` is no hash
        self.files.append(IndexFile(filename, url, sha256, None))


def _from_html(text: str, page: str) -> list[IndexFile]:
    links = _Links(page)
    links.feed(text)
    return links.files


def _release_of(filename: str, name: str) -> str | None:
    """The version a file of project NAME is for, or None for another project's file."""
    lower = filename.lower()
    if lower.endswith(".whl"):
        project, _, rest = filename.partition("-")
        version = rest.partition("-")[0]
    else:
        suffix = next((s for s in SDIST_SUFFIXES if lower.endswith(s)), None)
        if suffix is None:
            return None
        project, _, version = filename[: -len(suffix)].rpartition("-")
    return version if project and canonical_name(project) == canonical_name(name) else None


def _same_version(a: str, b: str) -> bool:
    try:
        return Version(a) == Version(b)
    except InvalidVersion:
        return a == b


def _order(version: str) -> tuple[Version, str]:
    """Oldest first; a version PEP 440 cannot read sorts first, by its text."""
    try:
        return (Version(version), "")
    except InvalidVersion:
        return (Version("0.dev0"), version)
