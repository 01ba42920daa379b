"""The classes of a function's locals and parameters, where its own text states them.

`next_screen._push_result_callback()` is a call of `Screen._push_result_callback` when
the function says what `next_screen` holds:

- a parameter annotated `next_screen: Screen` (`Optional[...]`, `| None`, `"Screen"`
  unwrapped as for attributes), or a local annotated `next_screen: Screen = ...`;
- a local assigned a constructor call, `next_screen = Screen(...)`;
- a local assigned what a function returns, when the return is annotated: a method of
  the same class (`self._get_screen(...)`) or a function of the module, awaited when it
  is async; `a, b = self._pair()` with `-> tuple[A, B]` gives each its class.

A local bound to a method is an alias of that method: after `creator =
self.workers._new_worker` (an attribute of known class, `attributes.py`), `creator(...)`
is a call of `WorkerManager._new_worker`; `step = self._step` makes `step()` a call of
`self._step`, and `bound = worker.cancel` one of `Worker.cancel` for a typed local.

Conservative, as for attributes: annotations decide when there are any; otherwise every
assignment must name the same class (`None` says nothing). A name also bound another way
(a `for` or `with` target, an unannotated parameter, an import, a nested def, `global`,
augmented assignment, `:=`, a star target) is unknown. An alias records each method it
is assigned (a branch that wraps the method in something unknown does not make the other
branch's direct binding any less a call). Classes resolve through the module's imports
or are names the module binds; anything else is unknown, never guessed.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ctxhub.core.calls import VIA_SELF
from ctxhub.ingest.python.attributes import ClassNames, with_local_imports
from ctxhub.ingest.python.callgraph import NESTED_SCOPES, dotted_chain, own_nodes
from ctxhub.ingest.python.definitions import FuncNode, is_property

_TUPLES = frozenset({"tuple", "Tuple"})


@dataclass(frozen=True)
class Returned:
    """What a function's return annotation says: one class, or a tuple's classes ("" for
    an element of unknown class); and whether the function is async (then only an
    awaited call returns it)."""

    classes: tuple[str, ...]
    is_async: bool


def return_types(funcs: Iterable[FuncNode], classes: ClassNames) -> dict[str, Returned]:
    """Name -> what it returns, for the functions whose return annotation names a class.

    Properties are left out (they are attributes, `attributes.py`); a name defined twice
    with different returns (overloads) says nothing.
    """
    found: dict[str, Returned | None] = {}
    for fn in funcs:
        if fn.returns is None or is_property(fn):
            continue
        ret = Returned(_returned(fn.returns, classes), isinstance(fn, ast.AsyncFunctionDef))
        known = ret if any(ret.classes) else None
        if fn.name in found and found[fn.name] != known:
            known = None
        found[fn.name] = known
    return {name: ret for name, ret in found.items() if ret is not None}


def _returned(node: ast.expr, classes: ClassNames) -> tuple[str, ...]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return _returned(ast.parse(node.value, mode="eval").body, classes)
        except SyntaxError:
            return ("",)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple):
        chain = dotted_chain(node.value) or [""]
        if chain[-1] in _TUPLES:
            elts = node.slice.elts
            if any(isinstance(e, ast.Constant) and e.value is Ellipsis for e in elts):
                return ("",)
            return tuple(classes.annotation(e) for e in elts)
    return (classes.annotation(node),)


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
    methods' returns (a method), the module's functions' returns."""

    classes: ClassNames
    attr_types: Mapping[str, str]
    own_returns: Mapping[str, Returned]
    module_returns: Mapping[str, Returned]


def local_types(fn: FuncNode, receiver: str | None, scope: FunctionScope) -> LocalTypes:
    """The classes of `fn`'s locals and parameters, and its aliases of bound methods
    (see the module docstring). `receiver` is a method's `self`/`cls` parameter."""
    nodes = list(own_nodes(fn.body))
    typer = _Typer(scope, with_local_imports(scope.classes, nodes), receiver)
    declared: dict[str, set[str]] = {}
    assigned: dict[str, list[_Value]] = {}
    poisoned: set[str] = set()
    args = fn.args
    for a in (*args.posonlyargs, *args.args, *args.kwonlyargs):
        if a.arg == receiver:
            continue
        if a.annotation is None:
            poisoned.add(a.arg)
        else:
            declared.setdefault(a.arg, set()).add(typer.classes.annotation(a.annotation))
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
    names = (declared.keys() | assigned.keys()) - poisoned - {receiver}
    for name in names:
        cls = typer.instance(declared.get(name), assigned.get(name, []))
        if cls:
            out.instances[name] = cls
    for name in assigned.keys() - poisoned - {receiver} - declared.keys():
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
    def __init__(self, scope: FunctionScope, classes: ClassNames, receiver: str | None) -> None:
        self.scope = scope
        self.classes = classes
        self.receiver = receiver

    def instance(self, declared: set[str] | None, values: list[_Value]) -> str | None:
        """The one class the annotations (if any), else every assignment, name."""
        if declared:
            types = declared
        else:
            found = [self.value(v) for v in values]
            types = {t for t in found if t is not None}
        if len(types) == 1 and "" not in types:
            return next(iter(types))
        return None

    def value(self, value: _Value) -> str | None:
        """The class an assignment binds; None when it says nothing (`None`); "" when
        unknown."""
        node = value.node
        if isinstance(node, ast.Constant) and node.value is None and value.index is None:
            return None
        awaited = isinstance(node, ast.Await)
        if isinstance(node, ast.Await):
            node = node.value
        if not isinstance(node, ast.Call):
            return ""
        returned = self._returns(node.func)
        if returned is not None:
            if returned.is_async != awaited or len(returned.classes) != value.arity:
                return ""
            return returned.classes[value.index or 0]
        if awaited or value.index is not None:
            return ""
        return self.classes.named(node.func)  # a constructor call, `Screen(...)`

    def _returns(self, func: ast.expr) -> Returned | None:
        chain = dotted_chain(func)
        if chain is None:
            return None
        if len(chain) == 2 and chain[0] == self.receiver:
            return self.scope.own_returns.get(chain[1])
        if len(chain) == 1:
            return self.scope.module_returns.get(chain[0])
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
