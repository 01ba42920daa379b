"""Where an example file is cut: line spans along Python definitions, or blank-line blocks
for everything else.

Chunks never cut mid-statement where avoidable: a top-level def/class longer than
TARGET_CHARS is split at its nested defs first, then at statement starts after a blank
line, then at any statement start, and only then at a blank or arbitrary line. Line ranges
are exact: a chunk's content is lines line_start..line_end of the file (newlines
normalised to \\n). A file that does not parse, or is not valid UTF-8, falls back to
blank-line blocks.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from ctxhub.ingest.examples.files import ext_of

TARGET_CHARS = 1500
#: Adjacent top-level defs smaller than this are packed into one chunk.
SMALL_DEF_CHARS = 400
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
#: Line endings as files use them (\r\n, \r, \n); chunk content rejoins lines with \n.
LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class Span:
    start: int  # 1-based, inclusive
    end: int
    kind: str  # def | module | block
    names: tuple[str, ...] = ()  # top-level (or nested, for a part) defs starting here
    enclosing: str | None = None  # the def a part was split from
    part: int | None = None


def _size(lines: list[str], s: int, e: int) -> int:
    return sum(len(x) + 1 for x in lines[s - 1 : e])


def _trim(lines: list[str], s: int, e: int) -> tuple[int, int] | None:
    while s <= e and not lines[s - 1].strip():
        s += 1
    while e >= s and not lines[e - 1].strip():
        e -= 1
    return (s, e) if s <= e else None


def _split(
    lines: list[str],
    start: int,
    end: int,
    cuts: dict[int, float],
    target: int = TARGET_CHARS,
    min_fill: float = 0.4,
) -> list[tuple[int, int]]:
    """Greedy ≤target pieces of lines start..end; `cuts` maps a line one may cut before to
    its preference. The best-preferred cut that leaves a piece of ≥min_fill target wins,
    the furthest one among equals."""
    out: list[tuple[int, int]] = []
    s = start
    order = sorted(c for c in cuts if start < c <= end)
    while _size(lines, s, end) > target:
        best: tuple[float, int] | None = None
        for c in order:
            if c <= s:
                continue
            size = _size(lines, s, c - 1)
            if size > target:
                break
            score = (cuts[c] if size >= min_fill * target else -1.0, c)
            best = score if best is None or score > best else best
        if best is not None:
            cut = best[1]
        else:  # nothing to cut at: as many whole lines as fit, at least one
            e = s
            while e < end and _size(lines, s, e + 1) <= target:
                e += 1
            cut = e + 1
        piece = _trim(lines, s, cut - 1)
        if piece:
            out.append(piece)
        s = cut
    piece = _trim(lines, s, end)
    if piece:
        out.append(piece)
    # A sliver left between two forced cuts joins its neighbour when both still fit.
    merged: list[tuple[int, int]] = []
    for a, b in out:
        if merged:
            pa, pb = merged[-1]
            tiny = min(_size(lines, pa, pb), _size(lines, a, b)) < min_fill * target
            if tiny and _size(lines, pa, b) <= target:
                merged[-1] = (pa, b)
                continue
        merged.append((a, b))
    return merged


def _stmt_start(node: ast.stmt, lines: list[str], floor: int) -> int:
    """First line of a statement: its decorators and the comments right above it."""
    start = node.lineno
    if isinstance(node, _DEFS) and node.decorator_list:
        start = min(start, *(d.lineno for d in node.decorator_list))
    while start - 1 >= floor and lines[start - 2].strip().startswith("#"):
        start -= 1
    return start


def _blank_cuts(lines: list[str], s: int, e: int, weight: float) -> dict[int, float]:
    return {i + 1: weight for i in range(s, e) if not lines[i - 1].strip() and i + 1 <= e}


def _stmt_cuts(
    nodes: list[ast.stmt], lines: list[str], s: int, e: int, nested: bool
) -> dict[int, float]:
    cuts = _blank_cuts(lines, s, e, 0.5)
    for n in nodes:
        for sub in ast.walk(n) if nested else [n]:
            if not isinstance(sub, ast.stmt) or (sub is n and nested):
                continue
            c = _stmt_start(sub, lines, s)
            if s < c <= e:
                after_blank = not lines[c - 2].strip()
                w = 3.0 if isinstance(sub, _DEFS) else 2.0 if after_blank else 1.0
                cuts[c] = max(cuts.get(c, 0.0), w)
    return cuts


def python_spans(text: str, target: int = TARGET_CHARS) -> list[Span]:
    """Spans of a Python file; raises SyntaxError/ValueError when it does not parse."""
    tree = ast.parse(text)
    lines = LINE_BREAK.split(text)
    whole = _trim(lines, 1, len(lines))
    if whole is not None and _size(lines, *whole) <= target:
        # A small example reads best whole: its imports, its app and the line that runs
        # it (`app.run(inline=True)`) are one piece of evidence, not three weak ones.
        names = tuple(n.name for n in tree.body if isinstance(n, _DEFS))
        return [Span(whole[0], whole[1], "module", names)]
    spans: list[Span] = []
    cursor = 1  # first line not yet assigned

    def module_code(s: int, e: int, nodes: list[ast.stmt]) -> None:
        cuts = _stmt_cuts(nodes, lines, s, e, nested=False)
        spans.extend(Span(a, b, "module") for a, b in _split(lines, s, e, cuts, target))

    body = tree.body
    pending: list[ast.stmt] = []
    for i, node in enumerate(body):
        if not isinstance(node, _DEFS):
            pending.append(node)
            continue
        prev_end = (body[i - 1].end_lineno or 0) if i else 0
        start = _stmt_start(node, lines, prev_end + 1)
        end = node.end_lineno or node.lineno
        if cursor <= start - 1:
            module_code(cursor, start - 1, pending)
        pending = []
        if _size(lines, start, end) <= target:
            spans.append(Span(start, end, "def", (node.name,)))
        else:
            cuts = _stmt_cuts([node], lines, start, end, nested=True)
            nested = {
                _stmt_start(n, lines, start): n.name
                for n in ast.walk(node)
                if isinstance(n, _DEFS) and n is not node
            }
            for k, (a, b) in enumerate(_split(lines, start, end, cuts, target), 1):
                names = tuple(v for line, v in nested.items() if a <= line <= b)
                spans.append(Span(a, b, "def", names, enclosing=node.name, part=k))
        cursor = end + 1
    if cursor <= len(lines):
        module_code(cursor, len(lines), pending)
    return _pack_small_defs(spans, lines, target)


def _pack_small_defs(spans: list[Span], lines: list[str], target: int) -> list[Span]:
    """Merge runs of small adjacent top-level defs (only blank lines between them)."""
    out: list[Span] = []
    packable = False  # out[-1] consists of small defs only
    for sp in spans:
        small = sp.kind == "def" and sp.part is None
        small = small and _size(lines, sp.start, sp.end) < SMALL_DEF_CHARS
        prev = out[-1] if out else None
        if (
            prev is not None
            and small
            and packable
            and _size(lines, prev.start, sp.end) <= target
            and all(not lines[i - 1].strip() for i in range(prev.end + 1, sp.start))
        ):
            out[-1] = Span(prev.start, sp.end, "def", (*prev.names, *sp.names))
        else:
            out.append(sp)
            packable = small
    return out


def text_spans(text: str, markdown: bool = False, target: int = TARGET_CHARS) -> list[Span]:
    """Blank-line blocks packed to ~target; in markdown, fenced code never splits at its
    blank lines and a heading is the preferred place to start a new chunk."""
    lines = LINE_BREAK.split(text)
    cuts: dict[int, float] = {}
    fenced = False
    for i, line in enumerate(lines, 1):
        stripped = line.strip()
        if markdown and stripped.startswith(("```", "~~~")):
            fenced = not fenced
        if i > 1 and not fenced and not lines[i - 2].strip() and stripped:
            cuts[i] = 2.0 if markdown and stripped.startswith("#") else 1.0
    # A README section is worth its own chunk from a fifth of the target up.
    fill = 0.2 if markdown else 0.4
    return [Span(a, b, "block") for a, b in _split(lines, 1, len(lines), cuts, target, fill)]


def file_spans(path: str, text: str, issue: str | None) -> tuple[list[Span], str | None, str]:
    """(spans, issue, how) for one file; how is python | blocks."""
    if ext_of(path) in {"py", "pyi"} and issue is None:
        try:
            return python_spans(text), None, "python"
        except (SyntaxError, ValueError) as e:
            issue = (
                f"{type(e).__name__} at line {getattr(e, 'lineno', '?')}; chunked by blank lines"
            )
    markdown = ext_of(path) in {"md", "mdx", "rst"}
    return text_spans(text, markdown=markdown), issue, "blocks"
