"""Lines of a built HTML page for the Markdown made from it: a chunk cites the lines of
the `.html` file, not of the converted text, and a heading its `id` (the anchor a
browser opens: `cookbook.html#don-t-generate-empty-migrations`).

Before conversion each block (heading, paragraph, code block, list item, definition
term) gets a marker naming its source line, at its first visible character; after
conversion the markers are read off the Markdown lines and removed. A Markdown line
belongs to the block of the last marker at or before it, and a block runs to the line
before the next block's.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any

from ctxhub.ingest.docs.cleaned import CleanedText

#: The blocks that get a marker; a heading's marker also carries its anchor.
MARKED = ("h1", "h2", "h3", "h4", "h5", "h6", "p", "pre", "li", "dt")
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
#: Letters and digits only, so Markdown conversion never escapes them.
_MARKER = re.compile(r"QxhLn(\d+)Qx")


def _marker(n: int) -> str:
    return f"QxhLn{n}Qx"


def heading_anchor(heading: Any) -> str | None:
    """The id a link to this heading uses: its own (MkDocs), else that of the section
    it opens (Sphinx wraps each section in `<section id=...>` or `<div id=...>`)."""
    own = heading.get("id")
    if own:
        return str(own)
    parent = heading.parent
    if parent is not None and parent.get("id") and parent.find(list(HEADINGS)) is heading:
        return str(parent["id"])
    return None


@dataclass
class HtmlLines:
    """Where each block of the converted page starts in the HTML file."""

    #: (html line) of marker n
    starts: list[int] = field(default_factory=list)
    #: html line of a heading -> its anchor
    anchors: dict[int, str] = field(default_factory=dict)
    #: the last line of the page's content in the file
    end: int = 1
    #: Markdown line (1-based) -> html line of the block it begins; sorted by md line
    md_lines: list[int] = field(default_factory=list)
    html_at: list[int] = field(default_factory=list)

    def mark(self, main: Any) -> None:
        """Insert a marker at the start of every block of `main` that knows its line."""
        for tag in main.find_all(MARKED):
            line = getattr(tag, "sourceline", None)
            if line is None or not tag.get_text(strip=True):
                continue  # an empty block converts to nothing: a marker would show it
            if tag.name in HEADINGS and (anchor := heading_anchor(tag)):
                self.anchors[line] = anchor
            # into the block's first text, before its first visible character: the
            # block's structure and whitespace convert exactly as without it
            text = next(t for t in tag.find_all(string=True) if t.strip())
            at = len(text) - len(text.lstrip())
            text.replace_with(text[:at] + _marker(len(self.starts)) + text[at:])
            self.starts.append(line)

    def read_markers(self, markdown: str) -> str:
        """The Markdown without markers, remembering where each block starts."""
        out: list[str] = []
        for number, line in enumerate(markdown.split("\n"), start=1):
            found = [
                self.starts[int(m)] for m in _MARKER.findall(line) if int(m) < len(self.starts)
            ]
            if found:
                self.md_lines.append(number)
                self.html_at.append(min(found))
            out.append(_MARKER.sub("", line))
        return "\n".join(out)

    def span(self, first: int, last: int) -> tuple[int, int]:
        """HTML lines of Markdown lines first..last (1-based): from the start of the block
        holding `first` to the line before the block after `last` begins."""
        if not self.md_lines:
            return 1, self.end
        i = bisect.bisect_right(self.md_lines, first) - 1
        start = self.html_at[i] if i >= 0 else min(self.html_at)
        j = bisect.bisect_right(self.md_lines, last)
        later = [h for h in self.html_at[j:] if h > start]
        end = min(later) - 1 if later else self.end
        return start, max(start, end)

    def remap(self, doc: CleanedText) -> CleanedText:
        """`doc` whose lines cite the HTML file's lines."""
        spans = [self.span(first, last) for first, last in doc.spans]
        return dataclasses.replace(doc, spans=spans)


def content_end(main: Any, total_lines: int) -> int:
    """The last line of `main` in the file: the line before the first tag after it."""
    last = main
    while getattr(last, "contents", None):
        last = last.contents[-1]
    after = last.find_next(True) if hasattr(last, "find_next") else None
    line = getattr(after, "sourceline", None)
    return max(1, line - 1 if line else total_lines)
