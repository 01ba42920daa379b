"""A docs file's bytes to the cleaned text the splitter reads, by its format: Markdown
(MyST roles and directives made readable first), MDX, reST (docutils), built HTML."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath

from ctxhub.core.errors import SkipFile
from ctxhub.ingest.docs.cleaned import CleanedText, plain_lines
from ctxhub.ingest.docs.html_lines import HtmlLines
from ctxhub.ingest.docs.mdx import clean_mdx
from ctxhub.ingest.docs.myst import readable_myst

#: Suffix -> format; anything else is read as plain markdown-ish text.
DOC_SUFFIXES = {
    ".mdx": "mdx",
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "markdown",  # a .txt is a docs page only when it reads as Markdown (plan.py)
    ".rst": "rst",
    ".html": "html",
    ".htm": "html",
}
#: Formats an included file is read in by its own suffix; any other (`CHANGES.txt`, an
#: `.inc`) is read as the including page is, as docutils and MyST do.
_OWN_FORMAT = {".md": "markdown", ".markdown": "markdown", ".mdx": "mdx", ".rst": "rst"}


def doc_format(relpath: str) -> str:
    """mdx | markdown | rst | html | text, from the file suffix."""
    return DOC_SUFFIXES.get(PurePosixPath(relpath).suffix.lower(), "text")


def decode_doc(data: str | bytes) -> tuple[str, list[str]]:
    """Text of a page; invalid UTF-8 is replaced (with a warning), never fatal."""
    warnings: list[str] = []
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            text = data.decode("utf-8", errors="replace").removeprefix("\ufeff")
            warnings.append(f"invalid UTF-8 (first at byte {e.start}): replaced with U+FFFD")
    else:
        text = data.removeprefix("\ufeff")
    return text.replace("\r\n", "\n"), warnings


@dataclass(frozen=True)
class PageText:
    doc: CleanedText
    syntax: str  # how the splitter reads headings: markdown | rst
    html_title: str | None = None
    html_lines: HtmlLines | None = None  # a built page's blocks, by their .html lines


def _from_html(path: str, html: str) -> tuple[str | None, str, HtmlLines]:
    """A built HTML page as (title, markdown, where its blocks are in the file);
    generated and template pages are skipped."""
    from ctxhub.ingest.docs.html import GENERATED, NotADocsPage, html_page

    if PurePosixPath(path).stem.lower() in GENERATED:
        raise SkipFile("a generated index page, not docs")
    try:
        return html_page(html)
    except NotADocsPage as exc:
        raise SkipFile(str(exc)) from None


def cleaned_page(path: str, fmt: str, body: str) -> PageText:
    """`body` (a page of format `fmt`) cleaned; a built HTML page's lines are the .html
    file's."""
    if fmt == "html":
        title, markdown, lines = _from_html(path, body)
        return PageText(lines.remap(clean_mdx(markdown)), "markdown", title, lines)
    if fmt == "markdown":
        return PageText(clean_mdx(readable_myst(body)), "markdown")  # MyST, line for line
    if fmt == "mdx":
        return PageText(clean_mdx(body), "markdown")
    if fmt == "rst":
        from ctxhub.ingest.docs.rst_doctree import clean_rst  # docutils: .rst pages only

        doc, syntax = clean_rst(body)
        return PageText(doc, syntax)
    return PageText(plain_lines(body), "markdown")


def cleaned_include(path: str, text: str, page: str) -> tuple[CleanedText, str]:
    """A file `page` includes as text, cleaned in its own format (or the page's)."""
    fmt = _OWN_FORMAT.get(PurePosixPath(path).suffix.lower()) or doc_format(page)
    if fmt not in ("markdown", "mdx", "rst"):
        fmt = "markdown"
    cleaned = cleaned_page(path, fmt, decode_doc(text)[0])
    return cleaned.doc, cleaned.syntax
