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

The class follows the function's flow (`local_flow.py`): each call is typed by the
bindings that can reach it. A parameter starts as its annotation says, or as the method
it overrides annotates it, and an assignment in the body rebinds it
(`locale = locales.get_locale(locale)` makes the later `locale.describe()` a call of
`Locale.describe`, whatever `locale: str` said). A local's own annotation
(`s: Screen = ...`) holds for every assignment to it. Where paths meet, every path must
name the same class (`None` says nothing); a name also bound another way on the way (a
`for` or `with` target, augmented assignment, `:=`, a star target, a nested def) is
unknown from there on. A local some binding gives a class but that holds none known at
a call is recorded unresolved there (`callgraph.py`); one no binding gives a class (an
unannotated parameter never assigned) is left out, as is a name the function imports
or declares `global`/`nonlocal`. A name the function does not bind reads the module's
instance of that name, if any (`module_instances.py`).

An alias records each method it is assigned (a branch that wraps the method in
something unknown does not make the other branch's direct binding any less a call).
Classes resolve through the module's imports or are names the module binds; anything
else is unknown, never guessed.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass, field

from ctxhub.core.calls import VIA_SELF
from ctxhub.ingest.python.callgraph import NESTED_SCOPES, dotted_chain, own_nodes
from ctxhub.ingest.python.class_names import UNKNOWN, ClassNames, with_local_imports
from ctxhub.ingest.python.definitions import FuncNode
from ctxhub.ingest.python.local_flow import LocalFlow
from ctxhub.ingest.python.package_types import PackageTypes
from ctxhub.ingest.python.returns import Returned
from ctxhub.ingest.python.values import ValueScope, parameter_types


@dataclass
class LocalTypes:
    """What a function's locals hold, where known."""

    #: id(`name.attr` node) -> the class `name` holds there ("" unknown: a local the
    #: function gives a class, of no class known at that place), for the function's
    #: typed locals and parameters and the module-level instances it reads
    receivers: dict[int, str] = field(default_factory=dict)
    #: local -> the bound methods assigned to it: (call as recorded, receiver)
    methods: dict[str, list[tuple[str, str]]] = field(default_factory=dict)


@dataclass(frozen=True)
class FunctionScope:
    """What a function's locals can be typed from: the class's attributes and its
    methods' returns (a method), the module's functions' returns, the package's first
    pass under the module's own facts (`package_types.py`), the qualified class a
    method belongs to (whose bases' signatures its unannotated parameters take), and
    the module-level instances the module's names hold (`module_instances.py`)."""

    classes: ClassNames
    attr_types: Mapping[str, str]
    own_returns: Mapping[str, Returned]
    module_returns: Mapping[str, Returned]
    types: PackageTypes | None = None
    owner: str | None = None
    module_instances: Mapping[str, str] = field(default_factory=dict)


def local_types(fn: FuncNode, receiver: str | None, scope: FunctionScope) -> LocalTypes:
    """The classes of `fn`'s locals and parameters where it reads them, and its aliases
    of bound methods (see the module docstring). `receiver` is a method's `self`/`cls`
    parameter."""
    nodes = list(own_nodes(fn.body))
    classes = with_local_imports(scope.classes, nodes)
    params = parameter_types(fn, receiver, classes, scope.owner, scope.types)
    args = fn.args
    parameters = _parameter_names(args)
    bound = set(parameters)
    declared_global: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        bound.update(_other_bindings(node))
        if isinstance(node, ast.Global):
            declared_global.update(node.names)
    # not typed here: names of an enclosing scope; names the function imports (a module
    # or a definition on some path: the import table places them, callgraph.py); and
    # receivers by name, the call graph's own
    untyped = {
        n
        for node in nodes
        if isinstance(node, ast.Global | ast.Nonlocal | ast.Import | ast.ImportFrom)
        for n in _other_bindings(node)
    }
    by_name = {receiver, "self", "cls"}
    local_names = frozenset(bound - untyped - by_name)
    # a module-level instance, where the function binds no name of its own over it
    reads = {
        n: c
        for n, c in scope.module_instances.items()
        if n not in bound - declared_global and n not in by_name
    }
    typer = _Typer(scope, classes, receiver, reads)
    declared: dict[str, set[str]] = {}
    for node in nodes:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            declared.setdefault(node.target.id, set()).add(classes.annotation(node.annotation))
    flow = LocalFlow(
        local_names,
        typer.value,
        {n: next(iter(c)) for n, c in declared.items() if len(c) == 1 and UNKNOWN not in c},
    )
    entry: dict[str, str | None] = {n: c for n, c in params.items() if n in local_names}
    entry.update({a.arg: UNKNOWN for a in (args.vararg, args.kwarg) if a is not None})
    flow.run(fn.body, entry)
    out = LocalTypes()
    for node in nodes:
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
            continue
        name = node.value.id
        if name in local_names:
            cls = flow.class_at(id(node))
            if cls is not None:
                out.receivers[id(node)] = cls
        elif name in reads:
            out.receivers[id(node)] = reads[name]
    out.methods = _aliases(nodes, parameters, declared, receiver, typer, out.receivers)
    return out


def _parameter_names(args: ast.arguments) -> list[str]:
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    return [a.arg for a in every if a is not None]


def _aliases(
    nodes: list[ast.AST],
    parameters: list[str],
    declared: Mapping[str, set[str]],
    receiver: str | None,
    typer: _Typer,
    receivers: Mapping[int, str],
) -> dict[str, list[tuple[str, str]]]:
    """Local -> the bound methods assigned to it, for locals bound no other way (a
    parameter holds what the caller passed too: never only the methods assigned to it)."""
    assigned: dict[str, list[_Value]] = {}
    poisoned: set[str] = set(parameters) | ({"self", "cls"} - {receiver})
    handled: set[int] = set()
    for node in nodes:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                handled.update(_assignments(target, node.value, assigned))
        poisoned.update(_other_bindings(node))
    for node in nodes:
        stored = isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load)
        if stored and id(node) not in handled and isinstance(node, ast.Name):
            poisoned.add(node.id)
    out: dict[str, list[tuple[str, str]]] = {}
    for name in assigned.keys() - poisoned - {receiver} - declared.keys():
        bound = [
            b for v in assigned[name] if v.index is None and (b := typer.bound(v.node, receivers))
        ]
        if bound:
            out[name] = list(dict.fromkeys(bound))
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
        outer: Mapping[str, str],
    ) -> None:
        self.scope = scope
        self.classes = classes
        self.receiver = receiver
        #: the module-level instances the function's names read (not its locals)
        self.outer = outer

    def value(
        self, node: ast.expr, index: int | None, arity: int, state: Mapping[str, str | None]
    ) -> str | None:
        """The class `node` evaluates to where the locals hold what `state` says."""
        scope = self.scope
        values = ValueScope(
            self.classes,
            self.receiver,
            scope.own_returns,
            scope.module_returns,
            scope.types,
            {**self.outer, **state},
        )
        return values.value(node, index, arity)

    def bound(self, node: ast.expr, receivers: Mapping[int, str]) -> tuple[str, str] | None:
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
        cls = receivers.get(id(node)) if len(chain) == 2 else None
        return (f"{cls}.{chain[1]}", chain[0]) if cls else None
