"""Recognising deprecation warnings and reading their prose: what is deprecated, since
when, and what to use instead.

Messages, docstring directives and changelog entries say the same three things in
free text ("`Old` is deprecated since 1.3.0. Use `New` instead."). These patterns cover
the common phrasings (Sphinx roles, backticks, quotes or bare dotted names) without
knowing any framework.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ctxhub.ingest.python.callgraph import NESTED_SCOPES, dotted_chain, own_nodes

# A referenced name: a Sphinx role (:class:`~a.B`), backticked or quoted text, or a bare
# dotted identifier.
_QUOTED = r"(?::[\w:]+:)?(?P<mark>[`'\"]){1,2}~?(?P<q>[^`'\"\n]+?)[`'\"]{1,2}"
# A whole bare word (no backtracking into "Pipeca" from "Pipecat's"), not a possessive.
_BARE = r"(?P<b>[A-Za-z_][\w.]*(?:\(\))?)(?![\w'’])"
_NAME = rf"(?:{_QUOTED}|{_BARE})"
_TRIGGER = (
    r"(?:use|import\s+from|import|move[ds]?\s+to|merged\s+into"
    r"|replac(?:e|ed|ing)\s+(?:(?:it|them|this)\s+)?(?:by|with)"
    r"|in\s+fav(?:ou)?r\s+of|superseded\s+by|switch\s+to|migrate\s+to|renamed\s+to"
    r"|alias\s+(?:for|of)|prefer)"
)
# A quoted name may follow a few words ("use Pipecat's universal `LLMContext`"); a bare
# one only articles.
_REPLACEMENT = re.compile(
    rf"\b{_TRIGGER}\s+(?:(?:[\w'’-]+\s+){{0,2}}{_QUOTED}|(?:(?:the|a|an|new)\s+)*{_BARE})",
    re.IGNORECASE,
)
_KIND_WORDS = (
    r"(?:parameter|argument|arg|kwarg|field|attribute|class|function|method|module"
    r"|property|option|setting|constructor)"
)
_SUBJECT = re.compile(
    rf"^\s*(?:the\s+)?(?:(?:support|use|usage)\s+(?:for|of)\s+(?:the\s+)?)?"
    rf"(?:{_KIND_WORDS}\s+)?{_NAME}\s*(?:{_KIND_WORDS}\s+)?"
    r"(?:is|are|has\s+been|have\s+been|was|were)\s+(?:now\s+)?deprecated",
    re.IGNORECASE,
)
_VERSION = r"v?(\d+(?:\.\d+)+(?:[-.+]?\w+)*)"
_SINCE = re.compile(rf"deprecated\s+(?:since|as\s+of|in)\s+(?:version\s+)?{_VERSION}", re.I)
_SINCE_LOOSE = re.compile(rf"\bsince\s+(?:version\s+)?{_VERSION}", re.I)
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_KEYWORD_ARG = re.compile(r"^[A-Za-z_]\w*=([A-Za-z_][\w.]*)\(")
_DIRECTIVE = re.compile(
    r"^(?P<indent>[ \t]*)\.\.\s+deprecated::[ \t]*(?P<version>\S*)[ \t]*(?P<rest>.*)$"
)
_PARAM_LINE = re.compile(r"^\s*\*{0,2}(?P<name>[A-Za-z_]\w*)\s*(?:\([^)]*\))?\s*:")
_DEPRECATED_FIRST_LINE = re.compile(r"^\W*deprecated\b", re.IGNORECASE)
#: The standard deprecation categories. FutureWarning counts: libraries use it for
#: deprecations meant for end users (pandas, numpy, scikit-learn), and the note's text
#: tells a behaviour change apart anyway.
STD_CATEGORIES = frozenset({"DeprecationWarning", "FutureWarning", "PendingDeprecationWarning"})


def clean_name(raw: str) -> str | None:
    """`~pkg.Name()` -> `pkg.Name`, `settings=Cls.Settings(model=...)` -> `Cls.Settings`;
    None when what is left is not a dotted identifier."""
    name = raw.strip().lstrip("~@")
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


def find_replacement(text: str) -> str | None:
    """The name a message says to use instead, as written (not resolved)."""
    for match in _REPLACEMENT.finditer(text):
        name = _named(match)
        if name:
            return name
    return None


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


def find_since(text: str) -> str | None:
    match = _SINCE.search(text) or _SINCE_LOOSE.search(text)
    return match.group(1) if match else None


def message_text(expr: ast.expr | None) -> str | None:
    """The literal text of a warning message; f-string fields kept as `{expr}`."""
    if expr is None:
        return None
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return expr.value
    if isinstance(expr, ast.JoinedStr):
        parts = []
        for value in expr.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                parts.append(value.value)
            elif isinstance(value, ast.FormattedValue):
                parts.append("{" + ast.unparse(value.value) + "}")
        return "".join(parts)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add | ast.Mod):
        left = message_text(expr.left)
        right = message_text(expr.right) if isinstance(expr.op, ast.Add) else None
        return None if left is None else left + (right or "")
    if (  # "...".format(...)
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr == "format"
    ):
        return message_text(expr.func.value)
    return None


@dataclass(frozen=True)
class Directive:
    """One `.. deprecated::` block of a docstring (or a "Deprecated ..." first line)."""

    version: str | None
    text: str
    line_offset: int  # line of the directive within the docstring, 0-based
    nested: bool  # indented under a section entry: deprecates a part, not the object
    parameter: str | None  # the entry's parameter name, when it is one


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
        owner = _owner(lines, i, indent) if indent else None
        out.append(Directive(match.group("version") or None, text, i, indent > 0, owner))
    return out


def _owner(lines: list[str], index: int, indent: int) -> str | None:
    """The parameter whose entry an indented directive belongs to."""
    for line in reversed(lines[:index]):
        if not line.strip():
            continue
        own = len(line) - len(line.lstrip())
        if own < indent:
            match = _PARAM_LINE.match(line)
            return match.group("name") if match else None
    return None


class HelperLookup(Protocol):
    """One module's view of the package's deprecation helpers (deprecation_helpers.py)."""

    def is_category(self, chain: list[str]) -> bool: ...

    def scanned(self, chain: list[str]) -> bool: ...

    def helper(self, chain: list[str]) -> Any: ...

    def message(self, helper: Any, call: ast.Call) -> str: ...


def _is_category(expr: ast.expr | None, view: HelperLookup | None) -> bool:
    chain = dotted_chain(expr) if expr is not None else None
    if not chain:
        return False
    if chain[-1] in STD_CATEGORIES or (view is not None and view.is_category(chain)):
        return True
    # A category defined outside the indexed package: only its name can tell.
    scanned = view is not None and view.scanned(chain)
    return not scanned and chain[-1].endswith("DeprecationWarning")


def deprecation_message(call: ast.Call, view: HelperLookup | None = None) -> str | None:
    """The message of a call that emits a deprecation warning ("" if not literal):
    `warnings.warn(..., <category>)`, or a call of a deprecation helper."""
    chain = dotted_chain(call.func)
    if chain is None:
        return None
    name = chain[-1]
    first = call.args[0] if call.args else None
    if name == "warn":
        category = call.args[1] if len(call.args) > 1 else None
        for kw in call.keywords:
            if kw.arg == "category":
                category = kw.value
        if _is_category(category, view):
            return message_text(first) or ""
        if isinstance(first, ast.Call) and _is_category(first.func, view):
            # warnings.warn(DeprecationWarning("..."))
            return message_text(first.args[0] if first.args else None) or ""
        return None
    helper = view.helper(chain) if view is not None else None
    if helper is not None and view is not None:
        return view.message(helper, call)
    if view is not None and view.scanned(chain):
        return None  # the first pass read its definition: it is no deprecation helper
    # Fallback for helpers defined outside the indexed package (or a file read without
    # the first pass): only the name can tell, as in warn_deprecated(...).
    lowered = name.lower()
    if "deprecat" in lowered and "warn" in lowered:
        return message_text(first) or helper_message(call)
    return None


#: What a deprecation helper's keyword arguments usually mean, by their names.
_HELPER_SUBJECT = re.compile(r"(?:^|_)(name|symbol|what|feature|deprecated)$")
_HELPER_SINCE = re.compile(r"^(?:version|since|deprecated_in|deprecated_since)$")
_HELPER_INSTEAD = re.compile(r"^(?:alternative|replacement|instead|use|new_name|new)$")
_HELPER_NOTE = re.compile(r"^(?:info|message|msg|reason|details|extra|text)$")
_HELPER_REMOVAL = re.compile(r"^(?:removal_in|removed_in|remove_in|pending)$")


def helper_message(call: ast.Call) -> str:
    """A project helper's warning (`warn_deprecation(version="2.0",
    deprecated_name="StaticFilesConfig", kind="class", alternative="...")`) as the
    sentence the helper would build: "StaticFilesConfig is deprecated since 2.0; use ...
    instead. ..."; "" when its arguments say nothing literal."""
    return arguments_message({kw.arg: kw.value for kw in call.keywords if kw.arg})


def arguments_message(arguments: Mapping[str, ast.expr]) -> str:
    """The sentence a helper's arguments (by parameter name) say; "" if no subject."""
    fields: dict[str, str] = {}
    for arg, expr in arguments.items():
        value = message_text(expr)
        if not value:
            continue
        for key, pattern in (
            ("subject", _HELPER_SUBJECT),
            ("since", _HELPER_SINCE),
            ("instead", _HELPER_INSTEAD),
            ("note", _HELPER_NOTE),
            ("removal", _HELPER_REMOVAL),
        ):
            if pattern.search(arg.lower()):
                fields.setdefault(key, value)
    if "subject" not in fields:
        return ""
    text = f"`{fields['subject']}` is deprecated"
    if "since" in fields:
        text += f" since {fields['since']}"
    if "removal" in fields:
        text += f" and will be removed in {fields['removal']}"
    if "instead" in fields:
        text += f"; use `{fields['instead']}` instead"
    return text + (f". {fields['note']}" if "note" in fields else ".")


def warn_sites(
    body: list[ast.stmt], conditional: bool = False, view: HelperLookup | None = None
) -> Iterator[tuple[ast.Call, str, bool]]:
    """(call, message, conditional) for each deprecation warning in a scope's own body."""
    for call, message, conditional_, _ in guarded_warn_sites(body, conditional, None, view):
        yield call, message, conditional_


def guarded_warn_sites(
    body: list[ast.stmt],
    conditional: bool = False,
    guard: ast.expr | None = None,
    view: HelperLookup | None = None,
) -> Iterator[tuple[ast.Call, str, bool, ast.expr | None]]:
    """(call, message, conditional, guard) for each deprecation warning in a scope's own
    body; `guard` is the test of the innermost `if`/`while` around it (what it warns
    about, when that is one argument)."""
    for stmt in body:
        if isinstance(stmt, NESTED_SCOPES):
            continue
        blocks: list[tuple[list[ast.stmt], bool, ast.expr | None]] = []
        if isinstance(stmt, ast.If | ast.While):
            blocks = [(stmt.body, True, stmt.test), (stmt.orelse, True, None)]
        elif isinstance(stmt, ast.For | ast.AsyncFor):
            blocks = [(stmt.body, True, guard), (stmt.orelse, True, guard)]
        elif isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
            blocks = [(getattr(stmt, "body", []), conditional, guard)]
            blocks += [(h.body, True, guard) for h in getattr(stmt, "handlers", [])]
            blocks += [(getattr(stmt, "orelse", []), conditional, guard)]
            blocks += [(getattr(stmt, "finalbody", []), conditional, guard)]
        elif isinstance(stmt, ast.With | ast.AsyncWith):
            blocks = [(stmt.body, conditional, guard)]
        elif isinstance(stmt, ast.Match):
            blocks = [(c.body, True, guard) for c in stmt.cases]
        if blocks:
            for block, cond, test in blocks:
                yield from guarded_warn_sites(block, cond, test, view)
            continue
        for node in own_nodes([stmt]):
            if isinstance(node, ast.Call):
                message = deprecation_message(node, view)
                if message is not None:
                    yield node, message, conditional, guard
