"""The classes a class statement's bases name, qualified as the module binds them.

`class ClientConnection(Connection)` after `from .connection import Connection` derives
from `pkg.asyncio.connection.Connection`, whatever other `Connection` classes the
package defines. Each base is read the way Python reads it when the class statement
runs: a nested class's sibling in the enclosing class body, else the module's binding
of the name's root that comes last before the class (an import, or a def, class or
assignment of the module itself), else a builtin. `Generic[T]` is `Generic`; a base
that is no name (`namedtuple(...)`, `with_metaclass(M, B)`) or a name bound some other
way (a star import, a function's local) is "" (unknown): the tools then match it only
when one indexed class has that name (tools/hierarchy.py).
"""

from __future__ import annotations

import ast
import builtins

from ctxhub.ingest.python.callgraph import ImportTable, dotted_chain, scope_statements
from ctxhub.ingest.python.definitions import Definition

_BUILTINS = frozenset(dir(builtins))


class ModuleBindings:
    """Where each module-level name is bound, in source order: line -> qualified root."""

    def __init__(self, tree: ast.Module, module: str, imports: ImportTable) -> None:
        self._module = module
        self._imports = imports
        self._bound: dict[str, list[tuple[int, bool]]] = {}  # name -> (line, imported?)
        for stmt in scope_statements(tree.body):
            for name, imported in _bound_names(stmt):
                self._bound.setdefault(name, []).append((stmt.lineno, imported))

    def qualify(self, dotted: str, line: int) -> str:
        """`dotted` as the module binds its root for a statement at `line`; "" unknown."""
        root = dotted.split(".", 1)[0]
        bindings = self._bound.get(root, [])
        before = [b for b in bindings if b[0] < line] or bindings  # a later binding: a
        if before:  # class in a function may name what the module binds after it
            imported = before[-1][1]
            if imported and root in self._imports.bindings:
                return self._imports.qualify(dotted)
            return f"{self._module}.{dotted}"
        if root in _BUILTINS:
            return f"builtins.{dotted}"
        return ""


def _bound_names(stmt: ast.stmt) -> list[tuple[str, bool]]:
    """(name, bound by an import?) for what one module-level statement binds."""
    if isinstance(stmt, ast.Import | ast.ImportFrom):
        out = []
        for alias in stmt.names:
            if alias.name != "*":
                out.append(((alias.asname or alias.name).split(".", 1)[0], True))
        return out
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [(stmt.name, False)]
    if isinstance(stmt, ast.Assign):
        return [(n.id, False) for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return [(stmt.target.id, False)]
    return []


def qualified_bases(
    d: Definition, module: str, bindings: ModuleBindings, siblings: frozenset[str]
) -> list[str]:
    """Each base of the class `d` qualified (see the module docstring), "" when unknown.
    `siblings` are the class names defined in the enclosing class body, if any."""
    assert isinstance(d.node, ast.ClassDef)
    out: list[str] = []
    for base in d.node.bases:
        expr = base.value if isinstance(base, ast.Subscript) else base
        chain = dotted_chain(expr)
        if chain is None:
            out.append("")
            continue
        dotted = ".".join(chain)
        if d.in_class and d.parent_class and chain[0] in siblings:
            out.append(f"{module}.{d.parent_class}.{dotted}")
        else:
            out.append(bindings.qualify(dotted, d.node.lineno))
    return out


def class_body_classes(defs: list[Definition]) -> dict[str, frozenset[str]]:
    """Class qualname -> the names of the classes defined directly in its body."""
    out: dict[str, set[str]] = {}
    for d in defs:
        if isinstance(d.node, ast.ClassDef) and d.in_class and d.parent_class:
            out.setdefault(d.parent_class, set()).add(d.name)
    return {k: frozenset(v) for k, v in out.items()}
