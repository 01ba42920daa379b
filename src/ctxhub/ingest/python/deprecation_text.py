"""Recognising deprecation warnings and reading their prose: what is deprecated, since
when, and what to use instead.

Messages, docstring directives and changelog entries say the same three things in
free text ("`Old` is deprecated since 1.3.0. Use `New` instead."). These patterns cover
the common phrasings (Sphinx roles, backticks, quotes or bare dotted names) without
knowing any framework.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

# A referenced name: a Sphinx role (:class:`~a.B`), backticked or quoted text, or a bare
# dotted identifier.
_QUOTED = r"(?::[\w:]+:)?(?P<mark>[`'\"]){1,2}~?(?P<q>[^`'\"\n]+?)[`'\"]{1,2}"
# A whole bare word (no backtracking into "Pipeca" from "Pipecat's"), not a possessive.
_BARE = r"(?P<b>[A-Za-z_][\w.]*(?:\(\))?)(?![\w'’])"
_NAME = rf"(?:{_QUOTED}|{_BARE})"
_TRIGGER = (
    r"(?:use|import\s+from|import|move[ds]?\s+to|merged\s+into"
    r"|replac(?:e|ed|ing)\s+(?:(?:it|them|this)\s+)?(?:by|with)"
    r"|in\s+favou?r\s+of|superseded\s+by|switch\s+to|migrate\s+to|renamed\s+to"
    r"|(?:is\s+)?now\s+(?:named|called)"
    r"|alias\s+(?:for|of)|prefer)"
)
# A quoted name may follow a few words ("use Pipecat's universal `LLMContext`", "use the
# primitives from `pkg.contextvars`"); a bare one only articles.
_REPLACEMENT = re.compile(
    rf"\b{_TRIGGER}\s+(?:(?:[\w'’-]+\s+){{0,2}}(?:from\s+|in\s+)?{_QUOTED}"
    rf"|(?:(?:the|a|an|new)\s+)*{_BARE})",
    re.IGNORECASE,
)
_KIND_WORDS = (
    r"(?:parameter|argument|arg|kwarg|field|attribute|class|function|method|module"
    r"|property|option|setting|constructor)"
)
_SUBJECT = re.compile(
    rf"^\s*(?:the\s+)?(?:(?:entire|whole)\s+)?(?:(?:support|use|usage)\s+(?:for|of)\s+(?:the\s+)?)?"
    rf"(?:{_KIND_WORDS}\s+)?{_NAME}\s*(?:{_KIND_WORDS}\s+)?"
    r"(?:is|are|has\s+been|have\s+been|was|were)\s+(?:now\s+)?deprecated",
    re.IGNORECASE,
)
_VERSION = r"v?(\d+(?:\.\d+)+(?:[-.+]?\w+)*)"
#: "deprecated as of Pyramid 1.9": a product's name may stand before its version, never
#: Python's ("deprecated in Python 3.12" dates the language's deprecation, not the package's)
_SINCE = re.compile(
    rf"deprecated\s+(?:since|as\s+of|in)\s+(?:version\s+|(?!python\b)[A-Za-z][\w.-]*\s+)?{_VERSION}",
    re.I,
)
_SINCE_LOOSE = re.compile(rf"\bsince\s+(?:version\s+)?{_VERSION}", re.I)
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_KEYWORD_ARG = re.compile(r"^[A-Za-z_]\w*=([A-Za-z_][\w.]*)\(")
_DIRECTIVE = re.compile(
    r"^(?P<indent>[ \t]*)\.\.\s+deprecated::[ \t]*(?P<version>\S*)[ \t]*(?P<rest>.*)$"
)
# A parameter's entry: Google's `name (type):`, numpy's `name : type`, or a Sphinx field
# `:param name:` / `:param type name:` (also `:keyword name:`, `:arg name:`, ...).
_PARAM_LINE = re.compile(
    r"^\s*(?:\*{0,2}(?P<name>[A-Za-z_]\w*)\s*(?:\([^)]*\))?\s*:"
    r"|:(?:param|parameter|arg|argument|key|keyword|kwarg)\s+(?:[^:]*\s)?"
    r"\*{0,2}(?P<field>[A-Za-z_]\w*)\s*:)"
)
#: An entry that is the parameter's name alone on its line, its text indented below
#: (pyramid's `custom_predicates` then `.. deprecated:: 1.5`): a parameter's only when
#: the function takes that name (the finder checks)
_BARE_ENTRY = re.compile(r"^\s*(?P<name>[A-Za-z_]\w*)\s*$")
_SECTION_HEADER = re.compile(r"^\s*[A-Z][A-Za-z ]{0,20}:\s*$")
_DEPRECATED_FIRST_LINE = re.compile(r"^\W*deprecated\b", re.IGNORECASE)
#: The standard deprecation categories. FutureWarning counts: libraries use it for
#: deprecations meant for end users (pandas, numpy, scikit-learn), and the note's text
#: tells a behaviour change apart anyway.
STD_CATEGORIES = frozenset({"DeprecationWarning", "FutureWarning", "PendingDeprecationWarning"})


def clean_name(raw: str) -> str | None:
    """`~pkg.Name()` -> `pkg.Name`, `settings=Cls.Settings(model=...)` -> `Cls.Settings`;
    None when what is left is not a dotted identifier."""
    name = raw.strip().lstrip("~@.")  # `.Cls`: Sphinx's relative reference
    keyword = _KEYWORD_ARG.match(name)
    if keyword:
        name = keyword.group(1)
    name = name.split("(", 1)[0].rstrip(".,;:")
    return name if _IDENTIFIER.fullmatch(name) else None


def _looks_like_code(raw: str, name: str) -> bool:
    # A bare or quoted word is often prose ("use it", 'in favour of "direct" ones'); only
    # take it when it reads as code: dotted, snake_case, CamelCase or called.
    return "." in name or "_" in name or raw.endswith(")") or any(c.isupper() for c in name)


def _named(match: re.Match[str], lenient: bool = False) -> str | None:
    """The name a match captured; `lenient` takes any word (the subject position of
    "x is deprecated" says it is a name), otherwise only backticked or code-like text."""
    raw = match.group("q") if match.group("q") is not None else match.group("b")
    name = clean_name(raw) if raw else None
    if not name:
        return None
    backticked = match.group("q") is not None and match.group("mark") == "`"
    return name if lenient or backticked or _looks_like_code(raw, name) else None


def find_replacement(text: str, known: Collection[str] = ()) -> str | None:
    """The name a message says to use instead, as written (not resolved); a plain word
    quoted or emphasized there counts when it is one of `known` (the parameters of the
    function whose parameter is deprecated: 'in favor of "safe"', `*processors*`)."""
    for match in _REPLACEMENT.finditer(text):
        name = _named(match)
        if name:
            return name
    for match in _KNOWN_REPLACEMENT.finditer(text):
        if match.group("w") in known:
            return match.group("w")
    return None


_KNOWN_REPLACEMENT = re.compile(
    rf"\b{_TRIGGER}\s+(?:the\s+)?[*`'\"]{{1,2}}(?P<w>[A-Za-z_]\w*)[*`'\"]{{1,2}}", re.IGNORECASE
)


_ALTERNATIVE = re.compile(rf"\s*(?:,\s*|\s+)(?:or|and/or)\s+(?:(?:the|a|an)\s+)?{_NAME}")


def find_replacements(text: str) -> list[str]:
    """Every name a message offers instead, in order: "use `a` or `b`" gives both; at
    least the one `find_replacement` gives when there is one."""
    for match in _REPLACEMENT.finditer(text):
        name = _named(match)
        if not name:
            continue
        names = [name]
        at = match.end()
        while (more := _ALTERNATIVE.match(text, at)) is not None and (other := _named(more)):
            names.append(other)
            at = more.end()
        return list(dict.fromkeys(names))
    return []


def find_subject(text: str) -> str | None:
    """What a message says is deprecated, when it opens with it."""
    match = _SUBJECT.match(text)
    if not match:
        return None
    raw = match.group("q") or match.group("b") or ""
    if "(" in raw and not raw.rstrip().endswith("()"):
        return None  # `Cls(param=...)` is deprecated: a parameter, not Cls itself
    return _named(match, lenient=True)


_SELF_REFERENCE = re.compile(
    r"\bthis\s+(?:function|method|class|module|property|alias|helper|api)\s+(?:is|has\s+been)\s+"
    r"(?:now\s+)?deprecated",
    re.IGNORECASE,
)


def says_self_deprecated(text: str) -> bool:
    """ "This function is deprecated ..." and the like."""
    return bool(_SELF_REFERENCE.search(text))


def stated_since(text: str) -> str | None:
    """The version a text says something was deprecated in ("Deprecated since version
    0.4.1: ..."), never a version it merely mentions ("since 2.0 it accepts ...")."""
    match = _SINCE.search(text)
    return match.group(1) if match else None


def find_since(text: str) -> str | None:
    match = _SINCE.search(text) or _SINCE_LOOSE.search(text)
    return match.group(1) if match else None


@dataclass(frozen=True)
class Directive:
    """One `.. deprecated::` block of a docstring (or a "Deprecated ..." first line)."""

    version: str | None
    text: str
    line_offset: int  # line of the directive within the docstring, 0-based
    nested: bool  # indented under a section entry: deprecates a part, not the object
    parameter: str | None  # the entry's parameter name, when it is one
    #: the entry is a name alone on its line: a parameter's only if the function takes it
    bare_entry: bool = False


def docstring_directives(doc: str) -> list[Directive]:
    """Deprecation notes of a cleaned docstring (`ast.get_docstring(clean=True)`).

    A directive at the docstring's own indentation deprecates the documented object;
    one indented under an `Args:`/`Parameters:` entry deprecates that parameter only.
    """
    lines = doc.splitlines()
    out: list[Directive] = []
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    # A summary line "Deprecated ..." counts only when no top-level directive says more.
    top_directive = any((m := _DIRECTIVE.match(line)) and not m.group("indent") for line in lines)
    if first is not None and not top_directive and _DEPRECATED_FIRST_LINE.match(lines[first]):
        para = []
        for line in lines[first:]:
            if not line.strip():
                break
            para.append(line.strip())
        out.append(Directive(find_since(" ".join(para)), " ".join(para), first, False, None))
    if not out and not top_directive:
        out.extend(_self_deprecation_paragraphs(lines))
    for i, line in enumerate(lines):
        match = _DIRECTIVE.match(line)
        if not match:
            continue
        indent = len(match.group("indent").expandtabs())
        body = [match.group("rest").strip()] if match.group("rest").strip() else []
        for follow in lines[i + 1 :]:
            if follow.strip() and len(follow) - len(follow.lstrip()) <= indent:
                break
            body.append(follow.strip())
        text = " ".join(b for b in body if b)
        owner, bare = _owner(lines, i, indent) if indent else (None, False)
        version = match.group("version") or None
        out.append(Directive(version, text, i, indent > 0, owner, bare))
    return out


def _self_deprecation_paragraphs(lines: list[str]) -> list[Directive]:
    """A paragraph anywhere in the docstring (a `Warn:` section's body too) that says
    "This class is deprecated ...": a note about the documented object itself."""
    out: list[Directive] = []
    start: int | None = None
    for i, line in enumerate([*lines, ""]):
        if line.strip() and start is None:
            start = i
        elif not line.strip() and start is not None:
            if _SECTION_HEADER.match(lines[start]):
                start += 1  # "Warn:" / "Warning:" above the paragraph
            text = " ".join(s.strip() for s in lines[start:i])
            if says_self_deprecated(text):
                out.append(Directive(find_since(text), text, start, False, None))
            start = None
    return out[:1]


def _owner(lines: list[str], index: int, indent: int) -> tuple[str | None, bool]:
    """The parameter whose entry an indented directive belongs to, and whether that
    entry is only a name on its line (`_BARE_ENTRY`)."""
    for line in reversed(lines[:index]):
        if not line.strip():
            continue
        own = len(line) - len(line.lstrip())
        if own < indent:
            match = _PARAM_LINE.match(line)
            if match:
                return match.group("name") or match.group("field"), False
            bare = _BARE_ENTRY.match(line)
            return (bare.group("name"), True) if bare else (None, False)
    return None, False


def parameter_entry(doc: str, name: str) -> str | None:
    """The text of parameter `name`'s entry in a cleaned docstring (Google's `name
    (type):`, numpy's `name : type`, a Sphinx `:param name:` field, with the lines
    indented under it); directive lines are no part of what the entry says."""
    lines = doc.splitlines()
    for i, line in enumerate(lines):
        match = _PARAM_LINE.match(line)
        if match is None or (match.group("name") or match.group("field")) != name:
            continue
        indent = len(line) - len(line.lstrip())
        body = [line[match.end() :].strip()]
        for follow in lines[i + 1 :]:
            if follow.strip() and len(follow) - len(follow.lstrip()) <= indent:
                break
            body.append("" if _ANY_DIRECTIVE.match(follow) else follow.strip())
        return "\n".join(body).strip() or None
    return None


_ANY_DIRECTIVE = re.compile(r"^\s*\.\.\s+[\w:-]+::")
