"""Pack a section into windows of at most `limit` model tokens with a little overlap,
as even in size as the fewest windows allow.

A section is cut into blocks (paragraphs, whole fenced code blocks, headings). A block
that does not fit is cut into lines (code, lists, tables) or sentences (prose), and any
of those that still does not fit is hard-cut. Windows are contiguous slices of the
cleaned text, so their lines map exactly back to the original file; a code block split
across windows gets its fence re-opened/closed so each window reads as markdown.
Every window is counted with the real tokenizer before it is accepted.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ctxhub.ingest.docs.cleaned import FENCE_OPEN, CleanedText

Counter = Callable[[list[str]], list[int]]

MAX_TOKENS = 512
OVERLAP_TOKENS = 50
#: WordPiece reads any run of >100 characters without a space as one [UNK]: cap
#: characters too, so one enormous line cannot become one enormous chunk.
CHARS_PER_TOKEN_CAP = 8

_SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+")
_LISTISH = re.compile(r"\s*(?:[-*+>|]|\d+[.)])")


@dataclass(frozen=True)
class Window:
    text: str
    first: int  # cleaned line index, inclusive
    last: int
    tokens: int
    counted: bool = True  # tokens come from the tokenizer on exactly `text`


@dataclass(frozen=True)
class _Piece:
    start: int  # char offsets in the page text
    end: int
    tokens: int
    part_of: int = -1  # fenced code block this is a fragment of


class _Page:
    def __init__(self, doc: CleanedText, count: Counter, limit: int) -> None:
        self.doc, self.count, self.limit = doc, count, limit
        self.text = doc.text
        self.max_chars = limit * CHARS_PER_TOKEN_CAP
        self.offsets: list[int] = []
        pos = 0
        for line in doc.lines:
            self.offsets.append(pos)
            pos += len(line) + 1
        # per fenced block: (first line, last line, opener text, closer text)
        self.fences: dict[int, tuple[int, int, str, str]] = {}
        for i, bid in enumerate(doc.block):
            if bid < 0 or not doc.marker[i]:
                continue
            if bid not in self.fences:
                m = FENCE_OPEN.match(doc.lines[i])
                close = m.group(2) if m else "```"
                self.fences[bid] = (i, i, doc.lines[i].strip(), close)
            else:
                f = self.fences[bid]
                self.fences[bid] = (f[0], i, f[2], doc.lines[i].strip())
        last: dict[int, int] = {bid: i for i, bid in enumerate(doc.block) if bid >= 0}
        for bid, (first, _, opener, closer) in list(self.fences.items()):
            self.fences[bid] = (first, last[bid], opener, closer)
        deco = count([f"{f[2]}\n{f[3]}" for f in self.fences.values()])
        self.deco = {bid: n - 2 for bid, n in zip(self.fences, deco, strict=True)}

    def line_of(self, pos: int) -> int:
        return bisect.bisect_right(self.offsets, pos) - 1

    def span(self, first: int, last: int) -> tuple[int, int]:
        return self.offsets[first], self.offsets[last] + len(self.doc.lines[last])

    # --- pieces -------------------------------------------------------------------------

    def blocks(self, first: int, end: int) -> list[tuple[int, int, int]]:
        """(first line, last line, code block id or -1) of each block in [first, end)."""
        doc, out, i = self.doc, [], first
        while i < end:
            bid = doc.block[i]
            if bid < 0 and not doc.lines[i].strip():
                i += 1
                continue
            j = i
            if bid >= 0:
                while j + 1 < end and doc.block[j + 1] == bid:
                    j += 1
            else:
                while j + 1 < end and doc.block[j + 1] < 0 and doc.lines[j + 1].strip():
                    j += 1
            out.append((i, j, bid))
            i = j + 1
        return out

    def hard_cut(self, start: int, end: int, budget: int, part_of: int) -> list[_Piece]:
        """Cut [start, end) into pieces of at most `budget` tokens and max_chars chars,
        preferring to cut at a space."""
        out: list[_Piece] = []
        s = start
        while s < end:
            while s < end and self.text[s].isspace():
                s += 1
            if s >= end:
                break
            hi = min(end, s + self.max_chars)
            n = self.count([self.text[s:hi]])[0]
            if n > budget:
                lo = s + 1  # one character is never more than a few tokens
                while lo < hi:
                    mid = (lo + hi + 1) // 2
                    if self.count([self.text[s:mid]])[0] <= budget:
                        lo = mid
                    else:
                        hi = mid - 1
                hi = lo
            if hi < end:
                space = max(self.text.rfind(" ", s, hi), self.text.rfind("\n", s, hi))
                if space > s + (hi - s) // 2:
                    hi = space
            out.append(_Piece(s, hi, self.count([self.text[s:hi]])[0], part_of))
            s = hi
        return out

    def split_units(self, units: list[tuple[int, int]], budget: int, part_of: int) -> list[_Piece]:
        units = [(s, e) for s, e in units if self.text[s:e].strip()]
        counts = self.count([self.text[s:e] for s, e in units])
        out: list[_Piece] = []
        for (s, e), n in zip(units, counts, strict=True):
            if n <= budget and e - s <= self.max_chars:
                out.append(_Piece(s, e, n, part_of))
            else:
                out.extend(self.hard_cut(s, e, budget, part_of))
        return out

    def pieces(self, ranges: Sequence[tuple[int, int]]) -> list[list[_Piece]]:
        """Pieces of each line range; all whole blocks of the page counted in one batch."""
        per_range = [self.blocks(a, b) for a, b in ranges]
        spans = [[self.span(a, b) for a, b, _ in blocks] for blocks in per_range]
        flat = [self.text[s:e] for sp in spans for s, e in sp]
        counts = iter(self.count(flat))
        out: list[list[_Piece]] = []
        for blocks, sp in zip(per_range, spans, strict=True):
            pieces: list[_Piece] = []
            for (a, b, bid), (s, e) in zip(blocks, sp, strict=True):
                n = next(counts)
                if n <= self.limit and e - s <= self.max_chars:
                    pieces.append(_Piece(s, e, n))
                else:
                    pieces.extend(self.split_block(a, b, bid))
            out.append(pieces)
        return out

    def split_block(self, a: int, b: int, bid: int) -> list[_Piece]:
        """Pieces of a block too big for one window: lines, else sentences, else cuts."""
        s, e = self.span(a, b)
        fenced = bid in self.fences
        budget = self.limit - (self.deco[bid] if fenced else 0)
        listish = sum(bool(_LISTISH.match(self.doc.lines[i])) for i in range(a, b + 1))
        if bid >= 0 or 2 * listish >= b - a + 1:
            units = [self.span(i, i) for i in range(a, b + 1)]
            if fenced and len(units) >= 4:
                # a fence line never stands alone at a window's edge
                units[:2] = [(units[0][0], units[1][1])]
                units[-2:] = [(units[-2][0], units[-1][1])]
        else:
            units, pos = [], s
            for m in _SENTENCE_END.finditer(self.text, s, e):
                units.append((pos, m.start()))
                pos = m.end()
            units.append((pos, e))
        return self.split_units(units, budget, bid if fenced else -1)

    # --- windows ------------------------------------------------------------------------

    def render(self, ps: Sequence[_Piece]) -> str:
        text = self.text[ps[0].start : ps[-1].end]
        head, tail = ps[0], ps[-1]
        if head.part_of >= 0:
            f = self.fences[head.part_of]
            if self.line_of(head.start) > f[0]:
                text = f"{f[2]}\n{text}"
        if tail.part_of >= 0:
            f = self.fences[tail.part_of]
            if self.line_of(max(tail.end - 1, tail.start)) < f[1]:
                text = f"{text}\n{f[3]}"
        return text

    def deco_of(self, first: _Piece, last: _Piece) -> int:
        return max(self.deco.get(first.part_of, 0), self.deco.get(last.part_of, 0))

    def pack_even(self, ps: list[_Piece], overlap: int, exact: bool) -> list[Window]:
        """`pack`, then packed again to the smallest fill that needs no more windows: a
        section a little over one window is two halves, not a full window and a tail
        of a few lines. Such a tail is mostly its page title and breadcrumb to the
        model and short to BM25, so it outranked the window with the section's text."""
        out = self.pack(ps, overlap, exact)
        most, lo, hi = len(out), 1, self.limit - 1
        while most > 1 and lo <= hi:
            mid = (lo + hi) // 2
            even = self.pack(ps, overlap, exact, target=mid)
            if len(even) <= most:
                out, hi = even, mid - 1
            else:
                lo = mid + 1
        return out

    def pack(
        self, ps: list[_Piece], overlap: int, exact: bool, target: int | None = None
    ) -> list[Window]:
        """Greedy windows by additive estimate (WordPiece counts add up across whitespace),
        each filled up to `target` tokens (the limit when None); with `exact`, each window
        is also counted and shrunk until it fits the limit."""
        fill = min(target or self.limit, self.limit)
        out: list[Window] = []
        i, prev_start = 0, -1
        while i < len(ps):
            start, carried = i, 0
            if out and overlap > 0:
                while start - 1 > prev_start and carried + ps[start - 1].tokens - 2 <= overlap:
                    start -= 1
                    carried += ps[start].tokens - 2
            body = ps[i].tokens - 2
            if start < i and (
                2 + carried + body + self.deco_of(ps[start], ps[i]) > fill
                or ps[i].end - ps[start].start > self.max_chars
            ):
                start, carried = i, 0  # the overlap does not fit beside the next piece
            j = i + 1
            while j < len(ps):
                nxt = body + ps[j].tokens - 2
                if 2 + carried + nxt + self.deco_of(ps[start], ps[j]) > fill:
                    break
                if ps[j].end - ps[start].start > self.max_chars:
                    break  # see CHARS_PER_TOKEN_CAP
                body, j = nxt, j + 1
            text = self.render(ps[start:j])
            n = 2 + carried + body
            while exact:
                n = self.count([text])[0]
                if n <= self.limit or j - start == 1:
                    break
                if j - 1 > i:
                    j -= 1
                else:
                    start = i
                text = self.render(ps[start:j])
            first = self.line_of(ps[start].start)
            last = self.line_of(max(ps[j - 1].end - 1, ps[j - 1].start))
            # one piece as it is was counted exactly already
            exact_n = exact or (j - start == 1 and len(text) == ps[start].end - ps[start].start)
            out.append(Window(text, first, last, n, counted=exact_n))
            prev_start, i = start, j
        return out


def pack_sections(
    doc: CleanedText,
    ranges: Sequence[tuple[int, int]],
    count: Counter,
    limit: int = MAX_TOKENS,
    overlap: int = OVERLAP_TOKENS,
) -> list[list[Window]]:
    """Windows for each [first, end) line range of `doc` (windows never cross ranges).

    Every window is counted with `count` (one batch per page); a range with a window
    the estimate got wrong is packed again, counting each window as it goes."""
    page = _Page(doc, count, limit)
    pieces = page.pieces(ranges)
    windows = [page.pack_even(ps, overlap, exact=False) for ps in pieces]
    todo = [w.text for ws in windows for w in ws if not w.counted]
    counts = iter(count(todo))
    for k, ws in enumerate(windows):
        real = [w if w.counted else replace(w, tokens=next(counts), counted=True) for w in ws]
        if any(w.tokens > limit for w in real):
            windows[k] = page.pack_even(pieces[k], overlap, exact=True)
        else:
            windows[k] = real
    return windows
