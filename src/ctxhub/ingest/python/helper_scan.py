"""One module as the deprecation-helper pass (`deprecation_helpers.scan_package`) reads
it: its module-level functions, each with its parameters and the locals that carry their
values, its classes' bases as dotted names, and its imports."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ctxhub.ingest.python.callgraph import (
    ImportTable,
    build_import_table,
    dotted_chain,
    module_level_names,
    own_nodes,
    scope_statements,
)
from ctxhub.ingest.python.message_fields import message_text

#: Module-level functions Python itself calls (PEP 562): never a helper's call site.
_MODULE_HOOKS = frozenset({"__getattr__", "__dir__"})


@dataclass
class ScannedFunction:
    qualname: str
    node: ast.FunctionDef | ast.AsyncFunctionDef
    params: tuple[str, ...]
    defaults: tuple[tuple[str, str], ...]
    tainted: Callable[[ast.expr], bool]  # does an expression depend on the parameters
    locals_: dict[str, list[ast.expr]]


@dataclass
class ScannedModule:
    module: str
    imports: ImportTable
    names: frozenset[str]
    functions: list[ScannedFunction]
    classes: dict[str, list[str]]  # pkg.mod.Cls -> its bases as dotted names
    body: list[ast.stmt]  # its top-level statements (a warning there fires on import)


def qualify(chain: list[str], imports: ImportTable, module: str, names: frozenset[str]) -> str:
    """A dotted chain as written in `module`, as an absolute name where its imports or
    its own top-level names tell."""
    if chain[0] in imports.bindings:
        # `_deprecate.helper(...)` with `from pkg import _deprecate`: pkg._deprecate.helper
        return imports.qualify(".".join(chain))
    if chain[0] in names:
        return ".".join([module, *chain])
    return ".".join(chain)


def _parameters(
    node: ast.FunctionDef | ast.AsyncFunctionDef,
) -> tuple[list[str], list[tuple[str, str]]]:
    """Parameter names in call order, and the literal defaults."""
    a = node.args
    positional = [p.arg for p in [*a.posonlyargs, *a.args]]
    params = positional + [p.arg for p in a.kwonlyargs]
    pairs = list(zip(positional[len(positional) - len(a.defaults) :], a.defaults, strict=True))
    pairs += [(p.arg, d) for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d]
    defaults = [(name, text) for name, d in pairs if (text := message_text(d)) is not None]
    return params, defaults


def _function(qualname: str, node: ast.FunctionDef | ast.AsyncFunctionDef) -> ScannedFunction:
    params, defaults = _parameters(node)
    # Which local names carry a parameter's value: assigned from one, or filled by a
    # method call (`parts.append(f"... {name}")`); followed to a fixed point.
    sources: dict[str, list[ast.expr]] = {}
    for n in own_nodes(node.body):
        if isinstance(n, ast.Assign | ast.AugAssign | ast.AnnAssign) and n.value is not None:
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            for t in targets:
                for bound in ast.walk(t):
                    if isinstance(bound, ast.Name):
                        sources.setdefault(bound.id, []).append(n.value)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            owner = n.func.value
            if isinstance(owner, ast.Name):
                sources.setdefault(owner.id, []).extend([*n.args, *(k.value for k in n.keywords)])
    carrying = set(params) - {"self", "cls"}
    changed = True
    while changed:
        changed = False
        for local, values in sources.items():
            if local not in carrying and any(_uses(v, carrying) for v in values):
                carrying.add(local)
                changed = True

    def tainted(expr: ast.expr) -> bool:
        return _uses(expr, carrying)

    return ScannedFunction(qualname, node, tuple(params), tuple(defaults), tainted, sources)


def _uses(expr: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(expr))


def scan_module(
    tree: ast.Module, module: str, is_package: bool, known: Iterable[str]
) -> ScannedModule:
    imports = build_import_table(tree, module, is_package, known)
    names = module_level_names(tree)
    functions: list[ScannedFunction] = []
    classes: dict[str, list[str]] = {}
    for stmt in scope_statements(tree.body):
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            if stmt.name not in _MODULE_HOOKS:
                # a dunder of the module protocol is never called by name; any other
                # (`__deprecated__(msg)`) may be a helper like any function
                functions.append(_function(f"{module}.{stmt.name}", stmt))
        elif isinstance(stmt, ast.ClassDef):
            bases = [dotted_chain(b) for b in stmt.bases]
            classes[f"{module}.{stmt.name}"] = [
                qualify(c, imports, module, names) for c in bases if c
            ]
    return ScannedModule(module, imports, names, functions, classes, tree.body)
