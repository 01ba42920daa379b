"""The part of an included file a directive's options select, and the file line it
starts at (so the included lines can say where in the file they are).

`.. include::` / ```` ```{include} ```` take docutils' options: `:start-line:` and
`:end-line:` (0-based, as a Python slice of lines), then `:start-after:` and
`:end-before:` (text: what follows the first occurrence, up to the next one).
`literalinclude` takes Sphinx's: `:lines:` (`1-3,7-`), and `:start-after:`,
`:start-at:`, `:end-before:`, `:end-at:`, which match whole lines. Other options
(`:relative-docs:`, `:parser:`, `:language:`, ...) select nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_RANGE = re.compile(r"^\s*(\d*)\s*(-?)\s*(\d*)\s*$")


@dataclass(frozen=True)
class Selection:
    text: str
    first_line: int  # 1-based line of the file where `text` starts


class NotSelected(ValueError):
    """An option names text the file does not hold (docutils then includes nothing)."""


def _int(options: dict[str, str], key: str) -> int | None:
    value = options.get(key, "").strip()
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise NotSelected(f":{key}: is no line number: {value!r}") from None


def select_text(text: str, options: dict[str, str]) -> Selection:
    """docutils' include options applied to `text`."""
    lines = text.splitlines(keepends=True)
    start, end = _int(options, "start-line"), _int(options, "end-line")
    first = 1
    if start is not None or end is not None:
        lo = range(len(lines))[slice(start, None)].start if lines else 0
        lines = lines[slice(start, end)]
        first = lo + 1
    raw = "".join(lines)
    after = options.get("start-after")
    if after:
        at = raw.find(after)
        if at < 0:
            raise NotSelected(f"start-after text not found: {after!r}")
        cut = at + len(after)
        first += raw[:cut].count("\n")
        raw = raw[cut:]
    before = options.get("end-before")
    if before:
        at = raw.find(before)
        if at < 0:
            raise NotSelected(f"end-before text not found: {before!r}")
        raw = raw[:at]
    if raw.startswith("\n"):  # the rest of the marker's line
        raw, first = raw[1:], first + 1
    return Selection(raw, first)


def _line_numbers(spec: str, total: int) -> list[int]:
    """`1-3,7-` as 1-based line numbers of a file of `total` lines."""
    out: list[int] = []
    for part in spec.split(","):
        m = _RANGE.match(part)
        if m is None or not (m.group(1) or m.group(3)):
            raise NotSelected(f":lines: is no line range: {spec!r}")
        lo = int(m.group(1)) if m.group(1) else 1
        hi = (int(m.group(3)) if m.group(3) else total) if m.group(2) else lo
        out.extend(range(lo, min(hi, total) + 1))
    return out


def select_code(text: str, options: dict[str, str]) -> Selection:
    """Sphinx literalinclude's options applied to `text`; lines kept as they are."""
    lines = text.splitlines()
    numbers = list(range(1, len(lines) + 1))
    if options.get("lines", "").strip():
        numbers = _line_numbers(options["lines"], len(lines))
    for key, keep, starts in (
        ("start-after", False, True),
        ("start-at", True, True),
        ("end-before", False, False),
        ("end-at", True, False),
    ):
        marker = options.get(key)
        if not marker:
            continue
        at = next((k for k, n in enumerate(numbers) if marker in lines[n - 1]), None)
        if at is None:
            raise NotSelected(f"{key} text not found: {marker!r}")
        cut = at + (keep != starts)  # where the kept part begins or ends
        numbers = numbers[cut:] if starts else numbers[:cut]
    if not numbers:
        return Selection("", 1)
    return Selection("\n".join(lines[n - 1] for n in numbers), numbers[0])
