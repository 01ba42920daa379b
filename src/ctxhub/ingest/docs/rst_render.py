"""A docutils doctree as the cleaned text the splitter reads: markdown-like lines
(`#` headings by section depth, fenced code with its language, `- ` lists, `|` table
rows), each with the original lines it came from.

Where docutils puts `.line` (checked in tests/unit/test_rst_doctree.py): a section
title's is its *underline* (the text is the line above, an overline the one above
that); a paragraph's, list item's, field's, term's and table row paragraph's is their
first line; a `::` literal block's its first code line; a directive's node (set in
rst_sphinx.py) the directive line. Every located line is checked against the source
text and searched for nearby when it does not match, so a wrong guess costs a search,
not a wrong citation.
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes  # type: ignore[import-untyped]

from ctxhub.ingest.docs.cleaned import CleanedText
from ctxhub.ingest.docs.directives import label_prefix
from ctxhub.ingest.docs.rst_sphinx import api_ref, described, include_ref, labelled
from ctxhub.ingest.docs.rst_text import readable_inline

#: Lines the markdown splitter would take for a heading or an underline: escaped.
_MD_SPECIAL = re.compile(r"\s*(?:#|(?:=+|-+)\s*$)")
_ADORNMENT = re.compile(r"([!-/:-@\[-`{-~])\1+\s*")
#: Nodes with nothing for a reader: link targets, comments, build machinery.
_SKIPPED = (
    nodes.target,
    nodes.comment,
    nodes.substitution_definition,
    nodes.pending,
    nodes.image,
    nodes.raw,
    nodes.transition,
    nodes.decoration,
    nodes.colspec,
)
_LANG_CLASS = re.compile(r"[\w+#.-]+")
_WORD = re.compile(r"\w{2,}")


class RstWriter:
    """Renders one parsed page; `cleaned()` is the result."""

    def __init__(self, source: str, document: Any) -> None:
        self.src = source.split("\n")
        self.subs: dict[str, str] = {k: v.astext() for k, v in document.substitution_defs.items()}
        self.lines: list[str] = []
        self.spans: list[tuple[int, int]] = []
        self.block: list[int] = []
        self.marker: list[bool] = []
        self.languages: dict[int, str] = {}
        self.warnings: list[str] = []
        self.last = 1  # last source line cited: where lines with no location point
        children = list(document.children)
        if children and isinstance(children[0], nodes.field_list):
            children = children[1:]  # file-wide metadata (`:orphan:`), as Sphinx reads it
        for child in children:
            self.body(child, 0)

    def cleaned(self) -> CleanedText:
        while self.lines and not self.lines[-1]:
            for column in (self.lines, self.spans, self.block, self.marker):
                column.pop()
        return CleanedText(
            self.lines, self.spans, self.block, self.marker, self.languages, {}, self.warnings
        )

    # --- output -------------------------------------------------------------------------

    def emit(self, text: str, start: int, end: int, bid: int = -1, marker: bool = False) -> None:
        start = max(1, min(start, len(self.src)))
        end = max(start, min(end, len(self.src)))
        self.lines.append(text)
        self.spans.append((start, end))
        self.block.append(bid)
        self.marker.append(marker)
        self.last = end

    def prose(self, text: str, start: int, end: int) -> None:
        self.emit("\\" + text if _MD_SPECIAL.match(text) else text, start, end)

    def blank(self) -> None:
        if self.lines and self.lines[-1]:
            self.emit("", self.last, self.last)

    def nested(self, children: list[Any], depth: int, first: str, rest: str) -> None:
        """Children rendered, then indented: `first` before the first text line (a list
        marker, a field name), `rest` before the others."""
        n0 = len(self.lines)
        for child in children:
            self.body(child, depth)
        pending = first
        for i in range(n0, len(self.lines)):
            if self.lines[i] or self.block[i] >= 0:
                self.lines[i] = (pending or rest) + self.lines[i]
                pending = ""
        if pending.strip():  # nothing under it: the marker alone
            self.prose(pending.rstrip(), self.last, self.last)

    # --- locating -----------------------------------------------------------------------

    def locate(self, approx: int | None, text: str) -> int:
        """The source line (1-based) near `approx` that holds `text`'s first line."""
        needle = next((t.strip() for t in text.split("\n") if t.strip()), "")
        guess = approx if approx else self.last
        if not needle:
            return guess
        for delta in (0, 1, -1, 2, -2, 3, -3, 4, 5, 6):
            n = guess + delta
            if 1 <= n <= len(self.src) and needle[:60] in self.src[n - 1]:
                return n
        return guess

    def first_line(self, node: Any) -> int:
        for sub in node.findall(include_self=True):
            if isinstance(sub, nodes.Element) and sub.line:
                return self.locate(sub.line, sub.rawsource or "")
        return self.last

    # --- inline -------------------------------------------------------------------------

    def inline(self, node: Any, short: bool = False) -> str:
        """Text of inline markup; `short`: as a heading shows it (no marks, no targets)."""
        if isinstance(node, nodes.Text):
            return str(node.astext())
        inner = "".join(self.inline(c, short) for c in node.children)
        if isinstance(node, api_ref):
            target = node.get("target", "")
            if short or not node.get("api") or not target or inner == target:
                return inner
            return f"{inner} ({target})" if node.get("titled") else target
        if isinstance(node, nodes.substitution_reference):
            return self.subs.get(node.get("refname", ""), f"|{inner}|")  # Sphinx's |version|
        if isinstance(node, nodes.footnote_reference | nodes.citation_reference):
            return f"[{inner}]"
        if isinstance(node, nodes.raw | nodes.target | nodes.image) and not inner:
            return str(node.get("alt", ""))
        if short:
            return inner
        if isinstance(node, nodes.literal):
            return f"`{inner}`"
        if isinstance(node, nodes.strong):
            return f"**{inner}**"
        if isinstance(node, nodes.emphasis):
            return f"*{inner}*"
        return inner

    # --- blocks -------------------------------------------------------------------------

    def body(self, node: Any, depth: int) -> None:
        if isinstance(node, _SKIPPED) or not isinstance(node, nodes.Element):
            return
        if isinstance(node, nodes.system_message):
            self.failed(node)
        elif isinstance(node, nodes.section):
            self.section(node, depth + 1)
        elif isinstance(node, nodes.paragraph | nodes.caption | nodes.rubric | nodes.line):
            self.paragraph(node)
        elif isinstance(node, nodes.literal_block | nodes.doctest_block | nodes.math_block):
            self.code(node)
        elif isinstance(node, nodes.bullet_list | nodes.enumerated_list):
            self.items(node, depth)
        elif isinstance(node, nodes.definition_list):
            self.definitions(node, depth)
        elif isinstance(node, nodes.field_list):
            for field in node.children:
                name, value = field.children
                self.blank()
                self.nested(value.children, depth, f":{self.inline(name)}: ", "  ")
        elif isinstance(node, nodes.option_list):
            for item in node.children:
                options = item.children[0].astext()
                self.nested(item.children[1].children, depth, f"{options}  ", "  ")
        elif isinstance(node, nodes.table):
            self.table(node)
        elif isinstance(node, nodes.Admonition | labelled):
            self.admonition(node, depth)
        elif isinstance(node, described):
            self.blank()
            line = self.locate(node.line, node.rawsource)
            self.prose(node["signature"], line, line)
            for child in node.children:
                self.body(child, depth)
        elif isinstance(node, include_ref):
            self.blank()  # includes.py puts the file's code or text on this line
            line = node.line or self.last
            self.emit(f".. {node.get('directive', 'literalinclude')}:: {node['path']}", line, line)
        elif isinstance(node, nodes.footnote | nodes.citation):
            label, *rest = node.children
            self.nested(rest, depth, f"[{label.astext()}] ", "  ")
        elif isinstance(node, nodes.topic) and "contents" in node["classes"]:
            return
        elif isinstance(node, nodes.attribution):
            line = self.first_line(node)
            self.prose("— " + self.inline(node), line, line)
        elif isinstance(node, nodes.TextElement) and not isinstance(node, nodes.title):
            self.paragraph(node)
        else:  # containers: block quotes, topics, figures, line blocks, compounds
            for child in node.children:
                if isinstance(child, nodes.title):
                    self.paragraph(child)
                else:
                    self.body(child, depth)

    def section(self, node: Any, depth: int) -> None:
        title = node.children[0] if node.children else None
        if isinstance(title, nodes.title):
            text = " ".join(self.inline(title, short=True).split())
            underline = title.line or self.last + 2
            line = self.locate(underline - 1, title.rawsource or text)
            over = line - 1
            start = over if over >= 1 and _ADORNMENT.fullmatch(self.src[over - 1]) else line
            self.blank()
            self.emit("#" * min(depth, 6) + " " + text, start, line + 1)
            self.blank()
        for child in node.children[1:] if isinstance(title, nodes.title) else node.children:
            self.body(child, depth)

    def paragraph(self, node: Any, prefix: str = "", head: int = 0) -> None:
        """One output line per source line; `head`: where a label put before the text
        (`Note: `) came from."""
        text = prefix + self.inline(node)
        if not text.strip():
            return
        raw = node.rawsource or node.astext()
        start = self.locate(node.line, raw) if node.line else self.first_line(node)
        end = start + raw.count("\n")
        parts = text.split("\n")
        self.blank()
        line = start
        for k, part in enumerate(parts):
            line = self.align(part, line, end) if k else start
            first = min(head, line) if k == 0 and head else line
            self.prose(part, first, end if k == len(parts) - 1 else line)

    def align(self, part: str, line: int, end: int) -> int:
        """The source line in (line, end] that a rendered paragraph line comes from: the
        next one, unless markup that spanned a line break (a long link) merged two."""
        words = _WORD.findall(part)
        for n in range(line + 1, min(end, len(self.src)) + 1):
            if not words or words[0] in self.src[n - 1]:
                return n
        return min(line + 1, end)

    def code(self, node: Any) -> None:
        text = node.astext().rstrip("\n")
        language = str(node.get("language", ""))
        if not language:
            named = [c for c in node["classes"] if c != "code" and _LANG_CLASS.fullmatch(c)]
            language = named[0].lower() if named else ""
        if isinstance(node, nodes.doctest_block):
            language = "python"
        first = node.get("first_line") or self.locate(node.line, text)
        opener = node.line if node.get("first_line") and node.line else first
        bid = len(self.languages)
        self.languages[bid] = language
        code = text.split("\n")
        self.blank()
        self.emit("```" + language, opener, opener, bid, True)
        for k, line in enumerate(code):
            self.emit(line, first + k, first + k, bid)
        self.emit("```", self.last, self.last, bid, True)
        self.blank()

    def items(self, node: Any, depth: int) -> None:
        number = int(node.get("start", 1))
        for item in node.children:
            mark = "- " if isinstance(node, nodes.bullet_list) else f"{number}. "
            number += 1
            self.blank()
            self.nested(item.children, depth, mark, " " * len(mark))

    def definitions(self, node: Any, depth: int) -> None:
        for item in node.children:
            terms = [c for c in item.children if not isinstance(c, nodes.definition)]
            self.blank()
            line = self.first_line(item)
            self.prose(" : ".join(self.inline(t) for t in terms), line, line)
            for definition in item.children[len(terms) :]:
                self.nested(definition.children, depth, "  ", "  ")

    def admonition(self, node: Any, depth: int) -> None:
        """`Note: first paragraph`, `Deprecated since version 3.0: text`."""
        children = list(node.children)
        if isinstance(node, labelled):
            label = node["label"]
        elif children and isinstance(children[0], nodes.title):
            label, children = self.inline(children[0], short=True), children[1:]
        else:
            label = node.tagname.capitalize()
        line = node.line or self.first_line(node)
        if children and isinstance(children[0], nodes.inline):  # the directive's argument
            self.blank()
            text = self.inline(children.pop(0))
            self.prose(label_prefix(label, text) + text, line, line)
        elif children and isinstance(children[0], nodes.paragraph):
            prefix = label_prefix(label, self.inline(children[0]))
            self.paragraph(children.pop(0), prefix, head=line)
        else:
            self.blank()
            self.prose(label, line, line)
        for child in children:
            self.body(child, depth)

    def table(self, node: Any) -> None:
        self.blank()
        parts = (nodes.title, nodes.thead, nodes.tbody)
        for part in node.findall(lambda n: isinstance(n, parts)):
            if isinstance(part, nodes.title):
                self.paragraph(part)
                continue
            rows = [r for r in part.children if isinstance(r, nodes.row)]
            for row in rows:
                cells = [" ".join(self.inline(e).split()) for e in row.children]
                line = self.first_line(row)
                self.prose("| " + " | ".join(cells) + " |", line, line)
            if isinstance(part, nodes.thead) and rows:
                width = len(rows[-1].children)
                self.prose("|" + " --- |" * width, self.last, self.last)

    def failed(self, node: Any) -> None:
        """A construct docutils could not read (level 3+: an inconsistent title, a
        directive's bad option) keeps its text, made readable line by line."""
        kept = [c for c in node.children if isinstance(c, nodes.literal_block)]
        if node.get("level", 0) < 3 or not kept:
            return  # a warning, or an inline error whose text stays in place (problematic)
        line = node.get("line") or node.line or self.last
        message = node.children[0].astext() if node.children else "error"
        self.warnings.append(f"reST line {line}: {' '.join(message.split())}")
        for block in kept:
            first = self.locate(line, block.astext())
            self.blank()
            for k, text in enumerate(block.astext().split("\n")):
                if not _ADORNMENT.fullmatch(text):
                    self.prose(readable_inline(text.strip()), first + k, first + k)
