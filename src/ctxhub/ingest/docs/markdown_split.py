"""Heading split of a cleaned page: sections with their heading breadcrumb.

Markdown ATX (`#`..`######`) and setext (`===`/`---` under a one-line paragraph)
headings, or reST titles (a line underlined, optionally overlined, with one punctuation
character; levels in order of first appearance). Lines inside code are never headings.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ctxhub.ingest.docs.cleaned import CleanedText

_ATX = re.compile(r" {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*")
_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*")
_RST_ADORN = re.compile(r"([!-/:-@\[-`{-~])\1{2,}[ \t]*")
_NOT_PARA = re.compile(r"\s*(?:[-*+>|]|\d+[.)]|<|!\[)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_ANCHOR = re.compile(r"\s*\{#[^}]*\}\s*$")
#: Inline markup a heading may keep and a plain title does not: emphasis, code spans.
_INLINE = re.compile(r"[*_`]")

#: A section whose body is at most two lines of text (no code) under this many tokens
#: merges into the section it heads.
TINY_SECTION_TOKENS = 40


@dataclass(frozen=True)
class Section:
    """Cleaned lines [first, end) under one heading; the first `heading_lines` lines are
    the heading itself (0 for text before the first heading)."""

    level: int
    crumbs: tuple[str, ...]
    first: int
    end: int
    heading_lines: int

    @property
    def breadcrumb(self) -> str:
        return " > ".join(self.crumbs)


def heading_text(raw: str) -> str:
    """Heading as a breadcrumb part: links reduced to their text, emphasis and anchors gone."""
    text = _ANCHOR.sub("", _LINK.sub(r"\1", raw))
    for mark in ("**", "__"):
        text = text.replace(mark, "")
    return " ".join(text.split())


def _same_text(heading: str, title: str) -> bool:
    """`*attrs* by Example` says the title `attrs by Example`: a title is plain text (a
    page's `<title>`, an H1's text), its heading may keep inline markup."""
    if heading == title:
        return True
    return " ".join(_INLINE.sub("", heading).split()) == " ".join(_INLINE.sub("", title).split())


def _prose(doc: CleanedText, i: int) -> bool:
    return 0 <= i < len(doc.lines) and doc.block[i] < 0


def _blank(doc: CleanedText, i: int) -> bool:
    return not (0 <= i < len(doc.lines)) or (doc.block[i] < 0 and not doc.lines[i].strip())


def _rst_heading(
    doc: CleanedText, i: int, styles: list[tuple[str, bool]]
) -> tuple[int, int, int, str] | None:
    """A reST title at line i: underlined (and maybe overlined) with one character."""
    line = doc.lines[i]
    nxt = doc.lines[i + 1] if _prose(doc, i + 1) else ""
    m = _RST_ADORN.fullmatch(nxt)
    title = line.strip()
    if not m or line[:1].isspace() or _RST_ADORN.fullmatch(line) or len(nxt.rstrip()) < len(title):
        return None
    over = _RST_ADORN.fullmatch(doc.lines[i - 1]) if _prose(doc, i - 1) else None
    has_over = bool(over and over.group(1) == m.group(1) and _blank(doc, i - 2))
    style = (m.group(1), has_over)
    if style not in styles:
        styles.append(style)  # reST levels are the order styles first appear in
    start = i - 1 if has_over else i
    return start, i + 2 - start, styles.index(style) + 1, title


def _md_heading(doc: CleanedText, i: int) -> tuple[int, int, int, str] | None:
    line = doc.lines[i]
    atx = _ATX.fullmatch(line)
    if atx:
        text = heading_text(atx.group(2))
        return (i, 1, len(atx.group(1)), text) if text else None
    nxt = doc.lines[i + 1] if _prose(doc, i + 1) else ""
    setext = _SETEXT.fullmatch(nxt)
    if (
        setext
        and len(setext.group(1)) >= 3
        and _blank(doc, i - 1)
        and not _NOT_PARA.match(line)
        and not line.startswith("    ")
    ):
        text = heading_text(line)
        return (i, 2, 1 if setext.group(1)[0] == "=" else 2, text) if text else None
    return None


def find_headings(doc: CleanedText, syntax: str = "markdown") -> list[tuple[int, int, int, str]]:
    """(first line, line count, level, text) of each heading, in order."""
    found: list[tuple[int, int, int, str]] = []
    styles: list[tuple[str, bool]] = []
    i = 0
    while i < len(doc.lines):
        head = None
        if _prose(doc, i) and doc.lines[i].strip():
            head = _rst_heading(doc, i, styles) if syntax == "rst" else _md_heading(doc, i)
        if head and found and found[-1][0] + found[-1][1] > head[0]:
            head = None  # an overline that is the underline of the title before
        if head:
            found.append(head)
            i = head[0] + head[1]
        else:
            i += 1
    return found


def split_sections(doc: CleanedText, title: str | None, syntax: str = "markdown") -> list[Section]:
    """Sections in page order; each breadcrumb starts with the page title (an H1 that
    repeats the title is not repeated). Text before the first heading is level 0."""
    root = (title,) if title else ()
    heads = find_headings(doc, syntax)
    sections: list[Section] = []
    first_head = heads[0][0] if heads else len(doc.lines)
    if first_head > 0:
        sections.append(Section(0, root, 0, first_head, 0))
    path: list[tuple[int, str]] = []
    # the level of the heading the title came from: a later heading of that level is the
    # title's sibling (a second `# Page`), a new top-level section, not the title's child
    title_level = next((lv for _, _, lv, t in heads if root and _same_text(t, root[0])), None)
    for k, (start, count, level, text) in enumerate(heads):
        while path and path[-1][0] >= level:
            path.pop()
        path.append((level, text))
        parts = [t for _, t in path]
        crumbs: tuple[str, ...] = root
        if root and parts and _same_text(parts[0], root[0]):
            parts = parts[1:]
        elif path[0][0] == title_level:
            crumbs = ()
        end = heads[k + 1][0] if k + 1 < len(heads) else len(doc.lines)
        sections.append(Section(level, (*crumbs, *parts), start, end, count))
    return sections


def _few_prose_lines(doc: CleanedText, sec: Section, most: int = 2) -> bool:
    """A body of at most `most` text lines and no code: a heading with a line under it."""
    body = range(sec.first + sec.heading_lines, sec.end)
    if any(doc.block[i] >= 0 for i in body):
        return False
    return sum(1 for i in body if doc.lines[i].strip()) <= most


def merge_tiny(
    doc: CleanedText,
    sections: Sequence[Section],
    count: Callable[[list[str]], list[int]],
    tiny: int = TINY_SECTION_TOKENS,
) -> list[Section]:
    """Fold a heading with (almost) no body into the section after it when that one is
    its subsection (or, with no body at all, its next sibling): `## Setup` + one line
    followed by `### Install` becomes one section with the breadcrumb
    `... > Setup > Install`. Sections with a body never merge with a sibling, so every
    section keeps a breadcrumb that names it."""
    bodies = ["\n".join(doc.lines[s.first + s.heading_lines : s.end]).strip() for s in sections]
    # text runs ~4 characters a token: a body of 12 a token is not tiny, so only short
    # bodies are worth a tokenizer call
    short = [k for k, b in enumerate(bodies) if len(b) < tiny * 12]
    tokens = [tiny * 12] * len(bodies)
    for k, n in zip(short, count([bodies[k] for k in short]), strict=True):
        tokens[k] = n
    out: list[Section] = []
    carry: int | None = None  # first line of sections folded into the next one
    for k, sec in enumerate(sections):
        start = sec.first if carry is None else carry
        nxt = sections[k + 1] if k + 1 < len(sections) else None
        small = not bodies[k] or (tokens[k] - 2 < tiny and _few_prose_lines(doc, sec))
        if (
            nxt is not None
            and small
            and (nxt.level > sec.level or (not bodies[k] and nxt.level == sec.level))
        ):
            carry = start
            continue
        carry = None
        out.append(replace(sec, first=start) if start != sec.first else sec)
    return out
