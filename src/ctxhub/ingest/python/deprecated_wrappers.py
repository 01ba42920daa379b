"""Module-level names made by wrapping a function in a deprecation decorator by hand:
`utcnow = deprecated("... use datetime.utcnow() directly")(datetime.datetime.utcnow)`
(the decorator's call form) or `old = deprecated(new, "use new")` (the target first).
Each is both a definition (`alias_chunks.wrapper_chunks`) and a deprecation record,
read from the decorator's arguments exactly as `@deprecated(...)` on a def is
(`deprecation_finder.DeprecationFinder.decorators`).

A deprecation decorator is recognised as on a def: by its name (`deprecated`,
`warnings.deprecated`, `typing_extensions.deprecated`, `deprecation.deprecated`, a
project's `deprecate_alias`). What it wraps must be a function: a def or class of the
module, an imported name or an attribute chain (`datetime.datetime.utcnow`), none of
them a constant (`MSG`, `__name__`, a literal). So `my_deprecated = deprecated(MSG)`
(a decorator factory with a message) and `warn = make_deprecation_warner(__name__)` (a
helper that merely has "deprecat" in its name) wrap nothing."""

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
    functions = _module_functions(body)
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
            target = value.args[0] if len(value.args) == 1 and not value.keywords else None
            if target is not None and _deprecator(inner.func) and _function(target, functions):
                args, kws = tuple(inner.args), tuple(inner.keywords)
                yield DeprecatedWrapper(names, stmt, inner, args, kws, target)
        elif value.args and _deprecator(inner) and _function(value.args[0], functions):
            # `deprecated(target, msg)`: a function first; `deprecated("2.0")` or
            # `deprecated(MSG)` alone makes a decorator to use later, which deprecates
            # nothing yet
            first, *rest = value.args
            yield DeprecatedWrapper(names, stmt, inner, tuple(rest), tuple(value.keywords), first)


def _deprecator(callee: ast.expr) -> bool:
    return dotted_chain(callee) is not None and is_deprecating(callee)


def _module_functions(body: list[ast.stmt]) -> dict[str, bool]:
    """{name: whether it may be a function} for each name the module binds: a def, a
    class or an imported name may (unless spelled as a constant, `from .consts import
    MSG`); a name the module assigns is a value of its own (a constant, a message)."""
    bound: dict[str, bool] = {}
    for stmt in scope_statements(body):
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound[stmt.name] = True
        elif isinstance(stmt, ast.Import | ast.ImportFrom):
            for alias in stmt.names:
                name = alias.asname or alias.name.split(".")[0]
                bound.setdefault(name, not _constant_name(name))
        elif isinstance(stmt, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                for node in ast.walk(target):
                    if isinstance(node, ast.Name):
                        bound.setdefault(node.id, False)
    return bound


def _function(target: ast.expr, functions: dict[str, bool]) -> bool:
    """Whether what a deprecation decorator is given may be the function it wraps: a
    function name the module binds, or an attribute chain that ends in no constant."""
    chain = dotted_chain(target)
    if chain is None or _constant_name(chain[-1]):
        return False  # a literal, a call, `__name__`, `MSG`, `consts.MESSAGE`
    if len(chain) == 1:
        return functions.get(chain[0], False)
    return True


def _constant_name(name: str) -> bool:
    """A dunder (`__name__`, `__file__`) or a CONSTANT_CASE name: a value, no function."""
    return (name.startswith("__") and name.endswith("__")) or (
        name.isupper() and any(c.isalpha() for c in name)
    )
