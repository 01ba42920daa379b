"""The API a module declares: the names in its `__all__`, and for a package's
`__init__` without one, what it imports from its own framework (but not a name its own
code uses that it imports from a public module: `pkg/config/__init__.py` importing
`pkg.router.Router` to build one re-exports nothing; a name from a private module stays
a re-export, the package being its only public home). Each is recorded as the
qualified name of the definition (`litestar.response.streaming.Stream` for the
`Stream` that `litestar/response/__init__.py` re-exports), so a search can tell the
classes a user is meant to import from the internals beside them.

A private module (`pkg._multipart`, `pkg._internal.cors`) declares nothing a user
imports: its `__all__` only scopes its star imports, so it records no exports. What it
defines becomes API when a public module re-exports it."""

from __future__ import annotations

import ast

from ctxhub.core.identifiers import is_private_path
from ctxhub.ingest.python.callgraph import ScopeContext


def declared_all(tree: ast.Module) -> list[str] | None:
    """The string names of a module-level `__all__` (assigned or extended with `+=`);
    None when the module has none."""
    names: list[str] | None = None
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if not any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                continue
            if not isinstance(stmt.value, ast.List | ast.Tuple):
                continue
            found = [
                e.value
                for e in stmt.value.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)
            ]
            names = found if names is None or not isinstance(stmt, ast.AugAssign) else names + found
    return names


def module_exports(tree: ast.Module, module: str, ctx: ScopeContext) -> list[str]:
    """Qualified names of what `module` declares as its API (see the module docstring)."""
    if is_private_path(module):
        return []
    imports = ctx.imports
    out: dict[str, None] = {}
    names = declared_all(tree)
    if names is not None:
        for name in names:
            target = imports.bindings.get(name)
            if name in ctx.module_names or target is None:
                out.setdefault(f"{module}.{name}", None)  # defined here (or a fallback)
            if target is not None and ctx.is_internal(target, name):
                out.setdefault(target, None)
    elif imports.is_package:
        used = names_used(tree)
        for bound, target in imports.bindings.items():
            if bound.startswith("_") or bound in imports.modules:
                continue  # private names and submodules are not the package's API
            if bound in used and not is_private_path(target.rsplit(".", 1)[0]):
                continue  # imported for its own code from a module users import anyway
            if ctx.is_internal(target, bound):
                out.setdefault(target, None)
    return list(out)


def names_used(tree: ast.Module) -> set[str]:
    """The names a module's own code reads (calls, bases, decorators, annotations,
    defaults): an import is there to serve them, not only to be re-exported. A
    module-level `name = name` (pyramid's `not_ = not_  # api`) marks a re-export: no use."""
    marks = {
        id(stmt.value)
        for stmt in tree.body
        if isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and isinstance(stmt.value, ast.Name)
        and stmt.value.id == stmt.targets[0].id
    }
    return {
        node.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and id(node) not in marks
    }


def renamed_imports(module: str, ctx: ScopeContext) -> dict[str, str]:
    """{definition: the name it is bound to} for what a public module imports under
    another name (`from .impl import WebsocketImplProtocol as Websocket`): users import
    it as `pkg.Websocket`, and `pkg.WebsocketImplProtocol` does not exist. A private
    name counts too (`from ._logger import Logger as _Logger` binds no `pkg.Logger`:
    a stub's `Logger` is then one Python cannot import)."""
    if is_private_path(module):
        return {}
    return {
        target: bound
        for bound, target in ctx.imports.bindings.items()
        if target.rsplit(".", 1)[-1] != bound and ctx.is_internal(target, bound)
    }


def reexports_only(tree: ast.Module) -> bool:
    """True for a module that only imports names and lists them: docstring, imports
    (under `if TYPE_CHECKING:` or `try:` too) and `__all__`, nothing else. A legacy
    namespace (`cattr/preconf/orjson.py`: one import and `__all__`) or a package's
    `__init__` that gathers its submodules: a pointer to definitions, not one."""
    imports = False
    for i, stmt in enumerate(tree.body):
        if i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # the docstring
        if isinstance(stmt, ast.Import | ast.ImportFrom):
            imports = True
        elif isinstance(stmt, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if not all(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                return False
        elif isinstance(stmt, ast.If | ast.Try):
            if not _imports_only(stmt):
                return False
            imports = True
        else:
            return False
    return imports


def _imports_only(block: ast.If | ast.Try) -> bool:
    """An `if TYPE_CHECKING:` or `try: ... except ImportError:` block of imports alone
    (`pass` allowed)."""
    inner = [s for s in ast.walk(block) if isinstance(s, ast.stmt) and s is not block]
    return all(
        isinstance(s, ast.Import | ast.ImportFrom | ast.Pass | ast.If | ast.Try) for s in inner
    )
