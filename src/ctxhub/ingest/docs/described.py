"""API descriptions on a reST page as the renderer writes them (`rst_sphinx.Described`):
`.. py:method:: lock_task(lock_name)` is the line "method lock_task(lock_name)",
`.. autoclass:: pkg.C` the line "class pkg.C". A Sphinx API page keeps dozens of them
under one heading (huey's "Huey object": 40 methods in 900 lines), so its breadcrumb
does not say which definitions a window documents; the names do (`extra.describes`, in
the text index's names column), and a search for `lock_task` finds the window that
describes it before one that only mentions it."""

from __future__ import annotations

import re
from collections.abc import Sequence

_KINDS = (
    r"(?:module|class|function|method|attribute|data|exception|decorator|property|"
    r"classmethod|staticmethod|attr|func|meth|exc|obj)"
)
#: A description directive without content (`.. automodule:: pkg.mod`, `.. data:: X`).
_STUB_LINE = re.compile(rf"^{_KINDS}\s+[\w.]+(?:\(.*\))?$")
#: Any description's line: the kind, the name, then its arguments, return annotation
#: or type (`function f(a) -> int`, `attribute timeout: float`), or nothing.
_SIGNATURE = re.compile(rf"^{_KINDS}\s+([A-Za-z_][\w.]*)(?:\s*\(.*|\s*->.*|\s*:.*)?$")
#: At most this much prose beside the described names ("Those functions can be used ...").
_STUB_PROSE = 200
#: Names a window lists at most (a page of autodoc stubs holds dozens per window).
MAX_DESCRIBED = 25


def is_api_stub(text: str, heading: str) -> bool:
    """A section of a Sphinx API page that only names definitions for autodoc to fill in
    at build time (`.. automodule:: tenacity.retry`, one intro sentence): in the source it
    says nothing, so it is lookup-only, never a search answer or an example."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    lines = [ln for ln in lines if not ln.startswith("#") and ln != heading.strip()]
    described = [ln for ln in lines if _STUB_LINE.match(ln)]
    prose = [ln for ln in lines if not _STUB_LINE.match(ln)]
    return bool(described) and sum(len(p) for p in prose) <= _STUB_PROSE and len(prose) <= 2


def _name(line: str) -> str | None:
    m = _SIGNATURE.match(line)
    return m.group(1) if m else None


def description_name(line: str) -> str | None:
    """The name a rendered description line gives ("attribute Everyone" -> Everyone)."""
    return _name(line.strip())


def _described(lines: Sequence[str], block: Sequence[int], i: int) -> str | None:
    """The name line i describes, or None: not a description's line (code never is)."""
    return _name(lines[i]) if block[i] < 0 else None


def described_names(
    lines: Sequence[str], block: Sequence[int], first: int, last: int, floor: int
) -> list[str]:
    """The definitions lines[first..last] describe: the one whose description the
    window continues (the last description line above it, down to `floor`, its
    section's first line), then each one that starts in it and says something in it.
    A stub (`.. automethod:: X`, the next line another description or a heading) says
    nothing in the source: its name is no answer, so it is not listed."""
    names: list[str] = []
    opening = next((i for i in range(first, last + 1) if lines[i].strip()), first)
    if _described(lines, block, opening) is None:
        for i in range(first - 1, floor - 1, -1):
            if name := _described(lines, block, i):
                names.append(name)
                break
    for i in range(first, last + 1):
        name = _described(lines, block, i)
        if name is None or name in names:
            continue
        body = next((k for k in range(i + 1, last + 1) if lines[k].strip()), None)
        if body is None or lines[body].startswith("#"):
            continue  # nothing under it here (a heading, or the next window)
        if _described(lines, block, body) is None:
            names.append(name)
    return names[:MAX_DESCRIBED]
