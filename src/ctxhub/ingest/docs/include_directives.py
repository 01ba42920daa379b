"""Where a docs page pulls in another file, and which file of the source that is.

Two families. **Code** includes put a file's code in a fenced block: MkDocs snippets
(`--8<-- "docs_src/app.py"`, also inside a code fence), FastAPI-style
`{* ../../docs_src/app.py hl[3] *}`, reST `.. literalinclude:: app.py` and MyST's
```` ```{literalinclude} ```` (which myst.py rewrites to the reST line). **Text** includes
make another page's text part of this one: reST `.. include:: CHANGES.rst` and MyST's
```` ```{include} ../HISTORY.md ```` / `:::{include}` (rewritten likewise); with
`:literal:` or `:code:` a text include is code too. A directive's `:key: value` option
lines follow it (`:start-after:`, `:end-before:`, `:heading-offset:`, ...).

Resolving a path never leaves the source: a code include is tried from the page's
folder, then each folder above it (tools resolve them from their config's folder, which
the page does not say); a text include from the page's folder only, or, spelled `/x`,
from the docs root (some folder above the page). A path that can only resolve outside
the source's root, or a URL, is **refused** with its reason; nothing is read for it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field

#: An option line under a `..` directive (reST, or MyST's rewritten fence).
OPTION = re.compile(r"^\s*:(?P<key>[\w-]+):(?:\s+(?P<value>.*?))?\s*$")
_SNIPPET = re.compile(r"""^\s*-{1,2}8<-{1,2}\s+["']([^"']+)["']\s*$""")
_BRACES = re.compile(r"^\s*\{\*\s*(\S+?)(?:\s+[^*]*)?\*\}\s*$")
_REST = re.compile(r"^\s*\.\.\s+(?P<name>literalinclude|include)::\s*(?P<target>\S+)\s*$")
# MyST's fences, as a page's raw text has them (myst.py rewrites them to the reST line)
_MYST = re.compile(
    r"^\s*(?:`{3,}|~{3,}|:{3,})\{(?P<name>literalinclude|include)\}\s+(?P<target>\S+)\s*$"
)
_YAML_OPTION = re.compile(r"^\s*(?P<key>[\w-]+):(?:\s+(?P<value>.*?))?\s*$")
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.I)


@dataclass(frozen=True)
class Directive:
    target: str  # the path as written
    text: bool  # the file's text joins the page (an include), else its code
    options: dict[str, str] = field(default_factory=dict)
    #: expanded inside a code block too (a snippet in a ``` fence); any other directive
    #: there is a page showing how to write it
    in_code: bool = False

    @property
    def as_code(self) -> bool:
        """Included as a code block: a code include, or `.. include::` with `:literal:`
        or `:code:`."""
        return not self.text or "literal" in self.options or "code" in self.options


def _unquote(value: str) -> str:
    """MyST reads option values as YAML: `"begin-teaser -->"` is `begin-teaser -->`."""
    v = value.strip()
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "\"'":
        return v[1:-1]
    return v


def directive_at(lines: list[str], i: int) -> tuple[Directive, int] | None:
    """The include directive on line i and how many option lines follow it."""
    line = lines[i]
    for pattern in (_SNIPPET, _BRACES):
        m = pattern.match(line)
        if m:
            return Directive(m.group(1), text=False, in_code=pattern is _SNIPPET), 0
    m = _REST.match(line) or _MYST.match(line)
    if m is None:
        return None
    myst = m.re is _MYST
    options: dict[str, str] = {}
    n = i + 1
    yaml = myst and n < len(lines) and lines[n].strip() == "---"
    if yaml:  # MyST's other spelling: a YAML block of options
        n += 1
    while n < len(lines):
        if yaml and lines[n].strip() == "---":
            n += 1
            break
        option = (_YAML_OPTION if yaml else OPTION).match(lines[n])
        if option is None or (not yaml and not lines[n].strip()):
            break
        value = option.group("value") or ""
        options[option.group("key").lower()] = _unquote(value) if myst else value.strip()
        n += 1
    directive = Directive(m.group("target"), text=m.group("name") == "include", options=options)
    return directive, n - i - 1


def directives_in(text: str) -> list[Directive]:
    """The include directives of a page's raw text, in order."""
    lines = text.splitlines()
    out: list[Directive] = []
    for i in range(len(lines)):
        found = directive_at(lines, i)
        if found is not None:
            out.append(found[0])
    return out


def include_targets(text: str) -> list[str]:
    """The paths a page's include directives name, as written."""
    return [d.target for d in directives_in(text)]


def _walk_up(folder: str, target: str) -> list[str]:
    """`target` joined to `folder` and to each folder above it, nearest first (a join
    may lead outside the root: `_inside` tells)."""
    out = []
    while True:
        out.append(posixpath.normpath(posixpath.join(folder, target)))
        if not folder:
            return out
        folder = posixpath.dirname(folder)


def _inside(path: str) -> bool:
    return path not in ("", ".") and not path.startswith(("..", "/"))


def candidate_paths(page: str, target: str) -> list[str]:
    """Where a code include of `target` on `page` may live, nearest folder first (only
    paths inside the source)."""
    return [p for p in _walk_up(posixpath.dirname(page), target.lstrip("/")) if _inside(p)]


@dataclass(frozen=True)
class Resolved:
    """What a directive names: `path` (a file of the source), or why nothing is read:
    `refused` (it leads outside the source), `missing` (no such file), or neither for a
    docutils standard include (`<isonum.txt>`), which is no file at all."""

    path: str | None = None
    refused: str | None = None
    missing: bool = False


def resolve(page: str, directive: Directive, exists: Callable[[str], bool]) -> Resolved:
    """The file of the source `directive` on `page` includes; `exists` says whether the
    source has a path (nothing else is ever read)."""
    target = directive.target.strip()
    if target.startswith("<") and target.endswith(">"):
        return Resolved()  # `.. include:: <isonum.txt>`: docutils' own substitution sets
    if _URL.match(target):
        return Resolved(refused="a URL, not a file of the source")
    if "\x00" in target or "\\" in target:
        return Resolved(refused="not a relative path")
    folder = posixpath.dirname(page)
    if directive.text and not target.startswith("/"):
        tried = [posixpath.normpath(posixpath.join(folder, target))]
    else:  # a code include, or `/x`: from the docs root, a folder above the page
        tried = _walk_up(folder, target.lstrip("/"))
    inside = [p for p in tried if _inside(p)]
    if not inside:
        return Resolved(refused="resolves outside the source")
    found = next((p for p in inside if exists(p)), None)
    return Resolved(path=found) if found else Resolved(missing=True)
