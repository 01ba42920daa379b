"""The class an expression evaluates to, where the text states it: what typed attributes
(`attributes.py`) and typed locals (`local_types.py`) are assigned.

- `None` says nothing (a later or other assignment decides);
- a constructor call, `Cls(...)`;
- a call of a function whose return is annotated (`returns.py`): a method of the same
  class through the receiver (`self._get_screen()`), a function of the module, or,
  through the package's first pass (`package_types.py`), any function or class method
  that the module's names lead to (`get_broker()` imported from `.broker`,
  `Broker.from_url()`); awaited when it is async;
- a parameter: its annotation, or else the annotation that the method it overrides
  gives the same-named parameter (`parameter_types`);
- `a or b`, `a if cond else b`: the one class the sides name, a None-ish side saying
  nothing: `None`, or a parameter whose only stated value is its default `None`
  (`def __init__(self, broker=None)`: in `broker or get_broker()`, the fallback idiom
  states that `broker` stands for what `get_broker()` returns).

Anything else is unknown (""), never guessed.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ctxhub.ingest.python.callgraph import dotted_chain
from ctxhub.ingest.python.class_names import UNKNOWN, ClassNames
from ctxhub.ingest.python.definitions import FuncNode
from ctxhub.ingest.python.returns import Returned

if TYPE_CHECKING:
    # the package pass types module-level values with this module (module_instances.py)
    from ctxhub.ingest.python.package_types import PackageTypes

#: A parameter's entry when it is None-ish (see the module docstring).
NONE_ISH = None


@dataclass(frozen=True)
class ValueScope:
    """What a function's values can be typed from."""

    classes: ClassNames
    receiver: str | None
    #: the class's methods' returns (a method), the module's functions' returns
    own_returns: Mapping[str, Returned]
    module_returns: Mapping[str, Returned]
    #: the package's first pass laid under the module's own facts, when known
    types: PackageTypes | None
    #: parameter -> class ("" unknown), NONE_ISH for `param=None` unannotated
    params: Mapping[str, str | None]

    def returned(self, func: ast.expr) -> Returned | None:
        """What a call of `func` returns, when an annotation states it."""
        chain = dotted_chain(func)
        if chain is None or chain[0] in self.params:
            return None
        if chain[0] == self.receiver:
            return self.own_returns.get(chain[1]) if len(chain) == 2 else None
        if len(chain) == 1 and chain[0] in self.module_returns:
            return self.module_returns[chain[0]]
        dotted = self.classes.qualified(chain)
        return self.types.returned(dotted) if dotted and self.types is not None else None

    def value(self, node: ast.expr, index: int | None = None, arity: int = 1) -> str | None:
        """The class `node` evaluates to (its `index`th element when a tuple target of
        `arity` names unpacks it); None when it says nothing; "" when unknown."""
        if index is None:
            if isinstance(node, ast.Constant) and node.value is None:
                return None
            if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
                return self._either(node.values)
            if isinstance(node, ast.IfExp):
                return self._either([node.body, node.orelse])
            if isinstance(node, ast.Name) and node.id in self.params:
                return self.params[node.id] or UNKNOWN
        awaited = isinstance(node, ast.Await)
        if isinstance(node, ast.Await):
            node = node.value
        if not isinstance(node, ast.Call):
            return UNKNOWN
        returned = self.returned(node.func)
        if returned is not None:
            if returned.is_async != awaited or len(returned.classes) != arity:
                return UNKNOWN
            return returned.classes[index or 0]
        if awaited or index is not None:
            return UNKNOWN
        return self.classes.named(node.func)  # a constructor call, `Screen(...)`

    def _either(self, sides: list[ast.expr]) -> str | None:
        found = {
            self.value(side)
            for side in sides
            if not (isinstance(side, ast.Name) and side.id in self.params)
            or self.params[side.id] is not NONE_ISH
        }
        found.discard(None)
        if not found:
            return None
        return next(iter(found)) if len(found) == 1 else UNKNOWN


def parameter_types(
    fn: FuncNode,
    receiver: str | None,
    classes: ClassNames,
    owner: str | None,
    types: PackageTypes | None,
) -> dict[str, str | None]:
    """Each parameter of `fn` (not its receiver, nor `*args`/`**kwargs`) -> its class:
    its annotation, else the one the method it overrides gives it (`owner` is the
    qualified class `fn` is a method of), else NONE_ISH for `param=None`, else ""."""
    args = fn.args
    positional = [*args.posonlyargs, *args.args]
    with_defaults = positional[len(positional) - len(args.defaults) :]
    defaults: dict[str, ast.expr | None] = {
        a.arg: d for a, d in zip(with_defaults, args.defaults, strict=True)
    }
    defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)})
    out: dict[str, str | None] = {}
    for name, annotated in classes.parameters(args, receiver).items():
        if annotated is not None:
            out[name] = annotated
            continue
        inherited = UNKNOWN
        if owner is not None and types is not None:
            inherited = types.inherited_parameter(owner, fn.name, name)
        default = defaults.get(name)
        if inherited:
            out[name] = inherited
        elif isinstance(default, ast.Constant) and default.value is None:
            out[name] = NONE_ISH
        else:
            out[name] = UNKNOWN
    return out
