"""The classes of a function's locals and parameters, where its own text states them.

`next_screen._push_result_callback()` is a call of `Screen._push_result_callback` when
the function says what `next_screen` holds:

- a parameter annotated `next_screen: Screen` (`Optional[...]`, `| None`, `"Screen"`
  unwrapped as for attributes), or a local annotated `next_screen: Screen = ...`;
- a method's unannotated parameter that the method it overrides annotates: the nearest
  definition along the class's bases, through the package's first pass
  (`package_types.py`; `def after_process_message(self, broker, message)` overriding
  `Middleware.after_process_message(self, broker: Broker, ...)`);
- a local assigned a value `values.py` types: a constructor call,
  `next_screen = Screen(...)`; what a function returns, when the return is annotated: a
  method of the same class (`self._get_screen(...)`), a function of the module or one
  another module defines (`get_broker()`), a class's method (`Broker.from_url()`),
  awaited when it is async; `a or f()` / `a if c else f()` when the sides agree or are
  None-ish; `a, b = self._pair()` with `-> tuple[A, B]` gives each its class.

A local bound to a method is an alias of that method: after `creator =
self.workers._new_worker` (an attribute of known class, `attributes.py`), `creator(...)`
is a call of `WorkerManager._new_worker`; `step = self._step` makes `step()` a call of
`self._step`, and `bound = worker.cancel` one of `Worker.cancel` for a typed local.

Conservative, as for attributes: annotations decide when there are any; otherwise every
assignment must name the same class (`None` says nothing), and a parameter typed by the
method it overrides counts as one more assignment (`broker = Other()` in the body makes
it unknown). A name also bound another way
(a `for` or `with` target, an unannotated parameter, an import, a nested def, `global`,
augmented assignment, `:=`, a star target) is unknown. An alias records each method it
is assigned (a branch that wraps the method in something unknown does not make the other
branch's direct binding any less a call). Classes resolve through the module's imports
or are names the module binds; anything else is unknown, never guessed.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass, field

from ctxhub.core.calls import VIA_SELF
from ctxhub.ingest.python.callgraph import NESTED_SCOPES, dotted_chain, own_nodes
from ctxhub.ingest.python.class_names import ClassNames, with_local_imports
from ctxhub.ingest.python.definitions import FuncNode
from ctxhub.ingest.python.package_types import PackageTypes
from ctxhub.ingest.python.returns import Returned
from ctxhub.ingest.python.values import ValueScope, parameter_types


@dataclass
class LocalTypes:
    """What a function's locals hold, where known."""

    #: local or parameter -> qualified class
    instances: dict[str, str] = field(default_factory=dict)
    #: local -> the bound methods assigned to it: (call as recorded, receiver)
    methods: dict[str, list[tuple[str, str]]] = field(default_factory=dict)


@dataclass(frozen=True)
class FunctionScope:
    """What a function's locals can be typed from: the class's attributes and its
    methods' returns (a method), the module's functions' returns, the package's first
    pass under the module's own facts (`package_types.py`), and the qualified class a
    method belongs to (whose bases' signatures its unannotated parameters take)."""

    classes: ClassNames
    attr_types: Mapping[str, str]
    own_returns: Mapping[str, Returned]
    module_returns: Mapping[str, Returned]
    types: PackageTypes | None = None
    owner: str | None = None


def local_types(fn: FuncNode, receiver: str | None, scope: FunctionScope) -> LocalTypes:
    """The classes of `fn`'s locals and parameters, and its aliases of bound methods
    (see the module docstring). `receiver` is a method's `self`/`cls` parameter."""
    nodes = list(own_nodes(fn.body))
    classes = with_local_imports(scope.classes, nodes)
    params = parameter_types(fn, receiver, classes, scope.owner, scope.types)
    typer = _Typer(scope, classes, receiver, params)
    declared: dict[str, set[str]] = {}
    assigned: dict[str, list[_Value]] = {}
    # a parameter typed by the method it overrides: one more value, not an annotation
    inherited: dict[str, str] = {}
    poisoned: set[str] = set()
    annotated = classes.parameters(fn.args, receiver)
    for name, cls in params.items():
        if cls and annotated.get(name) is not None:
            declared.setdefault(name, set()).add(cls)
        elif cls:
            inherited[name] = cls
        else:
            poisoned.add(name)
    args = fn.args
    poisoned.update(a.arg for a in (args.vararg, args.kwarg) if a is not None)
    handled: set[int] = set()  # Name targets read here, not poisoned below
    for node in nodes:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            declared.setdefault(node.target.id, set()).add(
                typer.classes.annotation(node.annotation)
            )
            handled.add(id(node.target))
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                handled.update(_assignments(target, node.value, assigned))
        poisoned.update(_other_bindings(node))
    for node in nodes:
        stored = isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load)
        if stored and id(node) not in handled and isinstance(node, ast.Name):
            poisoned.add(node.id)
    out = LocalTypes()
    poisoned.update({"self", "cls"} - {receiver})  # receivers by name (callgraph.py)
    names = (declared.keys() | assigned.keys() | inherited.keys()) - poisoned - {receiver}
    for name in names:
        cls = typer.instance(declared.get(name), assigned.get(name, []), inherited.get(name))
        if cls:
            out.instances[name] = cls
    # a parameter holds what the caller passed too: never only the methods assigned to it
    for name in assigned.keys() - poisoned - {receiver} - declared.keys() - inherited.keys():
        bound = [
            b
            for v in assigned[name]
            if v.index is None and (b := typer.bound(v.node, out.instances))
        ]
        if bound:
            out.methods[name] = list(dict.fromkeys(bound))
    return out


@dataclass(frozen=True)
class _Value:
    """What one assignment binds a name to: `node`, or its `index`th element when a
    tuple target of `arity` names unpacks it."""

    node: ast.expr
    index: int | None = None
    arity: int = 1


def _assignments(target: ast.expr, value: ast.expr, assigned: dict[str, list[_Value]]) -> list[int]:
    """Record `name = value` (and `a, b = value` element-wise); return the ids of the
    Name targets recorded."""
    if isinstance(target, ast.Name):
        assigned.setdefault(target.id, []).append(_Value(value))
        return [id(target)]
    elts = target.elts if isinstance(target, ast.Tuple | ast.List) else []
    names = [e for e in elts if isinstance(e, ast.Name)]
    if not names or len(names) != len(elts):
        return []
    for i, elt in enumerate(names):
        assigned.setdefault(elt.id, []).append(_Value(value, i, len(names)))
    return [id(e) for e in names]


def _other_bindings(node: ast.AST) -> list[str]:
    """Names bound by `node` other than as a Name target (imports, defs, handlers, ...)."""
    if isinstance(node, NESTED_SCOPES) and not isinstance(node, ast.Lambda):
        return [node.name]
    if isinstance(node, ast.Import | ast.ImportFrom):
        return [(a.asname or a.name).split(".", 1)[0] for a in node.names]
    if isinstance(node, ast.Global | ast.Nonlocal):
        return list(node.names)
    if isinstance(node, ast.ExceptHandler) and node.name:
        return [node.name]
    if isinstance(node, ast.MatchAs | ast.MatchStar) and node.name:
        return [node.name]
    if isinstance(node, ast.MatchMapping) and node.rest:
        return [node.rest]
    return []


class _Typer:
    def __init__(
        self,
        scope: FunctionScope,
        classes: ClassNames,
        receiver: str | None,
        params: Mapping[str, str | None],
    ) -> None:
        self.scope = scope
        self.classes = classes
        self.receiver = receiver
        self.values = ValueScope(
            classes, receiver, scope.own_returns, scope.module_returns, scope.types, params
        )

    def instance(
        self, declared: set[str] | None, values: list[_Value], inherited: str | None = None
    ) -> str | None:
        """The one class the annotations (if any), else every assignment and the class
        an overridden method gives the parameter (`inherited`), name."""
        if declared:
            types = declared
        else:
            found = [self.values.value(v.node, v.index, v.arity) for v in values]
            types = {t for t in [*found, inherited] if t is not None}
        if len(types) == 1 and "" not in types:
            return next(iter(types))
        return None

    def bound(self, node: ast.expr, instances: Mapping[str, str]) -> tuple[str, str] | None:
        """A bound method as a value: (call as recorded, receiver), or None."""
        if not isinstance(node, ast.Attribute):
            return None
        chain = dotted_chain(node)
        if chain is None:
            return None
        if len(chain) == 2 and chain[0] == self.receiver:
            return ast.unparse(node), VIA_SELF
        if len(chain) == 3 and chain[0] == self.receiver:
            cls = self.scope.attr_types.get(chain[1])
            return (f"{cls}.{chain[2]}", f"{chain[0]}.{chain[1]}") if cls else None
        if len(chain) == 2 and chain[0] in instances:
            return f"{instances[chain[0]]}.{chain[1]}", chain[0]
        return None
