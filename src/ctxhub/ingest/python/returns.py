"""What functions return, read from their return annotations, for typing the values
they produce (`local_types.py`, `attributes.py`) and the package scan
(`package_types.py`).

A return annotation names a class (`-> Broker`, `-> "Broker | None"`,
`-> Optional[Broker]`: `ClassNames.annotation`), a tuple of classes (`-> tuple[A, B]`,
element-wise), or, for a method, `Self` (its own class). Properties are attributes
(`attributes.py`), not returns; a name defined twice with different returns (overloads)
says nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass

from ctxhub.ingest.python.callgraph import dotted_chain
from ctxhub.ingest.python.class_names import ClassNames
from ctxhub.ingest.python.definitions import FuncNode, is_property

_TUPLES = frozenset({"tuple", "Tuple"})
#: `-> Self` (typing, typing_extensions): the class whose method it is
_SELF = "Self"


@dataclass(frozen=True)
class Returned:
    """What a function's return annotation says: one class, or a tuple's classes ("" for
    an element of unknown class); and whether the function is async (then only an
    awaited call returns it)."""

    classes: tuple[str, ...]
    is_async: bool


def return_types(
    funcs: Iterable[FuncNode], classes: ClassNames, owner: str | None = None
) -> dict[str, Returned]:
    """Name -> what it returns, for the functions whose return annotation names a class.
    `owner` is the qualified class the functions are methods of (then `-> Self` is it)."""
    found: dict[str, Returned | None] = {}
    for fn in funcs:
        if fn.returns is None or is_property(fn):
            continue
        ret = Returned(
            returned_classes(fn.returns, classes, owner), isinstance(fn, ast.AsyncFunctionDef)
        )
        known = ret if any(ret.classes) else None
        if fn.name in found and found[fn.name] != known:
            known = None
        found[fn.name] = known
    return {name: ret for name, ret in found.items() if ret is not None}


def returned_classes(
    node: ast.expr, classes: ClassNames, owner: str | None = None
) -> tuple[str, ...]:
    """The classes a return annotation names (see the module docstring)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return returned_classes(ast.parse(node.value, mode="eval").body, classes, owner)
        except SyntaxError:
            return ("",)
    if owner is not None and (dotted_chain(node) or [""])[-1] == _SELF:
        return (owner,)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple):
        chain = dotted_chain(node.value) or [""]
        if chain[-1] in _TUPLES:
            elts = node.slice.elts
            if any(isinstance(e, ast.Constant) and e.value is Ellipsis for e in elts):
                return ("",)
            return tuple(classes.annotation(e) for e in elts)
    return (classes.annotation(node),)
