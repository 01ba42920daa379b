"""MyST markup (the Markdown of Sphinx projects) made readable, line for line.

Roles (`{func}`~pkg.mod.bind``) become what Sphinx shows: the target, its last dotted
part after `~`, or the title of `Title <target>`; code roles stay code. Directive fences
(```` ```{note} ````, `:::{attention}`) become what they say: an admonition its title word
and body, an image its alt text, a code block a plain fence, an `include` or
`literalinclude` the reST spelling `includes.py` expands (it reads the options from the
page's own lines), a toctree nothing; options (`:key: value` lines, or a `---` YAML
block) are blanked. A fence whose name MyST does not define
(```` ```{python} ```` in Quarto) is left a code block. Every input line gives exactly
one output line, so the cleaned page still maps to the file's lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ctxhub.ingest.docs.directives import ADMONITIONS, VERSIONED, label_prefix
from ctxhub.ingest.sphinx_roles import role_reference

_OPEN = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,}|:{3,})\{(?P<name>[\w:.-]+)\}[ \t]*(?P<arg>.*?)\s*$"
)
_PLAIN_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_OPTION = re.compile(r"^\s*:(?P<key>[\w-]+):(?:\s+(?P<value>.*?))?\s*$")
_YAML_OPTION = re.compile(r"^\s*(?P<key>[\w-]+):(?:\s+(?P<value>.*?))?\s*$")
_LABEL_LINE = re.compile(r"^\s*\([\w\-:./]+\)=\s*$")  # `(target-label)=` above a heading
_ROLE_OR_CODE = re.compile(
    r"(?P<role>\{(?P<name>[\w:.-]+)\}`(?P<text>[^`\n]+)`)|(?P<code>`+[^`\n]*`+)"
)

_CODE = frozenset({"code-block", "code", "sourcecode", "code-cell", "math", "mermaid"})
# Sphinx doctest blocks: shown as code (a session, or a script); set-up code is hidden.
_DOCTEST = {"doctest": "pycon", "testcode": "python", "testoutput": ""}
_VERBATIM = frozenset({"eval-rst"})  # reST inside: its text is kept as written
_DROPPED = frozenset(
    {"toctree", "contents", "tableofcontents", "raw", "meta", "index", "highlight"}
    | {"testsetup", "testcleanup"}
    | {"currentmodule", "module", "py:currentmodule", "py:module", "only"}
)
_IMAGES = frozenset({"image", "figure"})
_CONTAINERS = frozenset(
    {"admonition", "topic", "sidebar", "margin", "rubric", "epigraph", "container", "div"}
    | {"tab-set", "tab-item", "dropdown", "card", "grid", "grid-item", "grid-item-card"}
    | {"glossary"}
)
#: Directives includes.py expands: written back in the reST spelling.
_INCLUDES = frozenset({"include", "literalinclude"})
_KNOWN = (
    (frozenset(ADMONITIONS) | frozenset(VERSIONED) | frozenset(_DOCTEST) | _CODE | _VERBATIM)
    | _DROPPED
    | _IMAGES
    | _CONTAINERS
    | _INCLUDES
)
_CODE_ROLES = frozenset(
    {"func", "meth", "class", "mod", "attr", "obj", "data", "exc", "const", "any", "code"}
    | {"literal", "samp", "file", "command", "program", "envvar", "option", "kbd", "type"}
)


@dataclass
class _Open:
    char: str
    length: int
    mode: str  # prose | code | verbatim | dropped
    name: str
    options: bool = True  # still reading the `:key: value` lines after the opener
    yaml: bool = False  # inside a `---` block of options after the opener


def role_text(name: str, text: str) -> str:
    """What Sphinx shows for a role: `~a.b.c` -> c, `Title <target>` -> Title, `.a.b`
    (a relative reference) -> a.b."""
    shown = role_reference(text, name).shown
    kind = name.rsplit(":", 1)[-1]
    if kind in ("pep", "rfc") and not shown.startswith(kind.upper()):
        return f"{kind.upper()} {shown}"
    return f"`{shown}`" if kind in _CODE_ROLES else shown


def readable_roles(line: str) -> str:
    """Roles replaced; inline code spans (`` `{func}` ``) left as they are."""

    def swap(m: re.Match[str]) -> str:
        return m.group(0) if m.group("code") else role_text(m.group("name"), m.group("text"))

    return _ROLE_OR_CODE.sub(swap, line) if "}`" in line else line


def _opener(name: str, arg: str, indent: str) -> tuple[str, str]:
    """(the line the opener becomes, the mode of its body)."""
    if name in _DOCTEST:
        return f"{indent}```{_DOCTEST[name]}", "code"
    if name in _CODE:
        language = arg.split(" ", 1)[0] if arg else ("math" if name == "math" else "")
        return f"{indent}```{language if name != 'mermaid' else 'mermaid'}", "code"
    if name in _INCLUDES:
        return (f"{indent}.. {name}:: {arg}" if arg else ""), "dropped"
    if name in ADMONITIONS:
        title, text = ADMONITIONS[name], readable_roles(arg)
        return f"{indent}{label_prefix(title, text)}{text}".rstrip(), "prose"
    if name in VERSIONED:
        version, _, rest = arg.partition(" ")
        said = f"{VERSIONED[name]} {version}".rstrip() + ":"
        return f"{indent}{said} {readable_roles(rest.strip())}".rstrip(), "prose"
    if name in _VERBATIM:
        return "", "verbatim"
    if name in _DROPPED or name in _IMAGES:
        return "", "dropped" if name in _DROPPED or name == "image" else "prose"
    return (f"{indent}{readable_roles(arg)}" if arg else ""), "prose"


def _option_line(line: str, top: _Open) -> str | None:
    """What an option line under the opener becomes (an image's alt text, or nothing);
    None: the options have ended."""
    if line.strip() == "---":
        top.yaml = not top.yaml  # a YAML block of options opens or closes
        if not top.yaml:
            top.options = False
        return ""
    option = (_YAML_OPTION if top.yaml else _OPTION).match(line)
    if option is None:
        return "" if top.yaml else None
    alt = option.group("key") == "alt" and top.name in _IMAGES
    return (option.group("value") or "") if alt else ""


def _closes(line: str, top: _Open) -> bool:
    s = line.strip()
    return len(s) >= top.length and s == top.char * len(s)


def readable_myst(text: str) -> str:
    """`text` with MyST roles and directives made readable; same number of lines."""
    if "{" not in text:
        return text
    out: list[str] = []
    stack: list[_Open] = []
    plain: str | None = None  # the fence of an ordinary code block we are in
    for line in text.split("\n"):
        top = stack[-1] if stack else None
        if plain is not None:
            if line.strip() and set(line.strip()) == {plain[0]} and len(line.strip()) >= len(plain):
                plain = None
            out.append(line)
            continue
        if top is not None and _closes(line, top):
            stack.pop()
            out.append(
                line.replace(top.char * len(line.strip()), "```") if top.mode == "code" else ""
            )
            continue
        if top is not None and top.options:
            shown = _option_line(line, top)
            if shown is not None:
                out.append(shown)
                continue
            top.options = False
        if top is not None and top.mode in ("code", "verbatim", "dropped"):
            out.append("" if top.mode == "dropped" else line)
            continue
        opened = _OPEN.match(line)
        if opened and opened.group("name").lower() in _KNOWN:
            name = opened.group("name").lower()
            fence = opened.group("fence")
            shown, mode = _opener(name, opened.group("arg"), opened.group("indent"))
            stack.append(_Open(fence[0], len(fence), mode, name))
            out.append(shown)
            continue
        fence_open = _PLAIN_FENCE.match(line)
        if fence_open:
            plain = fence_open.group(1)
            out.append(line)
            continue
        out.append("" if _LABEL_LINE.match(line) else readable_roles(line))
    return "\n".join(out)
