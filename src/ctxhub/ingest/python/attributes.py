"""The classes of a class's attributes, where the class's own body states them.

`self.attr.method()` is a call of `Cls.method` when the class says what `attr` holds:

- a class-level annotation `attr: Cls` (dataclass fields, declared attributes), or a
  class-level `attr = Cls(...)`;
- in any of its methods, `self.attr: Cls = ...`, `self.attr = Cls(...)`, or
  `self.attr = param` where the method's parameter is annotated `param: Cls`;
- a property whose getter's return is annotated, `@property def attr(self) -> Cls`.

`Optional[Cls]`, `Cls | None` and `"Cls"` count as `Cls`; `self.attr = None` says
nothing. Annotations decide when there are any; otherwise every assignment must name the
same class. Anything else (two classes, a value of unknown type) leaves the attribute
unknown: no guessing. `Cls` resolves through the module's imports like any name
(`ImportTable`), or is a name the module binds; anything else is unknown. Attributes a
base class sets are not followed (its body is often another file's).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from ctxhub.ingest.python.callgraph import (
    ImportTable,
    ScopeContext,
    class_like,
    dotted_chain,
    own_nodes,
)
from ctxhub.ingest.python.definitions import self_parameter

#: A value or annotation whose class is not known.
_UNKNOWN = ""
#: Decorators of a getter whose return annotation is the attribute's class.
_GETTERS = frozenset({"property", "cached_property"})
#: Annotation wrappers that say something about the value, not its class.
_WRAPPERS = frozenset({"Optional", "ClassVar", "Final", "Annotated", "Required", "NotRequired"})


def attribute_types(node: ast.ClassDef, ctx: ScopeContext, module: str) -> dict[str, str]:
    """Attribute name -> qualified class, for the attributes whose class is known."""
    declared: dict[str, set[str]] = {}
    assigned: dict[str, set[str]] = {}
    classes = ClassNames(ctx.imports, ctx.module_names, module)
    for stmt in node.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            declared.setdefault(stmt.target.id, set()).add(classes.annotation(stmt.annotation))
        elif isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    found = classes.value(stmt.value, {})
                    if found is not None:
                        assigned.setdefault(target.id, set()).add(found)
        elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            if _is_getter(stmt):
                declared.setdefault(stmt.name, set()).add(classes.annotation(stmt.returns))
            _scan_method(stmt, classes, declared, assigned)
    out: dict[str, str] = {}
    for attr in declared.keys() | assigned.keys():
        types = declared.get(attr) or assigned[attr]
        if len(types) == 1 and _UNKNOWN not in types:
            out[attr] = next(iter(types))
    return out


def _is_getter(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A plain `@property` / `@cached_property` getter with a return annotation."""
    if isinstance(fn, ast.AsyncFunctionDef) or fn.returns is None:
        return False
    names = [dotted_chain(d) for d in fn.decorator_list]
    return any(n is not None and n[-1] in _GETTERS for n in names)


def _scan_method(
    fn: ast.FunctionDef | ast.AsyncFunctionDef,
    classes: ClassNames,
    declared: dict[str, set[str]],
    assigned: dict[str, set[str]],
) -> None:
    receiver = self_parameter(fn)
    if receiver is None:
        return
    nodes = list(own_nodes(fn.body))
    local = with_local_imports(classes, nodes)
    args = fn.args
    params = {
        a.arg: local.annotation(a.annotation)
        for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)
        if a.annotation is not None and a.arg != receiver
    }
    for node in nodes:
        if isinstance(node, ast.AnnAssign):
            attr = _own_attribute(node.target, receiver)
            if attr is not None:
                declared.setdefault(attr, set()).add(local.annotation(node.annotation))
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                attr = _own_attribute(target, receiver)
                if attr is not None:
                    found = local.value(node.value, params)
                    if found is not None:
                        assigned.setdefault(attr, set()).add(found)
                elif isinstance(target, ast.Tuple | ast.List):
                    # `self.a, self.b = ...`: what each holds is not stated
                    for elt in target.elts:
                        attr = _own_attribute(elt, receiver)
                        if attr is not None:
                            assigned.setdefault(attr, set()).add(_UNKNOWN)


def _own_attribute(node: ast.expr, receiver: str) -> str | None:
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == receiver
    ):
        return node.attr
    return None


def with_local_imports(classes: ClassNames, nodes: Iterable[ast.AST]) -> ClassNames:
    """`classes` with a method's own imports added (`from x import Client` inside it)."""
    table: ImportTable | None = None
    for node in nodes:
        if isinstance(node, ast.Import | ast.ImportFrom):
            table = table or classes.imports.overlay()
            table.add(node)
    return classes if table is None else ClassNames(table, classes.module_names, classes.module)


class ClassNames:
    """Names in annotations and constructor calls -> qualified classes."""

    def __init__(self, imports: ImportTable, module_names: frozenset[str], module: str) -> None:
        self.imports = imports
        self.module_names = module_names
        self.module = module

    def named(self, node: ast.expr) -> str:
        chain = dotted_chain(node)
        if not chain or not class_like(chain[-1]):
            return _UNKNOWN
        root = chain[0]
        if root in self.imports.bindings:
            qualified = self.imports.qualify(".".join(chain))
            # typing's aliases (Dict, Callable, Any) are no class whose methods are indexed
            return _UNKNOWN if qualified.startswith("typing.") else qualified
        if len(chain) == 1 and root in self.module_names:
            return f"{self.module}.{root}"
        return _UNKNOWN

    def annotation(self, node: ast.expr | None) -> str:
        if node is None:
            return _UNKNOWN
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                return self.annotation(ast.parse(node.value, mode="eval").body)
            except SyntaxError:
                return _UNKNOWN
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return self._one_of([node.left, node.right])
        if isinstance(node, ast.Subscript):
            chain = dotted_chain(node.value) or [""]
            args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if chain[-1] == "Union":
                return self._one_of(args)
            if chain[-1] in _WRAPPERS:
                return self.annotation(args[0])
            return self.named(node.value)  # `Queue[Frame]`: a generic class
        return self.named(node)

    def _one_of(self, options: list[ast.expr]) -> str:
        """The one class of a union with None (`Cls | None`), else unknown."""
        rest = [o for o in options if not (isinstance(o, ast.Constant) and o.value is None)]
        return self.annotation(rest[0]) if len(rest) == 1 else _UNKNOWN

    def value(self, node: ast.expr, params: dict[str, str]) -> str | None:
        """The class an assigned value has; None when it says nothing (`None`)."""
        if isinstance(node, ast.Constant) and node.value is None:
            return None
        if isinstance(node, ast.Call):
            return self.named(node.func)
        if isinstance(node, ast.Name) and node.id in params:
            return params[node.id]
        return _UNKNOWN
