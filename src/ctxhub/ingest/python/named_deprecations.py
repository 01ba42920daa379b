"""Module-level calls that deprecate one of the module's own names by naming it:
zope.deprecation's `deprecated('old_name', 'message')` (or a tuple of names), the same
from any module named for deprecation (`deprecation.deprecated(...)`), or a function
called `deprecated`, `deprecate` or `moved`. The function lives in a dependency, so
nothing in the package shows that it warns (`deprecation_helpers` finds helpers by their
body): the call's shape says it. The first argument must name a name the module binds
(a def, class, assignment or import), so a call that merely takes a string
(`register('handler', ...)`, `deprecated('Use X instead')`) deprecates nothing.

`for attr in ('Allow', 'Deny'): deprecated(attr, '"pkg.{attr}" ...'.format(attr=attr))`
deprecates each literal name of the loop, its message filled for that name.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from ctxhub.ingest.python.callgraph import ScopeContext, dotted_chain, scope_statements
from ctxhub.ingest.python.message_fields import fill_fields, message_text

#: the last names of functions that deprecate a name they are given
_DEPRECATING_NAMES = frozenset({"deprecated", "deprecate", "moved"})
#: keywords a message may be passed by
_MESSAGE_KEYWORDS = ("message", "msg", "reason")


@dataclass(frozen=True)
class NamedDeprecation:
    name: str  # the module's own name the call deprecates
    message: str  # "" when the call passes none
    call: ast.Call


def named_deprecations(body: list[ast.stmt], ctx: ScopeContext) -> Iterator[NamedDeprecation]:
    """Each name a module-level call deprecates (under `if`/`try`/`for` too)."""
    own = ctx.module_names | ctx.imports.bindings.keys()
    loops: dict[int, tuple[str, tuple[str, ...]]] = {}  # statement id -> (loop var, names)
    for stmt in scope_statements(body):
        if isinstance(stmt, ast.For):
            names = _literal_loop(stmt)
            if names is not None:
                for inner in scope_statements(stmt.body):
                    loops[id(inner)] = names
            continue
        if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
            continue
        call = stmt.value
        if not call.args or not _deprecating_callee(call.func, ctx):
            continue
        template = message_text(_message_argument(call)) or ""
        loop = loops.get(id(stmt))
        for name in _named(call.args[0], loop):
            if name not in own:
                continue
            filled = _fill(template, call, loop, name) if loop else template
            yield NamedDeprecation(name, filled.strip(), call)


def _deprecating_callee(func: ast.expr, ctx: ScopeContext) -> bool:
    """`deprecated` / `deprecate` / `moved` by its last name, or any function imported from
    a module named for deprecation (`from zope.deprecation import deprecated`)."""
    chain = dotted_chain(func)
    if chain is None:
        return False
    if chain[-1] in _DEPRECATING_NAMES:
        return True
    if chain[0] not in ctx.imports.bindings:
        return False
    home = ctx.imports.qualify(".".join(chain)).rpartition(".")[0]
    return any("deprecat" in part.lower() for part in home.split("."))


def _message_argument(call: ast.Call) -> ast.expr | None:
    if len(call.args) > 1:
        return call.args[1]
    return next((kw.value for kw in call.keywords if kw.arg in _MESSAGE_KEYWORDS), None)


def _literal_loop(stmt: ast.For) -> tuple[str, tuple[str, ...]] | None:
    """(loop variable, names) of `for var in ('a', 'b'):`; None for any other loop."""
    if not isinstance(stmt.target, ast.Name) or not isinstance(stmt.iter, ast.Tuple | ast.List):
        return None
    names = _strings(stmt.iter)
    return (stmt.target.id, names) if names else None


def _named(first: ast.expr, loop: tuple[str, tuple[str, ...]] | None) -> tuple[str, ...]:
    """The names a call's first argument gives: a string, a tuple or list of strings, or
    the variable of the literal loop around it."""
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return (first.value,)
    if isinstance(first, ast.Tuple | ast.List):
        return _strings(first)
    if isinstance(first, ast.Name) and loop is not None and first.id == loop[0]:
        return loop[1]
    return ()


def _strings(node: ast.Tuple | ast.List) -> tuple[str, ...]:
    values = [e.value for e in node.elts if isinstance(e, ast.Constant)]
    if len(values) != len(node.elts) or not all(isinstance(v, str) for v in values):
        return ()
    return tuple(str(v) for v in values)


def _fill(
    template: str, call: ast.Call, loop: tuple[str, tuple[str, ...]] | None, name: str
) -> str:
    """The message for one name of the loop: fields holding the loop variable, directly
    (`f"{attr}"`) or through `.format(key=attr)`, become the name."""
    if loop is None:
        return template
    names = {loop[0]: name}
    message = _message_argument(call)
    if (
        isinstance(message, ast.Call)
        and isinstance(message.func, ast.Attribute)
        and message.func.attr == "format"
    ):
        for kw in message.keywords:
            if kw.arg and isinstance(kw.value, ast.Name) and kw.value.id == loop[0]:
                names[kw.arg] = name
    return fill_fields(template, names, {})
