"""reST markup made readable, one line at a time (so every line keeps its place in the
original file): roles and interpreted text become their text, hyperlink references
their title, directives a labelled line, link targets and substitution definitions go.

In a heading, `:class:`Meta <marshmallow.Schema.Meta>`` -> `Meta` and
`:meth:`~pkg.Schema.load`` -> `load` (what Sphinx shows); in the body the target is kept
beside the title, `Meta (marshmallow.Schema.Meta)`, `pkg.Schema.load`: the qualified name
is what a search for the API matches. ``Custom `class Meta <x.Meta>`_ options`` ->
`Custom class Meta options`;
`.. versionadded:: 3.0` -> `Added in version 3.0`; `.. seealso:: :ref:`guide``
-> `See also: guide`. Code blocks never reach this module.
"""

from __future__ import annotations

import re

from ctxhub.ingest.docs.directives import ADMONITIONS, VERSIONED
from ctxhub.ingest.sphinx_roles import ROLE, role_reference

#: `text <target>`_ / `text <target>`__ and plain interpreted text `text`.
_REFERENCE = re.compile(r"(?<![`\w])`([^`<]+?)\s*<[^>]*>`_{1,2}")
_INTERPRETED = re.compile(r"(?<![`\w])`([^`]+)`(?:_{1,2})?(?!`)")
_TARGET = re.compile(r"^\s*\.\.\s+(?:_[^:]+:|\|[^|]+\|\s+\w+::).*$")
_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+([\w:-]+)::\s*(.*)$")
_OPTION = re.compile(r"^\s+:[\w-]+:(\s.*)?$")
#: A heading's underline: one punctuation character repeated.
_ADORNMENT = re.compile(r"([=\-`:'\"~^_*+#<>.])\1{2,}")
#: How a directive reads in prose; the rest are "Name: argument".
_LABELS = {
    **{name: f"{title}:" for name, title in ADMONITIONS.items()},
    **VERSIONED,
    "admonition": "",
    "rubric": "",
}
#: Directives whose argument is a name the page documents (`.. data:: NAME`).
_DESCRIBES = re.compile(
    r"^(?:py:)?(?:auto)?(?:class|function|method|attribute|data|module|exception|decorator|property)$"
)
#: Directives that are navigation or machinery, not content.
_DROPPED = frozenset(
    {
        "toctree",
        "contents",
        "index",
        "include",
        "raw",
        "only",
        "currentmodule",
        "module",
        "automodule",
        "highlight",
        "role",
        "default-role",
        "meta",
    }
)


def _role_text(match: re.Match[str], short: bool) -> str:
    ref = role_reference(match.group("body"), match.group("name"))
    if ref.titled:
        return ref.shown if short or ref.shown == ref.target else f"{ref.shown} ({ref.target})"
    return ref.shown if short else ref.target


def readable_inline(text: str, short: bool = False) -> str:
    """`short`: as Sphinx shows it (headings); else with each role's target kept."""
    text = ROLE.sub(lambda m: _role_text(m, short), text)
    text = _REFERENCE.sub(r"\1", text)
    return _INTERPRETED.sub(r"\1", text)


def readable_lines(lines: list[str], code: list[bool]) -> list[str]:
    """Every line of a reST file, the code lines untouched; a directive's option lines
    (`:maxdepth: 2` right under it) are dropped, field lists elsewhere are kept."""
    out: list[str] = []
    options = False
    for i, (line, is_code) in enumerate(zip(lines, code, strict=True)):
        if is_code:
            out.append(line)
            options = False
            continue
        if options and _OPTION.match(line):
            out.append("")
            continue
        options = bool(_DIRECTIVE.match(line))
        below = lines[i + 1] if i + 1 < len(lines) else ""
        heading = bool(_ADORNMENT.fullmatch(below.rstrip())) and bool(line.strip())
        out.append(readable_line(line, short=heading))
    return out


def readable_line(line: str, short: bool = False) -> str:
    """One non-code line of a reST file, readable (see the module docstring)."""
    if _TARGET.match(line):
        return ""
    m = _DIRECTIVE.match(line)
    if m and m.group(2).lower() == "literalinclude":
        return line  # includes.py puts the file's code here
    if m:
        indent, name, argument = m.group(1), m.group(2).lower(), readable_inline(m.group(3))
        if name in _DROPPED:
            return ""
        if _DESCRIBES.match(name):
            return f"{indent}{argument}"
        label = _LABELS.get(name, name.replace("-", " ").capitalize() + ":")
        return f"{indent}{label} {argument}".rstrip() if label else f"{indent}{argument}"
    return readable_inline(line, short)
