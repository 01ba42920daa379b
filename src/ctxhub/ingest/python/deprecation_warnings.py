"""Recognising a deprecation warning in code: `warnings.warn` with a deprecation
category (or the default one, when its message says "deprecated"), a call of one of the
package's deprecation helpers, and the message each would emit (a literal, or the literal
a local variable was given)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import Any, Protocol

from ctxhub.ingest.python.callgraph import NESTED_SCOPES, dotted_chain, own_nodes
from ctxhub.ingest.python.deprecation_arguments import helper_message
from ctxhub.ingest.python.deprecation_text import STD_CATEGORIES
from ctxhub.ingest.python.message_fields import message_text

_SAYS_DEPRECATED = re.compile(r"\bdeprecat", re.IGNORECASE)


class HelperLookup(Protocol):
    """One module's view of the package's deprecation helpers (deprecation_helpers.py)."""

    def is_category(self, chain: list[str]) -> bool: ...

    def is_warning_class(self, chain: list[str]) -> bool: ...

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


#: A scope's string variables: name -> (line, text) of each literal assignment.
LocalTexts = dict[str, list[tuple[int, str]]]


def local_texts(body: list[ast.stmt]) -> LocalTexts:
    """The literal strings a scope assigns to plain names (`message = "..."`), so that
    `warnings.warn(message, DeprecationWarning)` reads the text it warns with."""
    out: LocalTexts = {}
    for node in own_nodes(body):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            text = message_text(node.value)
            if isinstance(target, ast.Name) and text is not None:
                out.setdefault(target.id, []).append((node.lineno, text))
    return out


def _text_of(expr: ast.expr | None, call: ast.Call, local: LocalTexts | None) -> str | None:
    """A message's literal text, or the text last assigned to the variable it names."""
    text = message_text(expr)
    if text is None and isinstance(expr, ast.Name) and local:
        before = [t for line, t in sorted(local.get(expr.id, [])) if line <= call.lineno]
        text = before[-1] if before else None
    return text


_DEFAULT_CATEGORIES = frozenset({"UserWarning", "Warning"})


def deprecation_message(
    call: ast.Call, view: HelperLookup | None = None, local: LocalTexts | None = None
) -> str | None:
    """The message of a call that emits a deprecation warning ("" if not literal):
    `warnings.warn(..., <category>)`, `warnings.warn("... is deprecated")` (the default
    UserWarning, whose message says so), or a call of a deprecation helper."""
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
            return _text_of(first, call, local) or ""
        if isinstance(first, ast.Call) and _is_category(first.func, view):
            # warnings.warn(DeprecationWarning("..."))
            return message_text(first.args[0] if first.args else None) or ""
        if chain in (["warn"], ["warnings", "warn"]) and _default_category(category, view):
            text = _text_of(first, call, local)
            return text if text and _SAYS_DEPRECATED.search(text) else None
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


def _default_category(category: ast.expr | None, view: HelperLookup | None) -> bool:
    """No category (UserWarning), a plain UserWarning/Warning, or one of the package's
    own warning classes: each counts when its message says "deprecated"."""
    chain = dotted_chain(category) if category is not None else None
    if category is None:
        return True
    if chain is None:
        return False
    return chain[-1] in _DEFAULT_CATEGORIES or (view is not None and view.is_warning_class(chain))


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
    local: LocalTexts | None = None,
) -> Iterator[tuple[ast.Call, str, bool, ast.expr | None]]:
    """(call, message, conditional, guard) for each deprecation warning in a scope's own
    body; `guard` is the test of the innermost `if`/`while` around it (what it warns
    about, when that is one argument)."""
    if local is None:
        local = local_texts(body)
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
                yield from guarded_warn_sites(block, cond, test, view, local)
            continue
        for node in own_nodes([stmt]):
            if isinstance(node, ast.Call):
                message = deprecation_message(node, view, local)
                if message is not None:
                    yield node, message, conditional, guard
