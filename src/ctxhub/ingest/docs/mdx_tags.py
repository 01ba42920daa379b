"""JSX/HTML tag parsing for the MDX cleaner: one tag at a time, strict enough that prose
like `a < b`, `<https://x>` or `List<int>` stays text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: A tag may span lines (multi-line attribute lists); a stray `<` must not eat the page.
MAX_TAG_CHARS = 4000

# --- what the cleaner does with each component -----------------------------------------

#: Callout component -> label of its blockquote.
CALLOUTS = {
    "Note": "Note",
    "Warning": "Warning",
    "Tip": "Tip",
    "Info": "Info",
    "Check": "Check",
    "Danger": "Danger",
    "Caution": "Caution",
    "Important": "Important",
    "Success": "Success",
    "Callout": "Note",
}
PARAMS = frozenset({"ParamField", "ResponseField"})
#: Attributes that title a layout component (Tab title, Update label, Frame caption).
TITLE_ATTRS = ("title", "label", "caption")
#: HTML whose content is not prose at all.
HTML_SUPPRESS = frozenset({"script", "style", "svg"})
#: Void / media HTML: the tag goes, nothing to keep.
HTML_DROP = frozenset(
    "img video audio iframe source track embed br hr picture object input col wbr meta link".split()
)
#: HTML wrappers: the tag goes, its text stays.
HTML_UNWRAP = frozenset(
    """div span p a b strong em i u s small sup sub center figure figcaption details summary
    section article main header footer nav aside table thead tbody tfoot tr td th ul ol li
    kbd mark label button font code pre blockquote h1 h2 h3 h4 h5 h6 dl dt dd caption""".split()
)

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[.:-][A-Za-z0-9]+)*")
_ATTR_NAME = re.compile(r"[A-Za-z_:][A-Za-z0-9_:.-]*")
_TAG_IN_EXPR = re.compile(r"<[^<>]*>")
_WS = " \t\r\n"


@dataclass(frozen=True)
class Tag:
    """One parsed tag. Attribute values: `str` for "..." and {expr} (braces stripped),
    `True` for a bare attribute."""

    name: str  # "" for a fragment <>
    closing: bool
    self_closing: bool
    end: int  # index just past the closing '>'
    attrs: dict[str, str | bool] = field(default_factory=dict)
    exprs: frozenset[str] = frozenset()  # attributes given as {expr}

    @property
    def is_component(self) -> bool:
        """Capitalised JSX components (Note, ParamField); lowercase names are HTML."""
        return self.name[:1].isupper()

    def text_attr(self, *keys: str) -> str | None:
        """First of `keys` with a readable value (JSX expressions reduced to their text)."""
        for key in keys:
            value = self.attrs.get(key)
            if isinstance(value, str):
                text = expr_text(value) if key in self.exprs else value.strip()
                if text:
                    return text
        return None

    def flag(self, key: str) -> bool:
        """A boolean attribute: `required`, `required={true}`, `required="true"`."""
        value = self.attrs.get(key)
        if value is True:
            return True
        return isinstance(value, str) and value.strip().lower() == "true"


def _skip_string(text: str, i: int, n: int) -> int:
    """Index after the string literal starting at text[i] (a quote), or -1."""
    quote = text[i]
    j = i + 1
    while j < n:
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == quote:
            return j + 1
        j += 1
    return -1


def skip_braces(text: str, i: int, n: int) -> int:
    """Index after the `{...}` starting at text[i], honouring nesting and strings; -1."""
    depth = 0
    j = i
    while j < n:
        c = text[j]
        if c in "\"'`":
            j = _skip_string(text, j, n)
            if j < 0:
                return -1
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return -1


def expr_text(expr: str) -> str:
    """Readable text of a JSX expression: a string literal unquoted, markup stripped."""
    e = expr.strip()
    if len(e) >= 2 and e[0] == e[-1] and e[0] in "\"'`":
        return e[1:-1]
    if "<" in e:
        e = _TAG_IN_EXPR.sub(" ", e)
        return " ".join(e.split())
    return e


def _skip_ws(text: str, i: int, n: int) -> int:
    while i < n and text[i] in _WS:
        i += 1
    return i


def parse_tag(text: str, pos: int) -> Tag | None:
    """Parse the tag starting at text[pos] == '<'; None when it is not a well-formed tag."""
    n = min(len(text), pos + MAX_TAG_CHARS)
    i = pos + 1
    closing = i < n and text[i] == "/"
    if closing:
        i += 1
    if i < n and text[i] == ">":  # JSX fragment <> / </>
        return Tag("", closing, False, i + 1)
    m = _NAME.match(text, i)
    if not m:
        return None
    name, i = m.group(), m.end()
    attrs: dict[str, str | bool] = {}
    exprs: set[str] = set()
    while True:
        if i >= n or text[i] not in _WS + "/>":
            return None  # attributes must be separated by whitespace
        i = _skip_ws(text, i, n)
        if i >= n:
            return None
        if text[i] == ">":
            return Tag(name, closing, False, i + 1, attrs, frozenset(exprs))
        if text.startswith("/>", i) and not closing:
            return Tag(name, closing, True, i + 2, attrs, frozenset(exprs))
        if closing:
            return None
        if text[i] == "{":  # spread props {...rest}
            i = skip_braces(text, i, n)
            if i < 0:
                return None
            continue
        am = _ATTR_NAME.match(text, i)
        if not am:
            return None
        key, i = am.group(), am.end()
        j = _skip_ws(text, i, n)
        if j < n and text[j] == "=":
            j = _skip_ws(text, j + 1, n)
            if j >= n:
                return None
            if text[j] in "\"'":
                end = text.find(text[j], j + 1, n)
                if end < 0:
                    return None
                attrs[key], i = text[j + 1 : end], end + 1
            elif text[j] == "{":
                end = skip_braces(text, j, n)
                if end < 0:
                    return None
                attrs[key], i = text[j + 1 : end - 1].strip(), end
                exprs.add(key)
            else:
                return None
        else:
            attrs[key] = True


def param_line(tag: Tag) -> str:
    """`- **name** (type, default X, required): ` for a ParamField/ResponseField."""
    name = tag.text_attr("path", "query", "body", "header", "name", "param", "field") or ""
    details: list[str] = []
    type_ = tag.text_attr("type")
    if type_:
        details.append(type_)
    if "default" in tag.attrs:
        default = tag.text_attr("default")
        details.append(f"default {default}" if default is not None else 'default ""')
    for flag in ("required", "optional", "deprecated"):
        if tag.flag(flag):
            details.append(flag)
    head = f"**{name}**" if name else "**(unnamed)**"
    if details:
        head += f" ({', '.join(details)})"
    return f"- {head}: "
