"""Docs ingestion: a page (a markdown/MDX/reST file, or a page of an llms-full.txt dump)
to `doc` chunks of at most 512 model tokens, each with its page title, heading
breadcrumb and exact original line range.

Plain functions on plain data: no store, no I/O beyond the text passed in.
"""

from __future__ import annotations

import logging
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from ctxhub.core.doc_paths import doc_url, is_aggregate_doc, normalize_doc_path
from ctxhub.core.errors import SkipFile
from ctxhub.core.knowledge import LOOKUP_ONLY, Chunk, ChunkMeta, chunk_id
from ctxhub.embed.tokenizer import count_tokens
from ctxhub.ingest.docs.cleaned import CleanedText
from ctxhub.ingest.docs.described import described_names, is_api_stub
from ctxhub.ingest.docs.includes import IncludedText, Reader, expand_includes
from ctxhub.ingest.docs.llms_full import DocPage, dump_pages_without_file, split_llms_full
from ctxhub.ingest.docs.markdown_split import Section, merge_tiny, split_sections
from ctxhub.ingest.docs.mdx import clean_mdx
from ctxhub.ingest.docs.page_text import (
    DOC_SUFFIXES,
    cleaned_include,
    cleaned_page,
    decode_doc,
    doc_format,
)
from ctxhub.ingest.docs.signals import code_stats, is_worked_example
from ctxhub.ingest.docs.titles import page_title
from ctxhub.ingest.docs.token_windows import MAX_TOKENS, OVERLAP_TOKENS, Window, pack_sections
from ctxhub.ingest.embed_text import build_embed_text, window_texts
from ctxhub.ingest.python.changelog_files import is_changelog_text

__all__ = [
    "DOC_SUFFIXES",
    "DocPage",
    "DocResult",
    "SkipFile",
    "chunk_doc_file",
    "chunk_doc_page",
    "decode_doc",
    "doc_format",
    "dump_pages_without_file",
    "is_aggregate_doc",
    "normalize_doc_path",
    "parse_doc_file",
    "parse_doc_page",
    "raise_or_return",
    "split_llms_full",
]

log = logging.getLogger(__name__)

WORKED_EXAMPLE_TAG = "worked-example"
_SLUG = re.compile(r"[^\w]+")


@dataclass
class DocResult:
    chunks: list[Chunk] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    error: str | None = None
    #: what the page's text includes show of other files (a changelog it includes)
    included_texts: list[IncludedText] = field(default_factory=list)
    #: includes refused, as "target: why" (a path leading outside the source)
    refused: list[str] = field(default_factory=list)


def _clean_path(relpath: str) -> str:
    path = relpath.replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    if not path or path.startswith("/") or ".." in path.split("/"):
        raise SkipFile(f"doc path must be relative inside its source: {relpath!r}")
    return path


def _slug(text: str) -> str:
    return _SLUG.sub("-", text.lower()).strip("-_")


@dataclass(frozen=True)
class _Page:
    source: str
    path: str
    title: str
    description: str | None
    url: str | None
    version: str | None
    syntax: str  # markdown | rst
    extra: dict[str, Any]
    #: a built HTML page's heading ids, by the file line of the heading
    anchors: dict[int, str] = field(default_factory=dict)


def _chunk(
    page: _Page, doc: CleanedText, sec: Section, win: Window, ordinal: int, extra: dict[str, Any]
) -> Chunk:
    breadcrumb = sec.breadcrumb or page.title
    start, end = doc.orig_range(win.first, win.last)
    stats = code_stats(doc, win.first, win.last)
    extra = {
        **extra,
        "tokens": win.tokens,
        "code_lines": stats.code_lines,
        "code_languages": stats.languages,
    }
    origin = _origin(doc, win.first, win.last)
    if origin is not None:
        extra["included_from"] = origin
    elif parts := _included_parts(doc, win.first, win.last):
        extra["included_parts"] = parts
    url = page.url
    if sec.level > 0 and len(sec.crumbs) > 1:
        extra["anchor"] = _slug(sec.crumbs[-1])
    if page.anchors and sec.heading_lines:
        # the heading's own id in the built page: a link that opens this section
        anchor = page.anchors.get(doc.spans[sec.first][0])
        if anchor:
            extra["anchor"] = anchor
            extra["location"] = f"{page.path}#{anchor}"
            url = f"{page.url}#{anchor}" if page.url else None
    if page.extra.get("format") == "rst":
        if is_api_stub(win.text, sec.crumbs[-1] if sec.crumbs else ""):
            extra[LOOKUP_ONLY] = True  # get_doc shows it; search never ranks it
        # the definitions the window documents: its breadcrumb names only their heading
        if names := described_names(doc.lines, doc.block, win.first, win.last, sec.first):
            extra["describes"] = names
    if is_changelog_text(page.path, origin):
        # a changelog included into the docs (`.. include:: ../CHANGES.rst`) is read for
        # deprecations and opened by get_doc, but not ranked, as a changelog file is not:
        # its hundreds of one-line entries name every API and crowd how-to answers
        extra[LOOKUP_ONLY] = True
    # the embedder sees title, the breadcrumb below it, and the summary once per page
    sub = " > ".join(sec.crumbs[1:]) if sec.crumbs[:1] == (page.title,) else breadcrumb
    first = extra["chunk_index"] == 0
    header = [page.title, sub, page.description if first else None]
    # the model reads 256 tokens of a window of up to 512: the rest of a long window is
    # seen through window vectors under the same title and breadcrumb
    windows = window_texts(" > ".join(h for h in header[:2] if h), win.text)
    return Chunk(
        id=chunk_id(page.source, page.path, breadcrumb, ordinal),
        source=page.source,
        kind="doc",
        path=page.path,
        title=page.title,
        section=breadcrumb or None,
        line_start=start,
        line_end=end,
        url=url,
        version=page.version,
        content=win.text,
        embed_text=build_embed_text(header, win.text),
        embed_windows=windows,
        metadata=ChunkMeta(
            chunk_type="section",
            language=stats.primary_language,
            # the page is the worked example; only the sections holding its code say so
            tags=[WORKED_EXAMPLE_TAG] if extra["worked_example"] and stats.code_lines else [],
            extra=extra,
        ),
    )


def _origin(doc: CleanedText, first: int, last: int) -> str | None:
    """Where a window's text is in the file an include took all of it from
    (`HISTORY.md:381-392`); the chunk itself cites the include's line of the page."""
    spans = [doc.origins.get(i) for i in range(first, last + 1) if doc.lines[i].strip()]
    held = [s for s in spans if s is not None]
    if not held or len(held) < len(spans) or len({s[0] for s in held}) != 1:
        return None
    start, end = min(s[1] for s in held), max(s[2] for s in held)
    return f"{held[0][0]}:{start}" + (f"-{end}" if end != start else "")


#: Included parts a chunk names at most (one window rarely holds more than two).
MAX_INCLUDED_PARTS = 5


def _included_parts(doc: CleanedText, first: int, last: int) -> list[str]:
    """Where the included lines of a window that also holds the page's own lines come
    from (`examples/app.py:1-40`), one entry per run of lines from one file: the chunk
    cites the page's lines, where those lines are only the directive's."""
    runs: list[list[Any]] = []  # [path, first line, last line]
    joined = False  # the previous non-blank line was included from runs[-1]'s file
    for i in range(first, last + 1):
        origin = doc.origins.get(i)
        if origin is None:
            joined = joined and not doc.lines[i].strip()
            continue
        path, start, end = origin
        if joined and runs[-1][0] == path:
            runs[-1][1], runs[-1][2] = min(runs[-1][1], start), max(runs[-1][2], end)
        else:
            runs.append([path, start, end])
        joined = True
    return [
        f"{path}:{start}" + (f"-{end}" if end != start else "")
        for path, start, end in runs[:MAX_INCLUDED_PARTS]
    ]


def _chunks(page: _Page, doc: CleanedText, max_tokens: int) -> list[Chunk]:
    sections = merge_tiny(doc, split_sections(doc, page.title, page.syntax), count_tokens)
    windows = pack_sections(
        doc, [(s.first, s.end) for s in sections], count_tokens, max_tokens, OVERLAP_TOKENS
    )
    page_stats = code_stats(doc)
    base: dict[str, Any] = {
        **page.extra,
        "page_code_lines": page_stats.code_lines,
        "worked_example": is_worked_example(page_stats),
    }
    if page.description:
        base["description"] = page.description
    seen: defaultdict[str, int] = defaultdict(int)  # ordinal of each window per breadcrumb
    out: list[Chunk] = []
    for sec, wins in zip(sections, windows, strict=True):
        key = sec.breadcrumb or page.title
        for win in wins:
            extra = {**base, "chunk_index": len(out)}
            out.append(_chunk(page, doc, sec, win, seen[key], extra))
            seen[key] += 1
    return out


def _extra(fmt: str, frontmatter: dict[str, str]) -> dict[str, Any]:
    extra: dict[str, Any] = {"format": fmt}
    others = {k: v for k, v in frontmatter.items() if k not in ("title", "description")}
    if others:
        extra["frontmatter"] = others
    return extra


def _frontmatter_page(doc: CleanedText, title: str) -> CleanedText:
    """A page that is all frontmatter (an API endpoint stub, an external link) still
    says what it is: title, description and its other short values become its text."""
    lines = [f"# {title}"]
    for key, value in doc.frontmatter.items():
        if key == "title" or not value or "\n" in value or len(value) > 300:
            continue
        lines += ["", value if key == "description" else f"{key}: {value}"]
    span = (1, max(1, doc.frontmatter_lines))
    n = len(lines)
    return CleanedText(lines, [span] * n, [-1] * n, [False] * n, {}, doc.frontmatter, [])


def parse_doc_file(
    source: str,
    relpath: str,
    text: str | bytes,
    *,
    version: str | None = None,
    base_url: str | None = None,
    max_tokens: int = MAX_TOKENS,
    include: Reader | None = None,
    nav_title: str | None = None,
) -> DocResult:
    """Chunks of one docs file plus what went wrong on the way; never raises. `include`
    reads the files the page includes (see includes.py); without it they stay directives.
    `nav_title`: what the site's navigation calls the page (titles.py)."""
    result = DocResult()
    try:
        path = _clean_path(relpath)
        fmt = doc_format(path)
        if fmt == "html" and isinstance(text, bytes):
            from ctxhub.ingest.docs.html import decode_html  # its <meta> names the charset

            body, result.warnings = decode_html(text)
        else:
            body, result.warnings = decode_doc(text)
        if "\x00" in body[:8192]:
            raise SkipFile("binary content (NUL bytes)")
        cleaned = cleaned_page(path, fmt, body)
        expanded = expand_includes(cleaned.doc, path, include, cleaned_include, body)
        doc = expanded.doc
        result.included_texts, result.refused = expanded.texts, expanded.refused
        result.warnings.extend(doc.warnings)
        title = page_title(
            doc, cleaned.syntax, path, html_title=cleaned.html_title, nav_title=nav_title
        )
        if doc.frontmatter and not any(line.strip() for line in doc.lines):
            doc = _frontmatter_page(doc, title)
        included = {"includes": expanded.included} if expanded.included else {}
        html_lines = cleaned.html_lines
        page = _Page(
            source=source,
            path=path,
            title=title,
            description=doc.description,
            url=doc_url(base_url, path) if base_url else None,
            version=version,
            syntax=cleaned.syntax,
            extra={**_extra(fmt, doc.frontmatter), **included},
            anchors=html_lines.anchors if html_lines is not None else {},
        )
        result.chunks = _chunks(page, doc, max_tokens)
        if not result.chunks:
            result.warnings.append("no text content")
    except SkipFile as e:  # a page that is no docs page: its reason, as it says it
        result.error = e.reason
    except Exception as e:  # one bad page must not stop an ingest run; the caller counts
        result.error = f"{relpath}: {type(e).__name__}: {e}"
    return result


def parse_doc_page(
    source: str, page: DocPage, *, version: str | None = None, max_tokens: int = MAX_TOKENS
) -> DocResult:
    """Chunks of one page split from an llms-full.txt dump; never raises. Lines are
    page lines (the `# Title` line is 1); `extra["dump_line_offset"]` maps them back."""
    result = DocResult()
    try:
        lines = page.text.split("\n")
        src_line = page.source_line
        if src_line:
            lines[src_line - 1] = ""  # the Source: line is metadata, not content
        doc = clean_mdx("\n".join(lines))
        result.warnings = list(doc.warnings)
        extra: dict[str, Any] = {"format": "llms-full", "dump_line_offset": page.line_offset}
        if page.origin:
            extra["dump_path"] = page.origin
        meta = _Page(source, page.path, page.title, None, page.url, version, "markdown", extra)
        result.chunks = _chunks(meta, doc, max_tokens)
    except Exception as e:  # see parse_doc_file
        result.error = f"{page.path}: {type(e).__name__}: {e}"
    return result


def raise_or_return(result: DocResult, what: str) -> list[Chunk]:
    if result.warnings:  # one line per file, however much is wrong with it
        log.warning("%s: %s", what, "; ".join(result.warnings))
    if result.error is not None:
        raise SkipFile(result.error)
    return result.chunks


def chunk_doc_file(
    source: str,
    relpath: str,
    text: str | bytes,
    *,
    version: str | None = None,
    base_url: str | None = None,
    max_tokens: int = MAX_TOKENS,
    include: Reader | None = None,
) -> list[Chunk]:
    """Chunks of one docs file. Warnings are logged; an unparsable page raises
    `SkipFile` (use `parse_doc_file` to get both as data)."""
    result = parse_doc_file(
        source,
        relpath,
        text,
        version=version,
        base_url=base_url,
        max_tokens=max_tokens,
        include=include,
    )
    return raise_or_return(result, relpath)


def chunk_doc_page(
    source: str, page: DocPage, *, version: str | None = None, max_tokens: int = MAX_TOKENS
) -> list[Chunk]:
    """Chunks of one dump page; see `chunk_doc_file` for warnings and errors."""
    result = parse_doc_page(source, page, version=version, max_tokens=max_tokens)
    return raise_or_return(result, page.path)
