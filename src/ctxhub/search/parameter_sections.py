"""A definition's text cut to fit while keeping its docstring's parameter section.

The section that names the arguments (numpy `Parameters` over a dashed line, Google
`Args:` / `Parameters:` / `Keyword Args:`, reST `:param x:` fields) is what a question
about how to call a class or function needs, and it usually comes after paragraphs of
prose that a plain cut from the top keeps instead. So a cut keeps the text's first lines,
then the parameter section whole (or, when even that does not fit, each parameter's first
line: the names), and `…` marks where something was left out."""

from __future__ import annotations

import re

from ctxhub.core.budget import CUT_MARK, trim_lines

_HEADS = (
    r"args|arguments|parameters|params|keyword args|keyword arguments|other parameters"
    r"|kwargs|options"
)
#: Google style: `Args:` alone on its line, the parameters indented under it.
_GOOGLE = re.compile(rf"^(?P<indent>[ \t]*)(?:{_HEADS})[ \t]*:[ \t]*$", re.I)
#: numpy style: `Parameters` alone on its line, a dashed line under it.
_NUMPY = re.compile(rf"^(?P<indent>[ \t]*)(?:{_HEADS})[ \t]*$", re.I)
_DASHES = re.compile(r"^[ \t]*-{3,}[ \t]*$")
#: A numpy parameter line: `name`, `a, b`, `*args`, `name : type`.
_NUMPY_ITEM = re.compile(r"^\*{0,2}\w+(?:[ \t]*,[ \t]*\*{0,2}\w+)*(?:[ \t]+:.*)?$")
#: reST fields: `:param x:`, `:type x:`, `:keyword y:`, `:raises E:`, `:returns:`.
_FIELD = re.compile(r"^(?P<indent>[ \t]*):(?:param|parameter|arg|argument|key|keyword|kwarg)\b")
_ANY_FIELD = re.compile(r"^[ \t]*:\w[^:]*:")
_FIELD_NAME = re.compile(r"^[ \t]*:[^:]*:")
#: Room the section must leave for the text's first line and the marks, at least.
_MIN_SECTION_CHARS = 40


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _google_end(lines: list[str], head: int) -> int:
    depth = _indent(lines[head])
    end = head + 1
    for k in range(head + 1, len(lines)):
        if not lines[k].strip():
            continue
        if _indent(lines[k]) <= depth:
            break
        end = k + 1
    return end


def _numpy_end(lines: list[str], head: int) -> int:
    depth = _indent(lines[head])
    end = head + 2
    for k in range(head + 2, len(lines)):
        line = lines[k]
        if not line.strip():
            continue
        if k + 1 < len(lines) and _DASHES.match(lines[k + 1]):
            break  # the next section (`Returns` over its dashes)
        indent = _indent(line)
        if indent < depth or (indent == depth and not _NUMPY_ITEM.match(line.strip())):
            break
        end = k + 1
    return end


def _field_end(lines: list[str], head: int) -> int:
    depth = _indent(lines[head])
    end = head + 1
    for k in range(head + 1, len(lines)):
        line = lines[k]
        if not line.strip():
            continue
        if _indent(line) <= depth and not _ANY_FIELD.match(line):
            break
        end = k + 1
    return end


def parameter_section(lines: list[str]) -> tuple[int, int, int] | None:
    """(first, end, item indent) of the first parameter section in `lines`: its heading
    (or first field) to its last line, exclusive end; None when there is none."""
    for k, line in enumerate(lines):
        if _GOOGLE.match(line):
            end = _google_end(lines, k)
            if end > k + 1:
                items = [_indent(x) for x in lines[k + 1 : end] if x.strip()]
                return k, end, min(items)
        elif _NUMPY.match(line) and k + 1 < len(lines) and _DASHES.match(lines[k + 1]):
            end = _numpy_end(lines, k)
            if end > k + 2:
                return k, end, _indent(line)
        elif _FIELD.match(line):
            return k, _field_end(lines, k), _indent(line)
    return None


def _names_only(section: list[str], item_indent: int) -> list[str]:
    """The section's heading and each parameter's first line (its name, type and the
    start of its description), without the lines that go on describing it."""
    kept = [section[0]]
    for line in section[1:]:
        if line.strip() and (_indent(line) <= item_indent or _DASHES.match(line)):
            kept.append(line)
    return kept


def _bare_names(lines: list[str]) -> list[str]:
    """Parameter lines reduced to what names the parameter: `x(int)`, `:param x:`."""
    out = []
    for line in lines:
        field = _FIELD_NAME.match(line)
        out.append(field[0] if field else line.split(": ", 1)[0].rstrip())
    return out


def trim_keeping_parameters(text: str, max_chars: int) -> tuple[str, bool]:
    """`text` cut to at most max_chars on line boundaries (as `trim_lines`), keeping its
    docstring's parameter section before the prose ahead of it: the first lines, `…`,
    the section, `…`. A text without one, or one whose cut keeps the section anyway,
    is cut as `trim_lines` cuts it."""
    if len(text) <= max_chars:
        return text, False
    lines = text.split("\n")
    found = parameter_section(lines)
    mark = "\n" + CUT_MARK
    if found is None or len("\n".join(lines[: found[1]])) + len(mark) <= max_chars:
        return trim_lines(text, max_chars)
    first, end, item_indent = found
    tail = any(line.strip() for line in lines[end:])
    room = max_chars - len(lines[0]) - 1 - len(mark) * (2 if tail else 1)
    if room < _MIN_SECTION_CHARS:
        return trim_lines(text, max_chars)
    section = "\n".join(lines[first:end])
    if len(section) > room:
        names = _names_only(lines[first:end], item_indent)
        if len("\n".join(names)) > room:
            names = names[:1] + _bare_names(names[1:])
        section, cut = trim_lines("\n".join(names), room)
        tail = tail and not cut  # its own mark says the rest is left out
    head = "\n".join(lines[:first]).rstrip()
    kept_head, _ = trim_lines(head, max_chars - 1 - len(section) - (len(mark) if tail else 0))
    return kept_head + "\n" + section + (mark if tail else ""), True
