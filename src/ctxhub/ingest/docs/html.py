"""Built HTML docs (Sphinx, MkDocs, Docusaurus output) -> a markdown page.

The page's main content is found the way these generators mark it (`<main>`,
`role="main"`, `<article>`, Sphinx's `div.body`, MkDocs' `div.md-content`, Docusaurus'
`.theme-doc-markdown`); navigation, headers, footers, sidebars, scripts and "permalink"
anchors are dropped; beautifulsoup4 + markdownify turn the rest into markdown, keeping
headings (the breadcrumbs) and code blocks (with their language when the page says it).
A page's bytes are read in the encoding it states (`decode_html`).
"""

from __future__ import annotations

import codecs
import re
from typing import Any

from ctxhub.core.charsets import codec_for, decode_text
from ctxhub.ingest.docs.html_lines import HEADINGS, HtmlLines, content_end

#: Where generators put a page's own content, most specific first.
MAIN_SELECTORS = (
    "div.md-content",  # MkDocs Material
    ".theme-doc-markdown",  # Docusaurus
    "div.body[role=main]",  # Sphinx (alabaster, classic)
    "div[role=main]",  # Sphinx (Read the Docs theme) and others
    "main",
    "article",
    "div.document",
)
#: Never content, wherever they sit.
DROP = (
    "script, style, noscript, nav, header, footer, aside, form, button, "
    ".sphinxsidebar, .related, .headerlink, .md-sidebar, .md-header, .md-footer, "
    ".theme-doc-toc-desktop, .pagination-nav, .breadcrumbs, [role=navigation], "
    "[role=search]"
)
#: Generated pages that hold no prose (Sphinx).
GENERATED = frozenset({"genindex", "search", "py-modindex", "modindex", "404"})
_TEMPLATE = re.compile(r"\{%|\{\{")
_LANGUAGE = re.compile(r"(?:highlight|language|lang)-([\w+#-]+)")
#: `<meta charset=...>` and `<meta http-equiv="Content-Type" content="...; charset=...">`.
_META_CHARSET = re.compile(rb"<meta\s[^>]*?charset\s*=\s*[\"']?\s*([\w.:-]+)", re.IGNORECASE)
_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


class NotADocsPage(ValueError):
    """A template or a page without text: skipped with this reason."""


def _language(node: Any) -> str:
    for el in (node, *node.parents):
        for cls in el.get("class", []) if hasattr(el, "get") else []:
            m = _LANGUAGE.fullmatch(cls)
            if m and m.group(1) not in ("default", "none", "text"):
                return m.group(1)
    return ""


def declared_charset(data: bytes) -> str | None:
    """The codec a page's `<meta>` names in its first 4 KiB (None: none, or unknown).
    A meta tag read as ASCII cannot mean UTF-16, so HTML reads that claim as UTF-8."""
    found = _META_CHARSET.search(data[:4096])
    codec = codec_for(found.group(1).decode("ascii", "replace")) if found else None
    return "utf-8" if codec and codec.startswith("utf-16") else codec


def decode_html(data: bytes) -> tuple[str, list[str]]:
    """(text, warnings) of a page's bytes, read as browsers do: a byte-order mark, else
    the `<meta>` charset, else UTF-8. (A crawl applies the server's charset when it
    saves the page: it stores UTF-8 with a byte-order mark.)"""
    codec = "utf-8"
    for bom, name in _BOMS:
        if data.startswith(bom):
            data, codec = data[len(bom) :], name
            break
    else:
        codec = declared_charset(data) or codec
    text, warning = decode_text(data, codec)
    return text.replace("\r\n", "\n"), [warning] if warning else []


def html_to_markdown(html: str) -> tuple[str | None, str]:
    """(title, markdown) of a built docs page; NotADocsPage for templates."""
    title, markdown, _ = html_page(html)
    return title, markdown


def html_page(html: str) -> tuple[str | None, str, HtmlLines]:
    """(title, markdown, where its blocks are in the file) of a built docs page;
    NotADocsPage for templates, redirects and pages without text."""
    if _TEMPLATE.search(html[:4096]) and "<html" not in html[:4096].lower():
        raise NotADocsPage("an HTML template, not a built docs page")
    from bs4 import BeautifulSoup
    from markdownify import MarkdownConverter

    soup = BeautifulSoup(html, "html.parser")
    refresh = soup.find("meta", attrs={"http-equiv": re.compile("^refresh$", re.IGNORECASE)})
    if refresh is not None and "url=" in str(refresh.get("content", "")).lower():
        raise NotADocsPage("a redirect page, not docs")
    title_tag = soup.find("h1") or soup.find("title")
    title = title_tag.get_text(" ", strip=True) if title_tag else None
    main = next((found for sel in MAIN_SELECTORS if (found := soup.select_one(sel))), None)
    if main is None:  # a generator marks its content; an app's index.html does not
        raise NotADocsPage("no main content marked (an app page, not built docs)")
    for junk in main.select(DROP):
        junk.decompose()
    # However short, text is a page (a stub, "Deprecated: see X"); only a page whose
    # content is empty once navigation is gone, or is nothing but headings, is skipped.
    if not main.get_text(" ", strip=True):
        raise NotADocsPage("no text content (an empty page, or only navigation)")
    headings = set(HEADINGS)
    if not any(
        text.strip() and not any(p.name in headings for p in text.parents)
        for text in main.find_all(string=True)
    ):
        raise NotADocsPage("no text content (only headings)")
    lines = HtmlLines(end=content_end(main, html.count("\n") + 1))
    lines.mark(main)
    markdown = MarkdownConverter(
        heading_style="ATX",
        bullets="-",
        code_language_callback=_language,
        strip=["img"],
    ).convert_soup(main)
    markdown = re.sub(r"\n{3,}", "\n\n", markdown).strip()
    markdown = lines.read_markers(markdown)
    if title:
        title = title.replace("¶", "").strip()
    return title, markdown + "\n", lines
