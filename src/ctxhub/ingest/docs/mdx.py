"""MDX (Mintlify-style) to plain markdown, keeping a map back to the original lines.

Callouts become labelled blockquotes, ParamField/ResponseField readable parameter lines,
layout components (Tabs, Steps, Cards, Accordions, ...) are unwrapped with their title as
a bold line, import/export lines, comments and bare JSX are dropped, and frontmatter is
parsed and removed. Fenced code is copied as it is, only losing the indentation of its
opening fence (as CommonMark does), so code nested in a component reads as code.

This module scans the source and handles tags; what it writes, and the map back to the
source lines, is kept by `mdx_lines`.
"""

from __future__ import annotations

import re

from ctxhub.ingest.docs.cleaned import FENCE_OPEN, CleanedText, fence_language, is_fence_close
from ctxhub.ingest.docs.frontmatter import parse_frontmatter
from ctxhub.ingest.docs.mdx_lines import LineWriter, OpenTag
from ctxhub.ingest.docs.mdx_tags import (
    CALLOUTS,
    HTML_DROP,
    HTML_SUPPRESS,
    HTML_UNWRAP,
    PARAMS,
    TITLE_ATTRS,
    Tag,
    param_line,
    parse_tag,
)

__all__ = ["CleanedText", "clean_mdx"]

_SPECIAL = re.compile(r"[\n`<{\\]")
_SPACE_EXPR = re.compile(r"\{\s*(['\"])\s*\1\s*\}")
_ESM = re.compile(r"(?:import|export)\s")
_ESM_OK = re.compile(
    r"import\s+['\"]|import\s[\s\S]*\bfrom\s*['\"]"
    r"|export\s+(?:const|let|var|function|default|class|async|interface|type)\b|export\s*[{*]"
)
_STRINGS = re.compile(r"\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`")
#: After a callout/param header, text on the next line joins it; block syntax does not.
_NO_JOIN = re.compile(r"(?:<|```|~~~|#|[-*+]\s|\d+[.)]\s|\||>|\{|!\[)")

#: Tag problems, counted per file: one warning each, however often they occur.
_ISSUES = {
    "unclosed": ("unclosed {tag}", "{n} unclosed tags"),
    "misnested": ("{tag} closed by {by}", "{n} tags closed by an outer closing tag"),
    "stray": ("{tag} without an opening tag", "{n} closing tags without an opening tag"),
}


def _brackets(text: str) -> int:
    t = _STRINGS.sub("", text)
    return sum(t.count(c) for c in "([{") - sum(t.count(c) for c in ")]}")


class _Cleaner(LineWriter):
    def __init__(self, src: str) -> None:
        super().__init__()
        self.src = src
        self.pos = 0
        self.issues: dict[str, list[tuple[int, str, str]]] = {}  # kind -> (line, tag, by)

    # --- line starts --------------------------------------------------------------------

    def eol(self, pos: int) -> int:
        j = self.src.find("\n", pos)
        return len(self.src) if j < 0 else j

    def line_start(self) -> bool:
        """Handle what only a line start can open; True when whole lines were consumed."""
        end = self.eol(self.pos)
        text = self.src[self.pos : end]
        m = FENCE_OPEN.match(text)
        if m and not (m.group(2)[0] == "`" and "`" in m.group(3)):
            self.fence(m.group(1), m.group(2), m.group(3))
            return True
        if not self.stack and _ESM.match(text) and self.esm(end):
            return True
        stripped = text.lstrip(" \t")
        width = len(text) - len(stripped)
        keep = width
        if self.stack and stripped:
            top = self.stack[-1]
            if top.indent is None:
                top.indent = width
            keep = max(0, width - top.indent)
        self.indent = text[width - keep : width]
        self.pos += width
        self.cur_src = bool(stripped)
        return False

    def fence(self, indent: str, fence: str, info: str) -> None:
        self.end_line()
        bid = len(self.languages)
        self.languages[bid] = fence_language(info)
        first, n = self.line, len(self.src)
        emit = not self.suppressed()
        opener, closed = True, False
        while True:
            end = self.eol(self.pos)
            text = self.src[self.pos : end]
            is_marker = opener or is_fence_close(text, fence)
            cut = len(text) - len(text.lstrip(" "))
            if emit:
                self.emit(text[min(cut, len(indent)) :], (self.line, self.line), bid, is_marker)
            else:
                self.attribute_dropped(self.line)
            self.pos, self.line = end + 1, self.line + 1
            if is_marker and not opener:
                closed = True
                break
            opener = False
            if end >= n:
                break
        if not closed:
            self.warnings.append(f"unclosed code fence opened at line {first}")

    def esm(self, end: int) -> bool:
        """Drop a top-level import/export statement (it may span lines)."""
        pos, line, parts = self.pos, self.line, [self.src[self.pos : end]]
        while _brackets("\n".join(parts)) > 0 and end < len(self.src):
            pos, line = end + 1, line + 1
            end = self.eol(pos)
            if not self.src[pos:end].strip():
                return False  # a blank line before the statement closed: not ESM
            parts.append(self.src[pos:end])
        if not _ESM_OK.match("\n".join(parts)):
            return False
        self.pos, self.line = end + 1, line + 1
        self.attribute_dropped(line)
        return True

    # --- inline scanning ----------------------------------------------------------------

    def newline(self) -> bool:
        """At a source newline (self.pos past it). True when the next line was joined."""
        if self.started and self.pending_join and self.join():
            return True
        if self.started:
            self.end_line()
        elif self.cur_src:
            self.attribute_dropped(self.line)
        elif not self.suppressed():
            self.emit("", (self.line, self.line))
        self.cur_src = False
        self.line += 1
        return False

    def join(self) -> bool:
        k, n = self.pos, len(self.src)
        while k < n and self.src[k] in " \t\r\n":
            k += 1
        if k >= n or _NO_JOIN.match(self.src, k):
            return False
        self.line += self.src.count("\n", self.pos - 1, k)
        if self.stack and self.stack[-1].indent is None:
            self.stack[-1].indent = k - (self.src.rfind("\n", 0, k) + 1)
        self.pos = k
        self.cur_span[1] = self.line
        return True

    def code_span(self, j: int) -> int:
        k = j
        while k < len(self.src) and self.src[k] == "`":
            k += 1
        run = k - j
        end = self.eol(k)
        m = re.compile(rf"(?<!`)`{{{run}}}(?!`)").search(self.src, k, end)
        stop = m.end() if m else k
        self.write(self.src[j:stop])
        return stop

    def skip_to(self, j: int, closer: str) -> int | None:
        end = self.src.find(closer, j)
        if end < 0:
            return None
        end += len(closer)
        self.line += self.src.count("\n", j, end)
        self.touch()
        return end

    def run(self, start: int, first_line: int) -> None:
        self.pos, self.line = start, first_line
        n = len(self.src)
        at_start = True
        while self.pos < n:
            if at_start:
                at_start = False
                if self.line_start():
                    at_start = True
                    continue
            m = _SPECIAL.search(self.src, self.pos)
            j = m.start() if m else n
            self.write(self.src[self.pos : j])
            if j >= n:
                self.pos = n
                break
            c = self.src[j]
            self.pos = j + 1
            if c == "\n":
                at_start = not self.newline()
            elif c == "`":
                self.pos = self.code_span(j)
            elif c == "\\":
                self.write(self.src[j : j + 2].rstrip("\n"))
                self.pos = j + 2 if self.src[j + 1 : j + 2] not in ("", "\n") else j + 1
            elif c == "{":
                sm = _SPACE_EXPR.match(self.src, j)
                if self.src.startswith("{/*", j) and (end := self.skip_to(j, "*/}")):
                    self.pos = end
                elif sm:
                    self.write(" ")
                    self.pos = sm.end()
                else:
                    self.write("{")
            elif self.src.startswith("<!--", j) and (end := self.skip_to(j, "-->")):
                self.pos = end
            else:
                tag = parse_tag(self.src, j)
                if tag is None:
                    self.write("<")
                else:
                    self.tag_end = self.line + self.src.count("\n", j, tag.end)
                    self.tag(tag, self.src[j : tag.end])
                    self.line = self.tag_end
                    self.touch()
                    self.pos = tag.end
        self.end_line()
        for e in self.stack:
            self.issue("unclosed", e.line, f"<{e.name}>")
        self.summarize_issues()

    def issue(self, kind: str, line: int, tag: str, by: str = "") -> None:
        self.issues.setdefault(kind, []).append((line, tag, by))

    def summarize_issues(self) -> None:
        """One warning per kind of tag problem, with a count and the first line."""
        for kind, (single, many) in _ISSUES.items():
            found = sorted(self.issues.get(kind, []))
            if len(found) == 1:
                line, tag, by = found[0]
                self.warnings.append(single.format(tag=tag, by=by) + f" (line {line})")
            elif found:
                self.warnings.append(many.format(n=len(found)) + f" (first at line {found[0][0]})")

    # --- tags ---------------------------------------------------------------------------

    def tag(self, tag: Tag, raw: str) -> None:
        name = tag.name
        if not name:
            return  # fragment
        known = tag.is_component or name.lower() in HTML_SUPPRESS | HTML_UNWRAP | HTML_DROP
        if not known:
            self.write(" ".join(raw.split()))  # not HTML we know: text (`<your-key>`)
        elif tag.closing:
            self.close(name)
        elif not tag.is_component:
            self.html(tag)
        elif name in PARAMS:
            self.end_line()
            head = param_line(tag)
            self.write(head.removesuffix(": ") if tag.self_closing else head)
            self.pending_join = not tag.self_closing
            if not tag.self_closing:
                self.stack.append(OpenTag(name, "param", "  ", line=self.line))
        elif name in CALLOUTS:
            if tag.self_closing:
                return
            self.end_line()
            label = CALLOUTS[name]
            title = tag.text_attr("title")
            self.write(f"> **{label}: {title}** " if title else f"> **{label}:** ")
            self.pending_join = True
            self.stack.append(OpenTag(name, "callout", "> ", line=self.line))
        else:
            title = tag.text_attr(*TITLE_ATTRS)
            href = tag.text_attr("href")
            if title:
                desc = tag.text_attr("description")
                text = f"[{title}]({href})" if href else title
                self.block_line(f"**{text}**" + (f" — {desc}" if desc else ""))
            if not tag.self_closing:
                self.stack.append(OpenTag(name, "wrap", "", line=self.line))

    def html(self, tag: Tag) -> None:
        lname = tag.name.lower()
        if lname in HTML_SUPPRESS:
            if not tag.self_closing:
                self.stack.append(OpenTag(tag.name, "suppress", "", line=self.line))
        elif lname in HTML_UNWRAP:
            if tag.self_closing:
                return
            href = tag.text_attr("href") if lname == "a" else None
            if href:
                self.write("[")
            self.stack.append(
                OpenTag(tag.name, "wrap", "", f"]({href})" if href else "", line=self.line)
            )

    def close(self, name: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].name == name:
                for e in self.stack[i + 1 :]:
                    self.issue("misnested", e.line, f"<{e.name}>", f"</{name}>")
                entry = self.stack[i]
                del self.stack[i:]
                self.write(entry.close_text)
                if entry.kind in ("callout", "param"):
                    self.end_line()
                if entry.kind == "callout" and not self.suppressed():
                    self.emit("", (self.line, self.line))  # text after it is not quoted
                return
        if name[:1].isupper():
            self.issue("stray", self.line, f"</{name}>")


def clean_mdx(text: str) -> CleanedText:
    """Clean MDX/markdown `text`; every output line maps to its original (1-based) lines."""
    src = text.replace("\r\n", "\n")
    raw_lines = src.split("\n")
    fm = parse_frontmatter(raw_lines)
    start = sum(len(line) + 1 for line in raw_lines[: fm.end_line])
    cleaner = _Cleaner(src)
    cleaner.run(min(start, len(src)), fm.end_line + 1)
    out = cleaner.collapsed()
    warnings = ([fm.warning] if fm.warning else []) + out.warnings
    return CleanedText(
        out.lines, out.spans, out.block, out.marker, out.languages, fm.values, warnings, fm.end_line
    )
