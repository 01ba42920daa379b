"""The cleaned form of a docs page that the splitter works on: text lines, each mapped
back to the lines of the original file, with code blocks marked."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: A fence opener at any indentation: MDX nests fences inside components.
FENCE_OPEN = re.compile(r"^([ \t]*)(`{3,}|~{3,})(.*)$")


def fence_language(info: str) -> str:
    """Language of a fence info string: ```python title="x" -> python; {.py} -> py."""
    word = info.strip().split(" ", 1)[0].strip("{}.").lower() if info.strip() else ""
    return word if re.fullmatch(r"[\w+#.-]+", word) else ""


def is_fence_close(line: str, fence: str) -> bool:
    s = line.strip()
    return len(s) >= len(fence) and s == fence[0] * len(s)


@dataclass(frozen=True)
class CleanedText:
    """`lines[i]` came from original lines `spans[i][0]..spans[i][1]` (1-based, inclusive).

    `block[i]` is the id of the code block line i belongs to (-1 for prose); `marker[i]`
    is True for fence delimiter lines; `languages[id]` is a block's language ("" unknown).
    """

    lines: list[str]
    spans: list[tuple[int, int]]
    block: list[int]
    marker: list[bool]
    languages: dict[int, str] = field(default_factory=dict)
    frontmatter: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    frontmatter_lines: int = 0  # original lines the frontmatter block took
    #: lines another file put in the page (includes.py): index -> (that file, its lines)
    origins: dict[int, tuple[str, int, int]] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def line_map(self) -> list[int]:
        """Original 1-based line where each cleaned line starts."""
        return [s for s, _ in self.spans]

    @property
    def title(self) -> str | None:
        return self.frontmatter.get("title") or None

    @property
    def description(self) -> str | None:
        return self.frontmatter.get("description") or None

    def orig_range(self, first: int, last: int) -> tuple[int, int]:
        """Original line range covered by cleaned lines first..last (inclusive)."""
        return self.spans[first][0], max(self.spans[i][1] for i in range(first, last + 1))


def plain_lines(text: str, first_line: int = 1) -> CleanedText:
    """A text taken as it is (markdown without MDX, reST, plain text): fences marked only."""
    lines = text.split("\n")
    block = [-1] * len(lines)
    marker = [False] * len(lines)
    languages: dict[int, str] = {}
    fence: str | None = None
    bid = -1
    for i, line in enumerate(lines):
        if fence is not None:
            block[i] = bid
            if is_fence_close(line, fence):
                marker[i], fence = True, None
            continue
        m = FENCE_OPEN.match(line)
        if m and not (m.group(2)[0] == "`" and "`" in m.group(3)):
            bid += 1
            fence, block[i], marker[i] = m.group(2), bid, True
            languages[bid] = fence_language(m.group(3))
    spans = [(first_line + i, first_line + i) for i in range(len(lines))]
    return CleanedText(lines, spans, block, marker, languages)


_RST_DIRECTIVE = re.compile(r"\.\.\s+(?:code-block|code|sourcecode)::\s*(\S*)")


def rst_lines(text: str, first_line: int = 1) -> CleanedText:
    """reStructuredText with its markup made readable line by line (rst_text.py), and
    literal blocks (`::` paragraphs, code directives) marked as code so the splitter
    keeps them whole and never reads headings in them."""
    doc = plain_lines(text, first_line)
    lines, block, languages = doc.lines, list(doc.block), {}
    bid, i = -1, 0
    while i < len(lines):
        line = lines[i]
        m = _RST_DIRECTIVE.match(line.strip())
        if not (m or (line.rstrip().endswith("::") and not line.strip().startswith(".."))):
            i += 1
            continue
        base = len(line) - len(line.lstrip())
        j = i + 1
        while j < len(lines) and (
            not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > base
        ):
            j += 1
        while j > i + 1 and not lines[j - 1].strip():
            j -= 1  # trailing blank lines are not part of the block
        if j > i + 1:
            bid += 1
            languages[bid] = m.group(1).lower() if m else ""
            start = i if m else i + 1  # a directive line belongs to its block
            for k in range(start, j):
                block[k] = bid
        i = j
    from ctxhub.ingest.docs.rst_text import readable_lines

    lines = readable_lines(lines, [b >= 0 for b in block])
    return CleanedText(lines, doc.spans, block, [False] * len(lines), languages)
