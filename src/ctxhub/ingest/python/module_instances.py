"""The classes of a module's module-level instances, for calls made through them.

`_factory = ArrowFactory()` at module level makes `_factory.get()` in any function of
the module (and in a module that imports `_factory`) a call of `ArrowFactory.get`. A
module-level name holds a class when the module states it the way a function states a
local's (`values.py`): an annotation (`client: Client = make()`, `Optional[...]`
unwrapped), else a constructor call or a call of a function the module annotates
(`-> Client`), `None` saying nothing (`maybe = None` before `maybe = Client()`).

Conservative: an annotation decides when there is one; otherwise every module-level
binding must name the same class. A name also bound another way at module level (an
import, a def or class, a `for` or `with` target, augmented assignment, a tuple target
of unknown parts) or declared `global` by any function of the module (which may rebind
it) holds no known class.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from ctxhub.ingest.python.callgraph import NESTED_SCOPES, scope_statements
from ctxhub.ingest.python.class_names import UNKNOWN, ClassNames
from ctxhub.ingest.python.returns import Returned
from ctxhub.ingest.python.values import ValueScope

if TYPE_CHECKING:
    from ctxhub.ingest.python.package_types import PackageTypes


def module_instances(
    tree: ast.Module,
    classes: ClassNames,
    module_returns: Mapping[str, Returned],
    types: PackageTypes | None = None,
) -> dict[str, str]:
    """Module-level name -> the qualified class it holds, for the names that hold one."""
    values = ValueScope(classes, None, {}, module_returns, types, {})
    declared: dict[str, set[str]] = {}
    bound: dict[str, set[str | None]] = {}
    for stmt in scope_statements(tree.body):
        for name, cls in _bindings(stmt, values, classes):
            if isinstance(stmt, ast.AnnAssign) and cls:
                declared.setdefault(name, set()).add(cls)
            else:
                bound.setdefault(name, set()).add(cls)
    rebound = {n for node in ast.walk(tree) if isinstance(node, ast.Global) for n in node.names}
    out: dict[str, str] = {}
    for name in (declared.keys() | bound.keys()) - rebound:
        # `None` says nothing
        found = declared.get(name) or {t for t in bound[name] if t is not None}
        if len(found) == 1 and UNKNOWN not in found:
            out[name] = next(iter(found))
    return out


def _bindings(
    stmt: ast.stmt, values: ValueScope, classes: ClassNames
) -> Iterator[tuple[str, str | None]]:
    """(name, class it is bound to: "" unknown, None says nothing) for each name `stmt`
    binds at module level (a compound statement's header only: its blocks are
    statements of their own)."""
    if isinstance(stmt, ast.Assign):
        for target in stmt.targets:
            yield from _assigned(target, stmt.value, values)
        return
    if isinstance(stmt, ast.AnnAssign):
        if isinstance(stmt.target, ast.Name):
            annotated = classes.annotation(stmt.annotation)
            if annotated:
                yield stmt.target.id, annotated
            elif stmt.value is not None:
                yield stmt.target.id, values.value(stmt.value)
        return
    if isinstance(stmt, NESTED_SCOPES) and not isinstance(stmt, ast.Lambda):
        yield stmt.name, UNKNOWN
        return
    if isinstance(stmt, ast.Import | ast.ImportFrom):
        for alias in stmt.names:
            yield (alias.asname or alias.name).split(".", 1)[0], UNKNOWN
        return
    for field, value in ast.iter_fields(stmt):
        if field in ("body", "orelse", "finalbody", "handlers", "cases"):
            continue
        for part in value if isinstance(value, list) else [value]:
            if isinstance(part, ast.AST):
                for node in ast.walk(part):
                    if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                        yield node.id, UNKNOWN  # for/with targets, `+=`, `:=`, `del`


def _assigned(
    target: ast.expr, value: ast.expr, values: ValueScope
) -> Iterator[tuple[str, str | None]]:
    if isinstance(target, ast.Name):
        yield target.id, values.value(value)
        return
    elts = target.elts if isinstance(target, ast.Tuple | ast.List) else []
    names = [e for e in elts if isinstance(e, ast.Name)]
    if elts and len(names) == len(elts):
        for i, elt in enumerate(names):
            yield elt.id, values.value(value, i, len(names))
        return
    for node in ast.walk(target):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            yield node.id, UNKNOWN
