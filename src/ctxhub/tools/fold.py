"""A definition too long to show whole keeps its body in view: a signature that fills the
lines (parameters documented inside `Annotated[..., Doc("...")]`) is folded to its first
and last lines, so the lines shown reach the docstring and the code."""

from __future__ import annotations

import ast
import re
import textwrap

from ctxhub.core.budget import CUT_MARK

#: The fold marker's words (`last_line_shown` reads the marker back).
_LEFT_OUT = "(the rest of the signature) left out"
_MARKER = re.compile(r"\s*# … lines (\d+)-(\d+) " + re.escape(_LEFT_OUT))

#: Lines of a folded signature kept before the fold (the def line and the first
#: parameters) and after it (the closing `) -> T:`).
HEAD_LINES = 6
TAIL_LINES = 1


def _body_index(lines: list[str]) -> int | None:
    """The index in `lines` of the definition's first body line; None when they do not
    parse as one function or class."""
    try:
        tree = ast.parse(textwrap.dedent("\n".join(lines)))
    except (SyntaxError, ValueError):
        return None
    if len(tree.body) != 1:
        return None
    node = tree.body[0]
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return None
    return node.body[0].lineno - 1


def fold_header(lines: list[str], first: int, max_lines: int) -> list[tuple[int, str]] | None:
    """Up to `max_lines` (line number, text) pairs of a definition starting at line
    `first`, its signature folded when it fills more than half of them; None when the
    definition fits or its signature is short (the lines as they are serve)."""
    if len(lines) <= max_lines:
        return None
    body = _body_index(lines)
    if body is None or body <= max_lines // 2 or body <= HEAD_LINES + TAIL_LINES + 1:
        return None
    gap = (first + HEAD_LINES, first + body - TAIL_LINES - 1)
    indent = lines[HEAD_LINES][: len(lines[HEAD_LINES]) - len(lines[HEAD_LINES].lstrip())]
    marker = (
        f"{indent}# … lines {gap[0]}-{gap[1]} {_LEFT_OUT};"
        f" get_code_snippet with path and line_start={gap[0]} shows them"
    )
    numbered = list(enumerate(lines, start=first))
    kept = [*numbered[:HEAD_LINES], (gap[1], marker), *numbered[body - TAIL_LINES :]]
    return kept[:max_lines]


def last_line_shown(code: str, first: int) -> int | None:
    """The number of the last source line `code` shows, from line `first` on (a fold's
    marker stands for the lines it leaves out; a cut's `…` mark is no line); None when
    it shows none."""
    last = None
    number = first - 1
    for line in code.split("\n"):
        if line == CUT_MARK:
            continue
        marker = _MARKER.match(line)
        number = int(marker[2]) if marker else number + 1
        last = number
    return last
