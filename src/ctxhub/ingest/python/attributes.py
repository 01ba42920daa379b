"""The classes of a class's attributes, where the class's own body states them.

`self.attr.method()` is a call of `Cls.method` when the class says what `attr` holds:

- a class-level annotation `attr: Cls` (dataclass fields, declared attributes), or a
  class-level `attr = Cls(...)`;
- in any of its methods, `self.attr: Cls = ...`, or `self.attr = value` where the value
  is typed as `values.py` types it: `Cls(...)`, a call of a function annotated `-> Cls`
  (in this module or, through the package's first pass, another:
  `self.broker = broker or get_broker()`), a parameter annotated `param: Cls` or
  overriding one so annotated;
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
from collections.abc import Mapping
from dataclasses import dataclass

from ctxhub.ingest.python.callgraph import ScopeContext, dotted_chain, own_nodes
from ctxhub.ingest.python.class_names import UNKNOWN as _UNKNOWN
from ctxhub.ingest.python.class_names import ClassNames, with_local_imports
from ctxhub.ingest.python.definitions import self_parameter
from ctxhub.ingest.python.package_types import PackageTypes
from ctxhub.ingest.python.returns import Returned
from ctxhub.ingest.python.values import ValueScope, parameter_types

#: Decorators of a getter whose return annotation is the attribute's class.
_GETTERS = frozenset({"property", "cached_property"})


def attribute_types(
    node: ast.ClassDef,
    ctx: ScopeContext,
    module: str,
    *,
    owner: str | None = None,
    own_returns: Mapping[str, Returned] | None = None,
    module_returns: Mapping[str, Returned] | None = None,
    types: PackageTypes | None = None,
) -> dict[str, str]:
    """Attribute name -> qualified class, for the attributes whose class is known.

    `owner` is the class's qualified name, `own_returns` its methods' returns,
    `module_returns` the module's functions', `types` the package's first pass laid
    under the module's own facts (`package_types.py`): what assigned values are typed
    from (`values.py`)."""
    declared: dict[str, set[str]] = {}
    assigned: dict[str, set[str]] = {}
    classes = ClassNames(ctx.imports, ctx.module_names, module)
    typing = _Typing(owner, own_returns or {}, module_returns or {}, types)
    at_class_level = ValueScope(classes, None, {}, typing.module_returns, types, {})
    for stmt in node.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            declared.setdefault(stmt.target.id, set()).add(classes.annotation(stmt.annotation))
        elif isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    found = at_class_level.value(stmt.value)
                    if found is not None:
                        assigned.setdefault(target.id, set()).add(found)
        elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            if _is_getter(stmt):
                declared.setdefault(stmt.name, set()).add(classes.annotation(stmt.returns))
            _scan_method(stmt, classes, typing, declared, assigned)
    out: dict[str, str] = {}
    for attr in declared.keys() | assigned.keys():
        named = declared.get(attr) or assigned[attr]
        if len(named) == 1 and _UNKNOWN not in named:
            out[attr] = next(iter(named))
    return out


def _is_getter(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A plain `@property` / `@cached_property` getter with a return annotation."""
    if isinstance(fn, ast.AsyncFunctionDef) or fn.returns is None:
        return False
    names = [dotted_chain(d) for d in fn.decorator_list]
    return any(n is not None and n[-1] in _GETTERS for n in names)


@dataclass(frozen=True)
class _Typing:
    owner: str | None
    own_returns: Mapping[str, Returned]
    module_returns: Mapping[str, Returned]
    types: PackageTypes | None


def _scan_method(
    fn: ast.FunctionDef | ast.AsyncFunctionDef,
    classes: ClassNames,
    typing: _Typing,
    declared: dict[str, set[str]],
    assigned: dict[str, set[str]],
) -> None:
    receiver = self_parameter(fn)
    if receiver is None:
        return
    nodes = list(own_nodes(fn.body))
    local = with_local_imports(classes, nodes)
    params = parameter_types(fn, receiver, local, typing.owner, typing.types)
    values = ValueScope(
        local, receiver, typing.own_returns, typing.module_returns, typing.types, params
    )
    for node in nodes:
        if isinstance(node, ast.AnnAssign):
            attr = _own_attribute(node.target, receiver)
            if attr is not None:
                declared.setdefault(attr, set()).add(local.annotation(node.annotation))
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                attr = _own_attribute(target, receiver)
                if attr is not None:
                    found = values.value(node.value)
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
