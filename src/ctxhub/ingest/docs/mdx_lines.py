"""The MDX cleaner's output side: text written into the current line under the prefixes
of the open tags ("> " in a callout), finished lines each mapped to the source lines they
came from, and the result as `CleanedText` with runs of blank lines collapsed."""

from __future__ import annotations

from dataclasses import dataclass

from ctxhub.ingest.docs.cleaned import CleanedText


@dataclass
class OpenTag:
    name: str
    kind: str  # callout | param | wrap | suppress
    prefix: str  # what each content line starts with ("> " in a callout)
    close_text: str = ""
    indent: int | None = None  # indentation of its content, learned from its first line
    line: int = 0  # where it was opened


class LineWriter:
    """The cleaner's output state. The cleaner (`mdx.py`) builds on it and moves `line`
    along the source as it scans."""

    def __init__(self) -> None:
        self.line = 1  # the source line being read (1-based)
        self.lines: list[str] = []
        self.spans: list[list[int]] = []
        self.block: list[int] = []
        self.marker: list[bool] = []
        self.languages: dict[int, str] = {}
        self.warnings: list[str] = []
        self.stack: list[OpenTag] = []
        self.cur: list[str] = []
        self.started = False
        self.cur_span = [0, 0]
        self.cur_src = False  # the source line held markup that produced no text
        self.indent = ""  # indentation to put before the line's first text
        self.pending_join = False
        self.last_text = -1
        self.tag_end = 0  # last source line of the tag being handled

    def suppressed(self) -> bool:
        return any(e.kind == "suppress" for e in self.stack)

    def write(self, s: str) -> None:
        if not s or self.suppressed():
            return
        if not self.started:
            if not s.strip():
                return
            self.started = True
            self.cur = ["".join(e.prefix for e in self.stack), self.indent]
            self.cur_span = [self.line, self.line]
        self.cur.append(s)
        self.cur_span[1] = max(self.cur_span[1], self.line)
        if s.strip():
            self.pending_join = False

    def emit(self, text: str, span: tuple[int, int], block: int = -1, marker: bool = False) -> None:
        self.lines.append(text)
        self.spans.append(list(span))
        self.block.append(block)
        self.marker.append(marker)
        if text.strip():
            self.last_text = len(self.lines) - 1

    def end_line(self) -> None:
        if self.started:
            self.emit("".join(self.cur).rstrip(), (self.cur_span[0], self.cur_span[1]))
        self.started = self.pending_join = False
        self.cur = []

    def touch(self) -> None:
        """Source up to self.line was consumed (a multi-line tag or comment)."""
        if self.started:
            self.cur_span[1] = max(self.cur_span[1], self.line)
        else:
            self.cur_src = True

    def attribute_dropped(self, line: int) -> None:
        """A source line that produced nothing belongs to the text line before it (code
        lines keep their own line exactly)."""
        if self.last_text >= 0 and self.block[self.last_text] < 0:
            span = self.spans[self.last_text]
            span[1] = max(span[1], line)

    def block_line(self, text: str) -> None:
        """A line of its own (a title): ends the line before and the one it starts."""
        if self.suppressed():
            return
        self.end_line()
        self.write(text)
        self.cur_span[1] = max(self.cur_span[1], self.tag_end)
        self.end_line()

    def collapsed(self) -> CleanedText:
        """The finished lines, a run of blank prose lines kept as one, trailing ones dropped."""
        keep: list[int] = []
        for i, text in enumerate(self.lines):
            blank = not text.strip() and self.block[i] < 0
            if blank and (
                not keep or (not self.lines[keep[-1]].strip() and self.block[keep[-1]] < 0)
            ):
                continue
            keep.append(i)
        while keep and not self.lines[keep[-1]].strip() and self.block[keep[-1]] < 0:
            keep.pop()
        return CleanedText(
            lines=[self.lines[i] for i in keep],
            spans=[(self.spans[i][0], self.spans[i][1]) for i in keep],
            block=[self.block[i] for i in keep],
            marker=[self.marker[i] for i in keep],
            languages=self.languages,
            warnings=self.warnings,
        )
