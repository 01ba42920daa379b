"""Which of a package's functions warn with a deprecation category, and with what words:
the first level of its deprecation helpers (`deprecation_helpers.find_helpers` adds the
functions that pass their parameters on to one).

A helper's message is built from its parameters (`warns_itself`); a function whose
warning text is fixed is deprecated itself, unless it takes nothing, its words do not
name it, and the package calls it from several places (`fixed_helpers`).
"""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Iterator
from dataclasses import dataclass

from ctxhub.ingest.python.callgraph import dotted_chain, own_nodes
from ctxhub.ingest.python.deprecation_text import says_self_deprecated
from ctxhub.ingest.python.helper_scan import ScannedFunction, ScannedModule, qualify
from ctxhub.ingest.python.message_fields import message_text
from ctxhub.ingest.python.warning_classes import is_category

#: A field of a helper's template that one parameter fills: `{name}`, `{name!r}`, `{v:>4}`
TEMPLATE_FIELD = re.compile(r"\{([A-Za-z_]\w*)(?:![rsa])?(?::[^{}]*)?\}")
#: Call sites that make a parameterless function with a fixed warning a helper: one
#: caller may be a deprecated function still used once; several are infrastructure.
_FIXED_CALLERS = 2


@dataclass(frozen=True)
class Helper:
    """A deprecation helper: how its call sites' arguments make the message they warn."""

    qualname: str  # pkg.mod.func, where it is defined
    params: tuple[str, ...]  # positional parameters in order, then keyword-only ones
    defaults: tuple[tuple[str, str], ...] = ()  # literal defaults (name, text)
    template: str | None = None  # the message with {param} fields, when one f-string is it
    #: (own parameter, the inner helper's parameter it is passed as): a wrapper's
    #: `thing` read as the inner `what`
    renames: tuple[tuple[str, str], ...] = ()
    #: it takes nothing and always warns `template`, word for word
    fixed: bool = False


def _category_candidates(
    expr: ast.expr, fn: ScannedFunction, m: ScannedModule, depth: int = 0
) -> list[str]:
    """Dotted names a category expression may be: `cls if pending else OtherCls`,
    a local assigned one of them, or an instance `Cls("...")`."""
    if isinstance(expr, ast.IfExp):
        return _category_candidates(expr.body, fn, m, depth) + _category_candidates(
            expr.orelse, fn, m, depth
        )
    if isinstance(expr, ast.BoolOp):
        return [c for v in expr.values for c in _category_candidates(v, fn, m, depth)]
    if isinstance(expr, ast.Call):
        return _category_candidates(expr.func, fn, m, depth)
    if isinstance(expr, ast.Name) and expr.id in fn.locals_ and depth < 2:
        return [c for v in fn.locals_[expr.id] for c in _category_candidates(v, fn, m, depth + 1)]
    chain = dotted_chain(expr)
    if chain is None:
        return []
    if len(chain) == 1 and chain[0] in dir(builtins):
        return chain
    return [qualify(chain, m.imports, m.module, m.names)]


def warn_parts(call: ast.Call) -> tuple[ast.expr | None, ast.expr | None]:
    """(message, category) of a `warn(...)` call."""
    message = call.args[0] if call.args else None
    category = call.args[1] if len(call.args) > 1 else None
    for kw in call.keywords:
        if kw.arg == "message":
            message = kw.value
        elif kw.arg == "category":
            category = kw.value
    if category is None and isinstance(message, ast.Call):  # warn(Category("..."))
        category = message.func
        message = message.args[0] if message.args else None
    return message, category


def _names_itself(message: ast.expr, fn: ScannedFunction) -> bool:
    """Whether a warning's literal words name the function that emits it: then it tells
    of that function, whatever argument it also shows, and the function is no helper."""
    text = message_text(message)
    if text is None:
        return False
    words = TEMPLATE_FIELD.sub(" ", text)
    name = fn.qualname.rsplit(".", 1)[-1]
    return re.search(rf"(?<![\w.]){re.escape(name)}\b", words) is not None


def _warn_calls(fn: ScannedFunction) -> Iterator[tuple[ast.expr | None, ast.expr | None]]:
    """(message, category) of each `warn(...)` / `warn_explicit(...)` in the function's
    own body (not its nested defs)."""
    for node in own_nodes(fn.node.body):
        if isinstance(node, ast.Call):
            chain = dotted_chain(node.func)
            if chain and chain[-1] in ("warn", "warn_explicit"):
                yield warn_parts(node)


def warns_itself(fn: ScannedFunction, m: ScannedModule, categories: set[str]) -> Helper | None:
    for message, category in _warn_calls(fn):
        if category is None or message is None or not fn.tainted(message):
            continue  # a fixed text: the function itself is deprecated, it is no helper
        if _names_itself(message, fn):
            continue  # f"old_api({x!r}) is deprecated": about itself, its argument shown
        if any(is_category(c, categories) for c in _category_candidates(category, fn, m)):
            template = message_text(message)
            if template is None and isinstance(message, ast.Name) and message.id in fn.params:
                template = "{" + message.id + "}"  # warn(message, ...): the caller's words
            if template is not None and not TEMPLATE_FIELD.search(template):
                template = None
            return Helper(fn.qualname, fn.params, fn.defaults, template)
    return None


def _fixed_warning(fn: ScannedFunction, m: ScannedModule, categories: set[str]) -> str | None:
    """The words a function that takes nothing always warns with, when they do not say
    it is the one deprecated (its own name, "this function is deprecated")."""
    if fn.params:
        return None
    for message, category in _warn_calls(fn):
        text = message_text(message)
        if category is None or message is None or not text or _names_itself(message, fn):
            continue
        if says_self_deprecated(text):
            continue
        if any(is_category(c, categories) for c in _category_candidates(category, fn, m)):
            return text
    return None


def fixed_helpers(
    functions: list[tuple[ScannedFunction, ScannedModule]],
    modules: list[ScannedModule],
    categories: set[str],
) -> dict[str, Helper]:
    """Parameterless functions with a fixed warning that the package calls from
    `_FIXED_CALLERS` places or more: helpers whose message is that warning."""
    fixed = {
        fn.qualname: text
        for fn, m in functions
        if (text := _fixed_warning(fn, m, categories)) is not None
    }
    if not fixed:
        return {}
    calls: dict[str, int] = dict.fromkeys(fixed, 0)
    for m in modules:
        for node in (n for stmt in m.body for n in ast.walk(stmt)):
            chain = dotted_chain(node.func) if isinstance(node, ast.Call) else None
            target = qualify(chain, m.imports, m.module, m.names) if chain else None
            if target in calls:
                calls[target] += 1
    return {
        name: Helper(name, (), (), text, fixed=True)
        for name, text in fixed.items()
        if calls[name] >= _FIXED_CALLERS
    }
