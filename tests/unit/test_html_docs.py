"""A local folder of built HTML docs indexes as doc pages (real Sphinx output in
tests/fixtures/html_docs): main content, headings as breadcrumbs, code kept."""

from __future__ import annotations

import shutil
from pathlib import Path

from ctxhub.core.knowledge import ChunkQuery, SearchFilters
from ctxhub.ingest.docs.html import html_to_markdown
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore

SPHINX = Path(__file__).parents[1] / "fixtures" / "html_docs" / "sphinx"


def test_main_content_with_headings_and_code_and_no_navigation() -> None:
    title, markdown = html_to_markdown((SPHINX / "guide" / "startup.html").read_text())
    assert title == "Running code at startup"
    assert "## Lifespan hooks" in markdown  # headings become the breadcrumbs
    assert "```python\nfrom acme import App" in markdown  # code kept, with its language
    assert "Navigation" not in markdown and "Quick search" not in markdown  # sidebar gone
    assert "Powered by" not in markdown and "¶" not in markdown  # footer, permalinks gone


def test_a_folder_of_built_docs_indexes_every_page_and_skips_generated_ones(
    tmp_path: Path,
) -> None:
    site = tmp_path / "html"
    shutil.copytree(SPHINX, site)
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        summary = refresh(store, [SourceSpec(name="acme-docs", path=str(site))], tmp_path, None)
        (source,) = summary.sources
        assert source.status == "ok" and source.warning is None
        assert "docs" in source.kinds
        pages = {path for _, path in store.doc_pages("acme-docs")}
        assert pages == {"index.html", "guide/startup.html", "guide/errors.html"}
        skipped = dict(source.skipped)
        assert skipped["genindex.html"] == "a generated index page, not docs"
        startup = store.find_chunks(ChunkQuery(source="acme-docs", path="guide/startup.html"))
        assert {c.section for c in startup} >= {"Running code at startup > Lifespan hooks"}
        found = store.bm25(["on_startup"], SearchFilters(), ["doc"], 5)
        assert found and found[0][0] in {c.id for c in startup}


def test_html_pages_are_found_by_path_without_suffix_and_keep_it_in_urls() -> None:
    from ctxhub.core.doc_paths import doc_url, normalize_doc_path

    assert normalize_doc_path("guide/startup.html") == "guide/startup"
    assert (
        doc_url("https://acme.dev/", "guide/startup.html") == "https://acme.dev/guide/startup.html"
    )
    assert doc_url("https://acme.dev", "guide/startup.md") == "https://acme.dev/guide/startup"


def test_an_app_shell_is_not_taken_for_a_docs_page() -> None:
    import pytest

    from ctxhub.ingest.docs.html import NotADocsPage

    shell = (
        "<!doctype html><html><head><title>Voice UI</title></head><body>"
        "<div id='app'><h3>Conversation</h3><button>Connect</button></div>"
        "<script type='module' src='/src/main.js'></script></body></html>"
    )
    with pytest.raises(NotADocsPage, match="an app page"):
        html_to_markdown(shell)


def test_a_page_is_read_in_the_charset_its_meta_names() -> None:
    from ctxhub.ingest.docs.chunks import chunk_doc_file
    from ctxhub.ingest.docs.html import decode_html

    text = "Naïve résumé façade — “quoted”, about the café and its crème brûlée, twice: "
    body = f"<main><h1>Café crème</h1><p>{text}the café and its crème.</p></main></body>"
    meta = '<html><head><meta charset="iso-8859-1"><title>Café</title></head><body>'
    page = (meta + body.replace("—", "-").replace("“", '"').replace("”", '"')).encode("latin-1")
    assert decode_html(page) == (page.decode("latin-1"), [])
    equiv = '<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252">'
    assert decode_html((equiv + body).encode("cp1252"))[0] == equiv + body  # cp1252 quotes
    # a byte-order mark outranks the meta; no meta and no mark: UTF-8
    assert decode_html(b"\xef\xbb\xbf" + (meta + body).encode())[0] == meta + body
    assert decode_html(body.encode()) == (body, [])
    chunks = chunk_doc_file("s", "cafe.html", page)
    assert "Café crème" in chunks[0].section and "Naïve résumé" in chunks[0].content


def test_a_short_page_is_a_page_and_an_empty_one_says_why_it_is_skipped() -> None:
    import pytest

    from ctxhub.ingest.docs.chunks import chunk_doc_file
    from ctxhub.ingest.docs.html import NotADocsPage

    short = "<html><head><title>E</title></head><body><main><h1>Short</h1><p>Koalas.</p></main>"
    (chunk,) = chunk_doc_file("s", "short.html", short.encode())
    assert "Koalas." in chunk.content
    nav_only = "<html><body><main><nav><a href='a.html'>A</a> <a href='b.html'>B</a></nav></main>"
    with pytest.raises(NotADocsPage, match=r"no text content \(an empty page, or only nav"):
        html_to_markdown(nav_only)
    with pytest.raises(NotADocsPage, match=r"no text content \(only headings\)"):
        html_to_markdown("<html><body><main><h1>Title</h1><h2>Part</h2></main>")
    moved = '<html><head><meta http-equiv="refresh" content="0; url=new.html"></head>'
    with pytest.raises(NotADocsPage, match="a redirect page"):
        html_to_markdown(moved + "<body><main><p>Moved to <a href='new.html'>new</a>.</p></main>")


def test_a_title_with_markup_is_not_repeated_in_the_breadcrumb() -> None:
    from ctxhub.ingest.docs.chunks import chunk_doc_file

    page = (
        "<html><head><title>attrs by Example - attrs</title></head><body><main>"
        "<h1><em>attrs</em> by <code>Example</code></h1><p>Intro.</p>"
        "<h2>Basics</h2><p>The simplest use.</p></main></body></html>"
    )
    sections = {c.section for c in chunk_doc_file("s", "examples.html", page.encode())}
    assert any(s and s.startswith("attrs by Example > Basics") for s in sections), sections
    assert not any(s and "*attrs*" in s for s in sections), sections


def test_a_built_page_cites_the_lines_of_the_html_file_and_its_heading_anchors() -> None:
    from ctxhub.ingest.docs.chunks import chunk_doc_file

    head = "<html><head><title>Recipes</title>\n" + "<script>var x = 1;</script>\n" * 40
    words = " ".join(f"word{i}" for i in range(40))  # sections too long to merge
    page = (
        head + "</head><body>\n<div class='body' role='main'>\n"
        f"<section id='recipes'>\n<h1>Recipes</h1>\n<p>All the recipes. {words}</p>\n"
        "<section id='first-recipe'>\n<h2>First \u201crecipe\u201d</h2>\n"
        f"<p>Step one\nof the first. {words}</p>\n<pre>print(1)\nprint(2)</pre>\n</section>\n"
        "<section id='second-recipe'>\n<h2 id='own-id'>Second recipe</h2>\n"
        f"<p>Step two. {words}</p>\n</section>\n</section>\n</div>\n"
        "<footer>footer</footer>\n</body></html>\n"
    )
    lines = page.split("\n")
    chunks = chunk_doc_file("s", "docs/recipes.html", page.encode())
    by_section = {c.section: c for c in chunks}
    first = by_section["Recipes > First \u201crecipe\u201d"]
    assert lines[first.line_start - 1].startswith("<h2>First")
    assert "print(2)" in "\n".join(lines[first.line_start - 1 : first.line_end])
    assert "Second recipe" not in "\n".join(lines[first.line_start - 1 : first.line_end])
    # the anchor is the id a browser opens: the section's (Sphinx), or the heading's own
    assert first.metadata.extra["anchor"] == "first-recipe"
    assert first.metadata.extra["location"] == "docs/recipes.html#first-recipe"
    second = by_section["Recipes > Second recipe"]
    assert lines[second.line_start - 1].startswith("<h2 id='own-id'>")
    assert second.metadata.extra["anchor"] == "own-id"
    # with a site url, the chunk's url opens the section
    [hosted] = [
        c
        for c in chunk_doc_file("s", "recipes.html", page.encode(), base_url="https://d.io")
        if c.section == "Recipes > Second recipe"
    ]
    assert hosted.url == "https://d.io/recipes.html#own-id"
