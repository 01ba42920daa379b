"""A docs site over HTTP, from a real local server serving real Sphinx output: crawled
within its prefix, robots.txt honoured, sitemap read, unchanged pages not re-read, and
indexed like a folder of built docs."""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from ctxhub.core.errors import SourceError
from ctxhub.core.knowledge import SearchFilters
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.sources import spec_from_argument
from ctxhub.sources.crawl import CrawlLimits, crawl, relpath_for
from ctxhub.store.sqlite.store import SQLiteStore

SPHINX = Path(__file__).parents[1] / "fixtures" / "html_docs" / "sphinx"


class _Handler(http.server.SimpleHTTPRequestHandler):
    requests: ClassVar[list[str]] = []
    conditional: ClassVar[list[str]] = []  # paths asked with If-Modified-Since

    def log_message(self, *args: object) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        type(self).requests.append(self.path)
        if self.headers.get("If-Modified-Since"):
            type(self).conditional.append(self.path)
        if self.path == "/docs/to-private":  # a redirect into what robots.txt disallows
            self.send_response(302)
            self.send_header("Location", "/docs/private/s.html")
            self.end_headers()
            return
        if self.path.startswith("/docs/loop"):  # a redirect loop
            self.send_response(302)
            self.send_header(
                "Location", "/docs/loop2" if self.path == "/docs/loop1" else "/docs/loop1"
            )
            self.end_headers()
            return
        super().do_GET()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[str]:
    root = tmp_path / "www"
    shutil.copytree(SPHINX, root / "docs")
    (root / "robots.txt").write_text("User-agent: *\nDisallow: /docs/search.html\n")
    (root / "docs" / "orphan.html").write_text(
        "<html><body><div class='body' role='main'><h1>Only in the sitemap</h1>"
        "<p>This page is linked from nowhere, but the sitemap lists it, so a crawl that "
        "reads the sitemap still finds and indexes it.</p></div></body></html>"
    )
    (root / "docs" / "sitemap.xml").write_text(
        "<urlset><url><loc>http://HOST/docs/orphan.html</loc></url></urlset>"
    )
    (root / "elsewhere.html").write_text("<html><body><main>outside the prefix</main></body>")
    handler = functools.partial(_Handler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    host = f"127.0.0.1:{server.server_port}"
    sitemap = root / "docs" / "sitemap.xml"
    sitemap.write_text(sitemap.read_text().replace("HOST", host))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Handler.requests = []
    yield f"http://{host}/docs/index.html"
    server.shutdown()
    server.server_close()


FAST = CrawlLimits(pause_s=0.0)


def test_crawls_the_prefix_honours_robots_and_reads_the_sitemap(site: str, tmp_path: Path) -> None:
    dest = tmp_path / "mirror"
    result = crawl(site, dest, FAST)
    pages = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*.html"))
    # pages the site links with <a href> (genindex is only a <link rel=index>), and the
    # sitemap's orphan
    assert pages == ["guide/errors.html", "guide/startup.html", "index.html", "orphan.html"]
    assert "search.html" not in pages  # robots.txt says no
    assert not any("elsewhere" in r for r in _Handler.requests)  # outside the prefix
    assert result.pages == 4
    assert any("_sources/" in url for url, _ in result.skipped)  # a linked .rst.txt: counted
    _Handler.requests = []
    again = crawl(site, dest, FAST)  # validators: the server answers 304
    assert again.pages == 0 and again.unchanged == 4
    (Path(dest) / "stale.html").write_text("<html></html>")  # no longer on the site
    crawl(site, dest, FAST)
    assert not (dest / "stale.html").exists()


def test_a_folder_url_without_its_slash(site: str, tmp_path: Path) -> None:
    result = crawl(site.removesuffix("/index.html"), tmp_path / "m", FAST)
    assert result.pages == 4  # /docs is crawled as /docs/


def test_a_page_limit_is_reported_not_silent(site: str, tmp_path: Path) -> None:
    result = crawl(site, tmp_path / "m", CrawlLimits(max_pages=2, pause_s=0.0))
    assert result.pages == 2
    assert any("page limit" in reason for _, reason in result.skipped)


def test_an_unreachable_start_fails_and_keeps_the_last_pages(site: str, tmp_path: Path) -> None:
    dest = tmp_path / "mirror"
    crawl(site, dest, FAST)
    with pytest.raises(SourceError, match="HTTP 404"):
        crawl(site.replace("index.html", "gone.html"), dest, FAST)
    assert (dest / "guide" / "startup.html").is_file()


def test_a_crawled_site_indexes_as_doc_pages_with_their_urls(site: str, tmp_path: Path) -> None:
    spec = spec_from_argument(site, name="acme")
    assert spec.base_url == site.removesuffix("index.html")
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        (source,) = refresh(store, [spec], tmp_path / "sources", None).sources
        assert source.status == "ok" and source.added > 0
        pages = {p for _, p in store.doc_pages("acme")}
        assert {"guide/startup.html", "orphan.html"} <= pages
        hits = store.bm25(["on_startup"], SearchFilters(), ["doc"], 3)
        (chunk,) = store.get_chunks([hits[0][0]])
        # the page's URL, opened at the hit's section (the heading's id in the page)
        page_url, _, anchor = (chunk.url or "").partition("#")
        assert page_url == spec.base_url + "guide/startup.html"
        assert anchor == chunk.metadata.extra.get("anchor", "")


def test_the_prefix_is_the_start_folder() -> None:
    from ctxhub.sources.crawl import site_root

    assert site_root("https://x.dev/docs") == "https://x.dev/docs/"
    assert site_root("https://x.dev/docs/") == "https://x.dev/docs/"
    assert site_root("https://x.dev/docs/index.html?x=1#y") == "https://x.dev/docs/"
    assert site_root("https://x.dev") == "https://x.dev/"


def test_paths_for_pages() -> None:
    assert relpath_for("http://h/d/guide/", "http://h/d/") == "guide/index.html"
    assert relpath_for("http://h/d/a/b", "http://h/d/") == "a/b.html"
    assert relpath_for("http://h/d/", "http://h/d/") == "index.html"


@pytest.fixture
def extensionless() -> Iterator[str]:
    """A server whose pages have no extension and no folder form: `/guide/install` is a
    page, `/guide/install/` a 404 (MkDocs without directory URLs, Docusaurus, an API)."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            pages = {
                "/guide/install": (b"text/html", b"<html><body><main><h1>Install</h1>"),
                "/pypi/acme/json": (b"application/json", b'{"info": {}}'),
            }
            page = pages.get(self.path)
            self.send_response(200 if page else 404)
            self.send_header("Content-Type", page[0].decode() if page else "text/plain")
            self.end_headers()
            self.wfile.write(page[1] if page else b"not found")

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


def test_the_start_url_is_requested_as_given(extensionless: str, tmp_path: Path) -> None:
    result = crawl(f"{extensionless}/guide/install", tmp_path / "m", FAST)
    assert result.pages == 1  # not rewritten to `/guide/install/`, which is a 404
    assert (tmp_path / "m" / "index.html").is_file()
    start = f"{extensionless}/pypi/acme/json"
    with pytest.raises(SourceError) as failed:  # the error names the URL requested
        crawl(start, tmp_path / "j", FAST)
    assert str(failed.value) == f"GET {start}: not HTML (application/json)"


@pytest.fixture
def latin1() -> Iterator[str]:
    """A server that names the charset only in its Content-Type header."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            text = "Naïve résumé " + "façade, about the café and its crème brûlée. " * 2
            body = f"<html><body><main><h1>Café crème</h1><p>{text}</p></main>"
            self.send_response(200 if self.path == "/docs/" else 404)
            self.send_header("Content-Type", "text/html; charset=ISO-8859-1")
            self.end_headers()
            self.wfile.write(body.encode("latin-1") if self.path == "/docs/" else b"")

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/docs/"
    server.shutdown()
    server.server_close()


def test_the_servers_charset_is_honoured(latin1: str, tmp_path: Path) -> None:
    from ctxhub.ingest.docs.chunks import chunk_doc_file

    crawl(latin1, tmp_path / "m", FAST)
    saved = (tmp_path / "m" / "index.html").read_bytes()
    assert saved.startswith(b"\xef\xbb\xbf") and "Café crème".encode() in saved
    (chunk,) = chunk_doc_file("s", "index.html", saved)
    assert "Naïve résumé" in chunk.content


def _page(text: str, *links: str) -> str:
    anchors = "".join(f"<a href='{link}'>{link}</a> " for link in links)
    return f"<html><body><main><h1>{text}</h1><p>{text} text. {anchors}</p></main></body></html>"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """An empty web root to fill, served; yields (root, base URL)."""
    root = tmp_path / "www"
    (root / "docs").mkdir(parents=True)
    handler = functools.partial(_Handler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    _Handler.requests = []
    yield root, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


def test_every_page_the_page_limit_leaves_out_is_counted(
    served: tuple[Path, str], tmp_path: Path
) -> None:
    root, base = served
    (root / "docs" / "index.html").write_text(_page("Index", *(f"p{i}.html" for i in range(9))))
    for i in range(9):
        (root / "docs" / f"p{i}.html").write_text(_page(f"Page {i}", "index.html"))
    result = crawl(f"{base}/docs/", tmp_path / "m", CrawlLimits(max_pages=4, pause_s=0.0))
    assert result.pages == 4
    over = sorted(url for url, why in result.skipped if why == "over the 4-page limit")
    assert over == sorted(f"{base}/docs/p{i}.html" for i in range(3, 9))  # all 6, not 1
    assert f"{base}/docs/index.html" not in over  # the start page under another URL


def test_pages_past_the_depth_limit_and_robots_are_counted(
    served: tuple[Path, str], tmp_path: Path
) -> None:
    root, base = served
    (root / "robots.txt").write_text("User-agent: *\nDisallow: /docs/private/\n")
    (root / "docs" / "private").mkdir()
    (root / "docs" / "private" / "s.html").write_text(_page("Secret"))
    links = ("d1.html", "private/s.html", "to-private")
    (root / "docs" / "index.html").write_text(_page("Index", *links))
    for i in range(1, 6):
        (root / "docs" / f"d{i}.html").write_text(_page(f"Depth {i}", f"d{i + 1}.html"))
    result = crawl(f"{base}/docs/", tmp_path / "m", CrawlLimits(max_depth=3, pause_s=0.0))
    assert result.pages == 4  # index, d1, d2, d3
    assert (f"{base}/docs/d4.html", "over the 3-link depth limit") in result.skipped
    assert not any("d5" in url for url, _ in result.skipped)  # never seen: d4 is not read
    assert (f"{base}/docs/private/s.html", "disallowed by robots.txt") in result.skipped
    moved = (f"{base}/docs/to-private", f"redirected to {base}/docs/private/s.html, disallowed")
    assert any(url == moved[0] and why.startswith(moved[1]) for url, why in result.skipped)
    assert not any("/docs/private/" in r or "d4" in r for r in _Handler.requests)


def test_robots_crawl_delay_paces_every_request(
    served: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import types

    from ctxhub.sources import crawl as crawl_module

    slept: list[float] = []
    now = [0.0]  # a clock that moves only when the crawler sleeps

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    clock = types.SimpleNamespace(sleep=sleep, monotonic=lambda: now[0])
    monkeypatch.setattr(crawl_module, "time", clock)
    root, base = served
    (root / "robots.txt").write_text("User-agent: *\nCrawl-delay: 2\n")
    (root / "docs" / "index.html").write_text(_page("Index", "a.html", "gone.html"))
    (root / "docs" / "a.html").write_text(_page("A"))
    crawl(f"{base}/docs/", tmp_path / "m", FAST)
    requests = len(_Handler.requests)  # robots, 2 sitemaps, index, a, gone (a 404)
    assert requests == 6 and len(slept) == requests - 1  # before each but the first
    assert slept == [2.0] * 5
    (root / "robots.txt").write_text("User-agent: *\nCrawl-delay: 0.5\n")
    slept.clear()
    crawl(f"{base}/docs/", tmp_path / "n", FAST)
    assert slept == [1.0] * 5  # urllib reads whole seconds: rounded up
    (root / "robots.txt").write_text("User-agent: *\nCrawl-delay: 3600\n")
    slept.clear()
    crawl(f"{base}/docs/", tmp_path / "o", FAST)
    assert slept == [crawl_module.MAX_CRAWL_DELAY_S] * 5  # bounded


def test_no_request_is_wasted(served: tuple[Path, str], tmp_path: Path) -> None:
    root, base = served
    links = ("./", "index.html", "huge.html", "loop1")
    (root / "docs" / "index.html").write_text(_page("Index", *links))
    (root / "docs" / "huge.html").write_text(_page("Huge " + "x" * 2000))
    limits = CrawlLimits(max_page_bytes=1000, pause_s=0.0)
    result = crawl(f"{base}/docs/", tmp_path / "m", limits)
    assert result.pages == 1 and "/docs/index.html" not in _Handler.requests  # = /docs/
    assert (f"{base}/docs/huge.html", "over 1000 bytes") in result.skipped
    assert sum(r.startswith("/docs/loop") for r in _Handler.requests) <= 1 + 5  # 5 hops
    _Handler.requests, _Handler.conditional = [], []
    again = crawl(f"{base}/docs/", tmp_path / "m", limits)
    assert (f"{base}/docs/huge.html", "over 1000 bytes") in again.skipped  # still said
    assert "/docs/huge.html" in _Handler.conditional  # but asked for only if changed
