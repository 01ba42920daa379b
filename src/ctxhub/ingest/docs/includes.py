"""Docs that pull in other files: the included code or text goes into the page, where
its chunks can show it, instead of the bare directive (include_directives.py says which
directives and which files).

A code include becomes a fenced block of the file's lines (at most 400). A text include
(`.. include:: ../CHANGES.rst`, MyST's ```` ```{include} ../HISTORY.md ````) becomes the
included page's own cleaned text, read by its format (`.md`/`.mdx` as Markdown, `.rst`
as reST, anything else as the including page is), its includes expanded in turn (five
levels at most, never a file already being included). Its headings nest under the
section the directive is in on a reST page (as docutils continues the page's section
levels), and stay as they are on a Markdown page unless `:heading-offset:` says otherwise
(as MyST does). Every included line takes the directive's line number, so every chunk
still cites the page's own lines; `origins` remembers the file and lines it came from.
A directive's options are read from the page's own lines where the directive is written
(the cleaners keep its line, not always its options intact).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ctxhub.ingest.docs.cleaned import CleanedText
from ctxhub.ingest.docs.include_directives import Directive, Resolved, directive_at, resolve
from ctxhub.ingest.docs.include_select import NotSelected, Selection, select_code, select_text

#: relpath -> the file's text, or None when the source has no such file; raises
#: NotText for a file that is there but binary
Reader = Callable[[str], str | None]
#: (the included file's path, its text, the including page's path) -> (cleaned, syntax)
Cleaner = Callable[[str, str, str], tuple[CleanedText, str]]

MAX_LINES = 400  # of an included code file
MAX_DEPTH = 5  # text includes inside text includes
_LANGUAGES = {
    "py": "python",
    "js": "javascript",
    "ts": "typescript",
    "sh": "bash",
    "yml": "yaml",
    "htm": "html",
    "j2": "jinja",
    "jinja2": "jinja",
}
_ATX = re.compile(r"^( {0,3})(#{1,6})(?=[ \t])")


class NotText(Exception):
    """An included file that exists but is no UTF-8 text (an image, a model's weights):
    the directive stays as written and the page's warnings say why."""


def decode_included(data: bytes) -> str:
    """An included file's text; NotText for binary bytes (a NUL, or more than one byte
    in a hundred that is not UTF-8). A few stray bytes (a Latin-1 name in a changelog)
    read as U+FFFD, as before."""
    if b"\x00" in data:
        raise NotText("a binary file (it holds NUL bytes), not included")
    text = data.decode("utf-8", "replace")
    bad = text.count("\ufffd")
    if bad and bad * 100 > len(data):
        raise NotText(f"not UTF-8 text ({bad} undecodable bytes), not included")
    return text


@dataclass(frozen=True)
class IncludedText:
    """A text include's selected part: what the page shows of `path`, from `first_line`."""

    path: str
    text: str
    first_line: int


@dataclass
class Expanded:
    doc: CleanedText
    included: list[str] = field(default_factory=list)  # every file read into the page
    texts: list[IncludedText] = field(default_factory=list)  # the text includes' parts
    refused: list[str] = field(default_factory=list)  # "target: why", nothing read


@dataclass
class _Out:
    """The expanded page being written, column by column."""

    doc: CleanedText
    lines: list[str] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)
    block: list[int] = field(default_factory=list)
    marker: list[bool] = field(default_factory=list)
    origins: dict[int, tuple[str, int, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.languages = dict(self.doc.languages)
        self.next_block = max([*self.doc.block, -1]) + 1

    def add(self, line: str, span: tuple[int, int], bid: int, marker: bool) -> None:
        self.lines.append(line)
        self.spans.append(span)
        self.block.append(bid)
        self.marker.append(marker)

    def keep(self, i: int) -> None:
        doc = self.doc
        if i in doc.origins:
            self.origins[len(self.lines)] = doc.origins[i]
        self.add(doc.lines[i], doc.spans[i], doc.block[i], doc.marker[i])

    def new_block(self, language: str) -> int:
        bid = self.next_block
        self.next_block += 1
        self.languages[bid] = language
        return bid

    def cleaned(self, warnings: list[str]) -> CleanedText:
        doc = self.doc
        return CleanedText(
            self.lines,
            self.spans,
            self.block,
            self.marker,
            self.languages,
            frontmatter=doc.frontmatter,
            warnings=warnings,
            frontmatter_lines=doc.frontmatter_lines,
            origins=self.origins,
        )


def _language(path: str, options: dict[str, str]) -> str:
    said = (options.get("language") or options.get("code") or "").strip()
    if said:
        return said.split()[0].lower()
    ext = path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
    return _LANGUAGES.get(ext, ext)


def _code(out: _Out, i: int, path: str, part: Selection, options: dict[str, str]) -> None:
    """The included code as a fenced block at line i (inside the page's own fence, when
    the directive is in one: a snippet in a ``` block)."""
    doc = out.doc
    code = part.text.splitlines()[:MAX_LINES]
    inside = doc.block[i] >= 0
    bid = doc.block[i] if inside else out.new_block(_language(path, options))
    if not inside:
        code = ["```" + out.languages[bid], *code, "```"]
    for k, line in enumerate(code):
        out.add(line, doc.spans[i], bid, not inside and k in (0, len(code) - 1))
        body = k - (0 if inside else 1)
        if 0 <= body < len(code) - (0 if inside else 2):
            at = part.first_line + body
            out.origins[len(out.lines) - 1] = (path, at, at)


def _section_depth(doc: CleanedText, i: int) -> int:
    """The level of the Markdown heading the cleaned line i is under (0: none)."""
    for k in range(i - 1, -1, -1):
        m = _ATX.match(doc.lines[k]) if doc.block[k] < 0 else None
        if m:
            return len(m.group(2))
    return 0


def _shifted(line: str, by: int) -> str:
    """A Markdown heading `by` levels deeper (at most h6)."""
    m = _ATX.match(line)
    if not m or by <= 0:
        return line
    level = min(6, len(m.group(2)) + by)
    return m.group(1) + "#" * level + line[m.end() :]


def _heading_shift(page: str, doc: CleanedText, i: int, options: dict[str, str]) -> int:
    said = options.get("heading-offset", "").strip()
    if said.lstrip("-").isdigit():
        return int(said)
    return _section_depth(doc, i) if page.lower().endswith(".rst") else 0


class _Expander:
    def __init__(self, read: Reader | None, clean: Cleaner) -> None:
        self.read = read
        self.clean = clean
        self.result = Expanded(CleanedText([], [], [], [], {}))
        self.warnings: list[str] = []

    def expand(
        self, doc: CleanedText, page: str, raw: list[str], chain: tuple[str, ...]
    ) -> CleanedText:
        out = _Out(doc)
        i = 0
        while i < len(doc.lines):
            found = directive_at(doc.lines, i)
            if found is None:
                out.keep(i)
                i += 1
                continue
            directive, n_options = found
            if doc.block[i] >= 0 and not directive.in_code:
                out.keep(i)  # a page showing the directive in a code block
                i += 1
                continue
            directive = _as_written(directive, raw, doc.spans[i][0] - 1)
            if self.read is None or not self._include(out, i, page, directive, chain):
                out.keep(i)  # left as written; its option lines are no text
            i += 1 + n_options
        return out.cleaned(list(doc.warnings))

    def _include(
        self, out: _Out, i: int, page: str, directive: Directive, chain: tuple[str, ...]
    ) -> bool:
        """Put what `directive` includes at line i; False leaves the directive there."""
        read = self.read
        assert read is not None
        texts: dict[str, str] = {}
        binary: dict[str, str] = {}

        def exists(path: str) -> bool:
            try:
                text = read(path)
            except NotText as e:
                binary[path] = str(e)
                return True
            if text is not None:
                texts[path] = text
            return text is not None

        where: Resolved = resolve(page, directive, exists)
        target = directive.target
        if where.refused:
            self.result.refused.append(f"{target}: {where.refused}")
            self.warnings.append(f"include refused: {target} ({where.refused})")
            return False
        if where.path is None:
            if where.missing:
                self.warnings.append(f"include not found: {target}")
                return False
            return True  # a docutils standard include: nothing to show
        path = where.path
        if path in binary:
            self.warnings.append(f"include {target}: {binary[path]}")
            return False
        if path in chain:
            self.warnings.append(f"include cycle: {path} includes itself")
            return False
        if not directive.as_code and len(chain) > MAX_DEPTH:
            self.warnings.append(f"include {target}: nested more than {MAX_DEPTH} deep")
            return False
        self.result.included.append(path)
        try:
            if directive.as_code:
                pick = select_text if directive.text else select_code
                _code(out, i, path, pick(texts[path], directive.options), directive.options)
                return True
            part = select_text(texts[path], directive.options)
        except NotSelected as e:
            self.warnings.append(f"include {target}: {e}")
            return True  # docutils includes nothing then
        self.result.texts.append(IncludedText(path, part.text, part.first_line))
        inner, _ = self.clean(path, part.text, page)
        self.warnings.extend(f"{path}: {w}" for w in inner.warnings)
        inner = self.expand(
            _offset(inner, part.first_line - 1, path), path, part.text.split("\n"), (*chain, path)
        )
        self._splice(out, i, inner, _heading_shift(page, out.doc, i, directive.options))
        return True

    def _splice(self, out: _Out, i: int, inner: CleanedText, shift: int) -> None:
        ids: dict[int, int] = {}
        for k, line in enumerate(inner.lines):
            bid = inner.block[k]
            if bid >= 0 and bid not in ids:
                ids[bid] = out.new_block(inner.languages.get(bid, ""))
            if bid < 0:
                line = _shifted(line, shift)
            if k in inner.origins:
                out.origins[len(out.lines)] = inner.origins[k]
            out.add(line, out.doc.spans[i], ids.get(bid, -1), inner.marker[k])


def _as_written(directive: Directive, raw: list[str], at: int) -> Directive:
    """`directive` with the options its line in the page's own text gives it."""
    if not 0 <= at < len(raw):
        return directive
    found = directive_at(raw, at)
    if found is None or found[0].target != directive.target:
        return directive
    return found[0]


def _offset(doc: CleanedText, by: int, path: str) -> CleanedText:
    """An included part's cleaned text whose lines say where in `path` they are."""
    origins = {k: (path, a + by, b + by) for k, (a, b) in enumerate(doc.spans)}
    return CleanedText(doc.lines, doc.spans, doc.block, doc.marker, doc.languages, origins=origins)


def expand_includes(
    doc: CleanedText, page: str, read: Reader | None, clean: Cleaner, raw: str = ""
) -> Expanded:
    """`doc` (the cleaned form of `raw`, the page's text) with every include replaced
    by what it includes; `clean` reads an included page in its format. With no `read`,
    the directives stay as written."""
    expander = _Expander(read, clean)
    expanded = expander.expand(doc, page, raw.split("\n"), (page,))
    warnings = list(dict.fromkeys([*expanded.warnings, *expander.warnings]))
    result = expander.result
    result.doc = replace(expanded, warnings=warnings)
    return result
