"""Module-level names made by wrapping a function in a deprecation decorator by hand:
`utcnow = deprecated("... use datetime.utcnow() directly")(datetime.datetime.utcnow)`
(the decorator's call form) or `old = deprecated(new, "use new")` (the target first).
Each is both a definition (`alias_chunks.wrapper_chunks`) and a deprecation record,
read from the decorator's arguments exactly as `@deprecated(...)` on a def is
(`deprecation_finder.DeprecationFinder.decorators`).

A deprecation decorator is recognised as on a def: by its name (`deprecated`,
`warnings.deprecated`, `typing_extensions.deprecated`, `deprecation.deprecated`, a
project's `deprecate_alias`)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from ctxhub.ingest.python.callgraph import alias_targets, dotted_chain, scope_statements
from ctxhub.ingest.python.definitions import decorator_name


def is_deprecating(decorator: ast.expr) -> bool:
    """Whether a decorator (or the callee of a wrapping call) deprecates what it wraps:
    its last name says so (`@deprecated(...)`, `@deprecation.deprecated`)."""
    return "deprecat" in decorator_name(decorator).split(".")[-1].lower()


@dataclass(frozen=True)
class DeprecatedWrapper:
    names: tuple[str, ...]  # each name the statement binds
    statement: ast.Assign | ast.AnnAssign
    #: the decorator as `@` would carry it: `deprecated("msg")` or the bare `deprecated`
    decorator: ast.expr
    #: the decorator's own arguments (what says the message, since, instead)
    arguments: tuple[ast.expr, ...]
    keywords: tuple[ast.keyword, ...]
    target: ast.expr  # the function wrapped


def deprecated_wrappers(body: list[ast.stmt]) -> Iterator[DeprecatedWrapper]:
    """The module-level statements (those under `if`/`try` too) that bind a name to a
    function wrapped by a deprecation decorator."""
    for stmt in scope_statements(body):
        if isinstance(stmt, ast.Assign):
            names = tuple(alias_targets(stmt))
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            names = () if stmt.target.id.startswith("__") else (stmt.target.id,)
        else:
            continue
        value = stmt.value
        if not names or not isinstance(value, ast.Call):
            continue
        inner = value.func
        if isinstance(inner, ast.Call):
            # `deprecated(msg)(target)`: the decorator applied by hand
            if len(value.args) == 1 and not value.keywords and _deprecator(inner.func):
                args, kws = tuple(inner.args), tuple(inner.keywords)
                yield DeprecatedWrapper(names, stmt, inner, args, kws, value.args[0])
        elif value.args and _deprecator(inner) and dotted_chain(value.args[0]) is not None:
            # `deprecated(target, msg)`: a name first; `deprecated("2.0")` alone makes a
            # decorator to use later, which deprecates nothing yet
            first, *rest = value.args
            yield DeprecatedWrapper(names, stmt, inner, tuple(rest), tuple(value.keywords), first)


def _deprecator(callee: ast.expr) -> bool:
    return dotted_chain(callee) is not None and is_deprecating(callee)
