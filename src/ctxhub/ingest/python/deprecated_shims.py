"""Deprecated shims, recognised by their shape: a class that exists only to warn on its
way to its base (`class Old(New)`), and a module that offers nothing but deprecated names."""

from __future__ import annotations

import ast

from ctxhub.ingest.python.aliases import Alias
from ctxhub.ingest.python.deprecation_helpers import HelperView
from ctxhub.ingest.python.deprecation_warnings import deprecation_message, warn_sites
from ctxhub.ingest.python.exports import declared_all


def is_thin_warning_subclass(node: ast.ClassDef, view: HelperView) -> bool:
    """`class Old(New)` whose only content is an `__init__` that warns and calls super."""
    stmts = [s for s in node.body if not _is_doc_or_pass(s)]
    if len(stmts) != 1 or not isinstance(stmts[0], ast.FunctionDef) or stmts[0].name != "__init__":
        return False
    init = stmts[0]
    if not node.bases or not any(not c for _, _, c in warn_sites(init.body, view=view)):
        return False
    for stmt in init.body:
        if _is_doc_or_pass(stmt) or isinstance(stmt, ast.With):
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            func = stmt.value.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call):
                continue  # super().__init__(...)
            if deprecation_message(stmt.value, view) is not None:
                continue
        return False
    return True


def _is_doc_or_pass(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Pass) or (
        isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
    )


def deprecated_shim(
    tree: ast.Module, module: str, aliases: list[Alias], getattr_warns: bool
) -> tuple[str, str | None] | None:
    """(note, replacement) when a module offers nothing but deprecated names: every name
    of its `__all__` is a deprecated alias, or is served by a `__getattr__` that warns
    (as litestar's `contrib.sqlalchemy` does: `if attr_name in __all__: warn_deprecation
    (...)`). Such a module is a deprecated shim; its replacement is the package its
    names moved to (their replacements' common dotted prefix), when the aliases say."""
    offered = declared_all(tree)
    if not offered:
        return None
    old = {a.symbol: a.replacement for a in aliases}
    if all(f"{module}.{name}" in old for name in offered):
        homes = [r.split(".")[:-1] for r in (old[f"{module}.{n}"] for n in offered) if r]
        common = []
        for parts in zip(*homes, strict=False):  # the dotted parts every new home shares
            if len(set(parts)) > 1:
                break
            common.append(parts[0])
        new_home = ".".join(common) if len(common) > 1 else None
        note = "every name this module offers is a deprecated alias"
        return (f"{note} (moved to {new_home})" if new_home else note), new_home
    if getattr_warns and _getattr_serves(tree, offered):
        return "every name this module offers comes through a `__getattr__` that warns", None
    return None


def _getattr_serves(tree: ast.Module, offered: list[str]) -> bool:
    """The module's `__getattr__` answers for its `__all__` (it reads `__all__`, or names
    every offered name), and the module defines none of them itself at its top level
    (`module_level_names` would also count the names `__getattr__` binds inside)."""
    defined: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef | ast.ClassDef):
            defined.add(stmt.name)
        elif isinstance(stmt, ast.Assign):
            defined.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            defined.add(stmt.target.id)
    if defined & set(offered):
        return False
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name == "__getattr__":
            names = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)}
            strings = {n.value for n in ast.walk(stmt) if isinstance(n, ast.Constant)}
            return "__all__" in names or set(offered) <= strings
    return False
