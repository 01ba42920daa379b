"""A docs site over HTTP: crawl the pages under a start URL into a folder of HTML files,
which then index like any folder of built docs.

Polite and bounded: same scheme, host and path prefix as the start URL; robots.txt is
honoured, its `Crawl-delay` too (up to `MAX_CRAWL_DELAY_S`); `sitemap.xml` (under the
prefix, else at the site root) seeds the queue; at most `max_pages` pages, `max_depth`
links from the start, `max_page_bytes` a page, one request at a time with a pause
between any two. A refresh asks with the validators the server gave (ETag,
Last-Modified): an unchanged page answers 304 and is not re-read; pages no longer
reachable are removed. If the start page cannot be read the crawl fails before anything
is changed, so the last good pages stay indexed. A page the server labels with a
charset is saved as UTF-8 with a byte-order mark, which outranks the page's own
`<meta charset>` when the folder is read, as the HTTP header does in a browser.
"""

from __future__ import annotations

import codecs
import json
import math
import os
import posixpath
import re
import time
import urllib.robotparser
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit, urlunsplit

import httpx

from ctxhub.core.charsets import codec_for, decode_text
from ctxhub.core.errors import SourceError
from ctxhub.sources.url import USER_AGENT as AGENT

STATE = ".crawl.json"
_LOC = re.compile(r"<loc>\s*([^<\s]+)\s*</loc>")
#: Hops one request may follow: a redirect loop costs this many requests, not 21.
MAX_REDIRECTS = 5
#: A robots.txt `Crawl-delay` above this is cut to it: 500 pages still take under an hour.
MAX_CRAWL_DELAY_S = 5.0
#: urllib's robots parser reads whole seconds only: `0.5` is rounded up before it reads.
_FRACTIONAL_DELAY = re.compile(r"(?im)^(\s*crawl-delay\s*:\s*)(\d*\.\d+)")


@dataclass
class CrawlLimits:
    max_pages: int = 500
    max_depth: int = 6
    max_page_bytes: int = 5_000_000
    timeout_s: float = 30.0
    pause_s: float = 0.1  # between any two requests; robots.txt's Crawl-delay if longer


@dataclass
class CrawlResult:
    pages: int = 0
    unchanged: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (url, reason)


def is_site(url: str) -> bool:
    """True for a docs site to crawl; False for one file (llms-full.txt, a .md page)."""
    name = posixpath.basename(urlsplit(url).path)
    return "." not in name or name.lower().endswith((".html", ".htm"))


def site_root(start: str) -> str:
    """The URL every crawled page's path is relative to (its chunks' URLs start here)."""
    return _prefix(_clean(start))


def _prefix(start: str) -> str:
    """`/docs/`, `/docs` and `/docs/index.html` all crawl below `/docs/`."""
    parts = urlsplit(start)
    path = parts.path or "/"
    if not path.endswith("/"):
        last = posixpath.basename(path)
        path = posixpath.dirname(path) + "/" if "." in last else path + "/"
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def _clean(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", "", ""))


def relpath_for(url: str, prefix: str) -> str:
    """Where a page is kept below the crawl folder: `guide/` -> `guide/index.html`."""
    rel = url[len(prefix) :]
    if not rel or rel.endswith("/"):
        rel += "index.html"
    elif not rel.lower().endswith((".html", ".htm")):
        rel += ".html"
    parts = [p for p in rel.split("/") if p not in ("", ".", "..")]
    return "/".join(parts) or "index.html"


class _Disallowed(httpx.RequestError):
    """A redirect to a URL robots.txt disallows: not followed."""


class _Crawler:
    def __init__(self, start: str, dest: Path, limits: CrawlLimits) -> None:
        # The start page is requested exactly as given (less its #fragment): `/docs`
        # may be a page (MkDocs, Docusaurus) or an API answer where `/docs/` is a 404.
        # Only the prefix the crawl stays below is derived (`/docs` -> `/docs/`).
        self.start, self.dest, self.limits = urldefrag(start)[0], dest, limits
        self.prefix = _prefix(_clean(start))
        self.client = httpx.Client(
            timeout=limits.timeout_s,
            follow_redirects=True,
            max_redirects=MAX_REDIRECTS,
            headers={"User-Agent": AGENT},
            event_hooks={"request": [self._robots_allow]},
        )
        self.robots = urllib.robotparser.RobotFileParser()
        self.robots.parse([])
        self.state: dict[str, dict[str, str]] = {}
        self.pause_s, self.last_request = limits.pause_s, -math.inf
        state_file = dest / STATE
        if state_file.is_file():
            try:
                self.state = json.loads(state_file.read_text("utf-8"))
            except (OSError, ValueError):
                self.state = {}

    def _robots_allow(self, request: httpx.Request) -> None:
        """Every request, a redirect's hop too, asks robots.txt first (links are checked
        before they are queued; a redirect could lead anywhere)."""
        if not self.robots.can_fetch(AGENT, str(request.url)):
            raise _Disallowed("disallowed by robots.txt", request=request)

    def under(self, url: str) -> bool:
        """Below the prefix, or the prefix's own folder page (`/docs` for `/docs/`)."""
        return url.startswith(self.prefix) or url + "/" == self.prefix

    def inside(self, url: str) -> bool:
        allowed = self.under(url) or url == self.start
        return allowed and self.robots.can_fetch(AGENT, url)

    def _wait_turn(self) -> None:
        """One request at a time, `pause_s` apart (robots.txt may ask for longer)."""
        gap = self.pause_s - (time.monotonic() - self.last_request)
        if gap > 0:
            time.sleep(gap)
        self.last_request = time.monotonic()

    def _get_text(self, url: str) -> str | None:
        self._wait_turn()
        try:
            resp = self.client.get(url)
        except httpx.HTTPError:
            return None
        return resp.text if resp.status_code == 200 else None

    def read_robots(self) -> None:
        parts = urlsplit(self.start)
        text = self._get_text(urlunsplit((parts.scheme, parts.netloc, "/robots.txt", "", "")))
        if text is not None:
            whole = _FRACTIONAL_DELAY.sub(lambda m: m[1] + str(math.ceil(float(m[2]))), text)
            self.robots.parse(whole.splitlines())
            delay = self.robots.crawl_delay(AGENT)
            if delay is not None:
                self.pause_s = max(self.pause_s, min(float(delay), MAX_CRAWL_DELAY_S))

    def sitemap_urls(self) -> list[str]:
        parts = urlsplit(self.start)
        root = urlunsplit((parts.scheme, parts.netloc, "/sitemap.xml", "", ""))
        for candidate in dict.fromkeys([self.prefix + "sitemap.xml", root]):
            text = self._get_text(candidate)
            if text:
                return [_clean(u) for u in _LOC.findall(text)]
        return []

    def fetch(self, url: str) -> tuple[str, bytes | None, str]:
        """(status, body or None, final url): "new", "unchanged" or a skip reason."""
        known = self.state.get(url, {})
        headers = {}
        if known.get("etag"):
            headers["If-None-Match"] = known["etag"]
        if known.get("last_modified"):
            headers["If-Modified-Since"] = known["last_modified"]
        self._wait_turn()
        try:
            with self.client.stream("GET", url, headers=headers) as resp:
                if resp.status_code == 304 and known.get("skipped"):
                    return known["skipped"], None, url  # still the page too big to read
                if resp.status_code == 304 and (self.dest / known.get("file", "-")).is_file():
                    return "unchanged", None, url
                if resp.status_code != 200:
                    return f"HTTP {resp.status_code}", None, url
                kind = resp.headers.get("content-type", "")
                if "html" not in kind:
                    return f"not HTML ({kind.split(';')[0] or 'no type'})", None, url
                validators = {
                    "etag": resp.headers.get("etag", ""),
                    "last_modified": resp.headers.get("last-modified", ""),
                }
                too_big = f"over {self.limits.max_page_bytes} bytes"
                size = resp.headers.get("content-length", "")
                # a page too big is not downloaded, and next time asked for only if changed
                if size.isdigit() and int(size) > self.limits.max_page_bytes:
                    self.state[url] = {**validators, "skipped": too_big}
                    return too_big, None, url
                body = bytearray()
                for block in resp.iter_bytes():
                    body += block
                    if len(body) > self.limits.max_page_bytes:
                        self.state[url] = {**validators, "skipped": too_big}
                        return too_big, None, url
                self.state[url] = validators
                return "new", _as_utf8(bytes(body), resp.charset_encoding), _clean(str(resp.url))
        except _Disallowed as exc:
            return f"redirected to {exc.request.url}, disallowed by robots.txt", None, url
        except httpx.HTTPError as exc:
            return f"failed: {exc}", None, url

    def links(self, base: str, html: bytes) -> list[str]:
        from bs4 import BeautifulSoup

        soup = BeautifulSoup(html, "html.parser")
        out = []
        for a in soup.find_all("a", href=True):
            href = str(a["href"])
            if href.startswith(("mailto:", "javascript:", "#")):
                continue
            out.append(_clean(urljoin(base, href)))
        return out


def crawl(start: str, dest: Path, limits: CrawlLimits | None = None) -> CrawlResult:
    """Mirror the docs pages under `start` into `dest` (see the module docstring). Every
    page of the site found but not read is in `skipped` with why: robots.txt, the depth
    limit, the page limit (or an HTTP error, not HTML, too big, ...)."""
    limits = limits or CrawlLimits()
    dest.mkdir(parents=True, exist_ok=True)
    c = _Crawler(start, dest, limits)
    result = CrawlResult()
    queue: deque[tuple[str, int]] = deque()
    seen: set[str] = set()
    left_out: dict[str, str] = {}  # url -> why it was found but never requested
    kept: dict[str, str] = {}  # url -> relpath

    def found(url: str, depth: int) -> None:
        if url in seen or not (c.under(url) or url == c.start):
            return  # already queued, or another site's page: not ours to report
        seen.add(url)
        if not c.robots.can_fetch(AGENT, url):
            left_out[url] = "disallowed by robots.txt"
        elif depth > limits.max_depth:
            left_out[url] = f"over the {limits.max_depth}-link depth limit"
        else:
            queue.append((url, depth))

    try:
        c.read_robots()
        if not c.inside(c.start):
            raise SourceError(f"robots.txt of {c.start} does not allow ctxhub to read it")
        found(c.start, 0)
        for url in c.sitemap_urls():
            found(url, 1)
        files: set[str] = set()  # the relpaths in `kept`
        while queue and len(kept) < limits.max_pages:
            url, depth = queue.popleft()
            if _index_form(url) and relpath_for(url, c.prefix) in files:
                continue  # `docs/index.html` once `docs/` is kept: the same page, not asked
            status, body, final = c.fetch(url)
            if status not in ("new", "unchanged"):
                if url == c.start:
                    raise SourceError(f"GET {c.start}: {status}")
                result.skipped.append((url, status))
                continue
            rel = relpath_for(final, c.prefix) if c.under(final) else None
            if rel is None:
                result.skipped.append((url, f"redirected outside {c.prefix}"))
                continue
            if rel in files:
                continue  # one page under two URLs (`docs/` and `docs/index.html`)
            kept[url] = rel
            files.add(rel)
            path = dest / rel
            if body is None:
                result.unchanged += 1
                body = path.read_bytes()
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_name(f".{path.name}.part")
                tmp.write_bytes(body)
                os.replace(tmp, path)
                result.pages += 1
            for link in c.links(final, body):
                found(link, depth + 1)
        for url, _ in queue:
            left_out[url] = f"over the {limits.max_pages}-page limit"
        # a URL left out that names a page kept under another URL (`x/index.html`) is
        # not a missing page
        result.skipped.extend(
            (url, why)
            for url, why in left_out.items()
            if not (c.under(url) and relpath_for(url, c.prefix) in files)
        )
    finally:
        c.client.close()
    too_big = {url: c.state[url] for url, _ in result.skipped if "skipped" in c.state.get(url, {})}
    _forget_the_rest(dest, kept, c.state, too_big)
    return result


def _as_utf8(body: bytes, charset: str | None) -> bytes:
    """The page in the charset the server named, saved as UTF-8 with a byte-order mark
    (a mark already there outranks the header, as in a browser)."""
    boms = (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
    codec = codec_for(charset) if charset else None
    if codec is None or body.startswith(boms):
        return body
    return codecs.BOM_UTF8 + decode_text(body, codec)[0].encode("utf-8")


def _index_form(url: str) -> bool:
    """`x/` or `x/index.html`: two names of one page (others, `x` and `x.html`, may not be)."""
    return url.endswith("/") or posixpath.basename(urlsplit(url).path) == "index.html"


def _forget_the_rest(
    dest: Path,
    kept: dict[str, str],
    state: dict[str, dict[str, str]],
    too_big: dict[str, dict[str, str]],
) -> None:
    """Remove pages this crawl did not reach; keep validators for the ones it did, and
    for pages too big to read (a refresh asks for them only if they changed)."""
    files = set(kept.values())
    for path in dest.rglob("*.htm*"):
        rel = path.relative_to(dest).as_posix()
        if rel not in files:
            path.unlink()
    fresh = {url: {**state.get(url, {}), "file": rel} for url, rel in kept.items()}
    fresh.update(too_big)
    (dest / STATE).write_text(json.dumps(fresh, indent=1), encoding="utf-8")
