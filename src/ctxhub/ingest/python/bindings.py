"""What a module binds at import time beyond its definitions and named imports, recorded
on its module chunk so a lookup can tell `pkg.name` that exists from one that does not:

- `star_imports`: the framework modules it star-imports (`from attr.validators import *`);
  each gives it the public names of that module (`all` there, else its public names).
- `all`: its literal `__all__`, private module or not (a star import of it reads it).
- `lazy`: names a PEP 562 lazy-import table binds (`lazy_import(globals(),
  aliases={"connect": ".asyncio.client"})`): {name: the module or object path, absolute}.
- `constants`: public module-level values (`HTTP_404_NOT_FOUND = 404`) listed in
  `__all__` or spelled UPPER_CASE, public literals and sentinels of any case in a module
  without `__all__` (`Everyone = 'system.Everyone'`), and public type aliases and typing
  names (`StructureHook = Callable[[Any, type], Any]`, `T = TypeVar("T")`), with their
  lines, so a lookup can show them.
"""

from __future__ import annotations

import ast
import re

from ctxhub.ingest.python.callgraph import ScopeContext, scope_statements
from ctxhub.ingest.python.exports import declared_all
from ctxhub.ingest.python.modules import resolve_relative

#: Constants recorded per module at most (a generated table of thousands says little).
MAX_CONSTANTS = 500

#: A table value naming a module or object: `.asyncio.client`, `pkg.mod`, `pkg.mod:Name`.
_MODULE_PATH = re.compile(r"^(\.+|\.*[A-Za-z_]\w*(\.[A-Za-z_]\w*)*)(:[A-Za-z_][\w.]*)?$")
_UPPER = re.compile(r"^[A-Z][A-Z0-9_]*$")


def module_bindings(
    tree: ast.Module, module: str, is_package: bool, ctx: ScopeContext
) -> dict[str, object]:
    """The module chunk's `extra` entries listed in the module docstring (empty ones left
    out)."""
    out: dict[str, object] = {}
    stars = [m for m in ctx.imports.star_modules if ctx.is_internal(m)]
    if stars:
        out["star_imports"] = list(dict.fromkeys(stars))
    names = declared_all(tree)
    if names is not None:
        out["all"] = list(dict.fromkeys(names))
    lazy = lazy_tables(tree, module, is_package)
    if lazy:
        out["lazy"] = lazy
    constants = module_constants(tree, set(names or ()), has_all=names is not None)
    if constants:
        out["constants"] = constants
    return out


def lazy_tables(tree: ast.Module, module: str, is_package: bool) -> dict[str, str]:
    """{name: absolute path} from module-level calls that pass dict literals mapping names
    to module paths, in a module that loads names lazily: it defines or assigns
    `__getattr__`, or the call hands it `globals()` to install one. A relative path is
    read as a relative import of the module would be."""
    if not _loads_lazily(tree):
        return {}
    out: dict[str, str] = {}
    for stmt in scope_statements(tree.body):
        call = stmt.value if isinstance(stmt, ast.Expr | ast.Assign) else None
        if not isinstance(call, ast.Call):
            continue
        hands_globals = any(_is_globals(a) for a in call.args)
        if not hands_globals and not _defines_getattr(tree):
            continue
        tables = [a for a in call.args if isinstance(a, ast.Dict)]
        tables += [k.value for k in call.keywords if isinstance(k.value, ast.Dict)]
        for table in tables:
            out.update(_table_entries(table, module, is_package))
    return out


def _table_entries(table: ast.Dict, module: str, is_package: bool) -> dict[str, str]:
    entries: dict[str, str] = {}
    for key, value in zip(table.keys, table.values, strict=False):
        if not (
            isinstance(key, ast.Constant)
            and isinstance(key.value, str)
            and key.value.isidentifier()
            and isinstance(value, ast.Constant)
            and isinstance(value.value, str)
            and _MODULE_PATH.match(value.value)
        ):
            return {}  # not a name -> module table: none of it counts
        path, _, attr = value.value.partition(":")
        level = len(path) - len(path.lstrip("."))
        base = resolve_relative(module, is_package, level, path[level:] or None)
        if base is None:
            continue
        entries[key.value] = f"{base}.{attr}" if attr else base
    return entries


def _loads_lazily(tree: ast.Module) -> bool:
    return _defines_getattr(tree) or any(
        isinstance(n, ast.Call) and any(_is_globals(a) for a in n.args)
        for s in scope_statements(tree.body)
        for n in ast.walk(s)
        if isinstance(s, ast.Expr | ast.Assign)
    )


def _defines_getattr(tree: ast.Module) -> bool:
    for stmt in scope_statements(tree.body):
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name == "__getattr__":
            return True
        if isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__getattr__" for t in stmt.targets
        ):
            return True
    return False


def _is_globals(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "globals"
        and not node.args
    )


#: Calls that make a typing name: `T = TypeVar("T")`, `UserId = NewType("UserId", int)`
_TYPING_FACTORIES = frozenset({"TypeVar", "NewType", "ParamSpec", "TypeVarTuple"})


def _is_type_alias(stmt: ast.Assign | ast.AnnAssign) -> bool:
    """`Hook = Callable[[Any], T]`, `Hook: TypeAlias = ...`, `T = TypeVar("T")`: a name
    that appears in signatures, which an agent looks up as it looks up a class."""
    if isinstance(stmt, ast.AnnAssign):
        return ast.unparse(stmt.annotation).rsplit(".", 1)[-1] == "TypeAlias"
    value = stmt.value
    if isinstance(value, ast.Call):
        func = value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return name in _TYPING_FACTORIES
    # a subscripted generic: `Callable[...]`, `typing.Union[...]`, `Mapping[str, Hook]`
    if not isinstance(value, ast.Subscript):
        return False
    generic = value.value
    if not isinstance(generic, (ast.Name, ast.Attribute)):
        return False
    last = ast.unparse(generic).rsplit(".", 1)[-1]
    return last[:1].isupper() and not last.isupper()  # `TABLE["x"]` is a value


def module_constants(
    tree: ast.Module, declared: set[str], has_all: bool = False
) -> dict[str, list[int]]:
    """{name: [first line, last line]} of module-level assignments to a name in
    `__all__`, a public UPPER_CASE name, a public type alias or typing name
    (`_is_type_alias`), or, whatever its case, a public name bound to a literal or a
    sentinel (`Everyone = 'system.Everyone'`, `MISSING = object()`: `_is_literal`)
    where the module has no `__all__` to say what is public (the last binding wins, as
    at import time). A name a function declares `global` is a variable, not a constant."""
    rebound = {n for node in ast.walk(tree) if isinstance(node, ast.Global) for n in node.names}
    out: dict[str, list[int]] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            targets = [t.id for t in stmt.targets if isinstance(t, ast.Name)]
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets = [stmt.target.id] if isinstance(stmt.target, ast.Name) else []
        else:
            continue
        for name in targets:
            public = not name.startswith("_")
            if (
                name in declared
                or (public and _UPPER.match(name))
                or (public and _is_type_alias(stmt))
                or (public and not has_all and name not in rebound and _is_literal(stmt.value))
            ):
                out[name] = [stmt.lineno, stmt.end_lineno or stmt.lineno]
        if len(out) >= MAX_CONSTANTS:
            break
    return out


def _is_literal(value: ast.expr | None) -> bool:
    """A str, bytes or number (signed too), a tuple of such, or a bare `object()`
    sentinel; `None` and containers that are built to be changed say nothing."""
    if isinstance(value, ast.Constant):
        return value.value is not None and not isinstance(value.value, type(...))
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub | ast.UAdd):
        return isinstance(value.operand, ast.Constant) and isinstance(
            value.operand.value, int | float | complex
        )
    if isinstance(value, ast.Tuple):
        return bool(value.elts) and all(_is_literal(e) for e in value.elts)
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "object"
        and not value.args
        and not value.keywords
    )
