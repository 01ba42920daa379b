"""Names in annotations, constructor calls and calls -> the qualified definitions they
name, through the module's imports (`ImportTable`) or the names it binds itself.

`Optional[Cls]`, `Cls | None`, `"Cls"` and the wrappers that qualify a value rather than
name its class (`ClassVar`, `Final`, `Annotated`, ...) count as `Cls`; a union of two
classes, typing's own aliases (`Dict`, `Callable`, `Any`) and anything the module does
not bind are unknown ("").
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from ctxhub.ingest.python.callgraph import ImportTable, class_like, dotted_chain

#: A value or annotation whose class is not known.
UNKNOWN = ""
#: Annotation wrappers that say something about the value, not its class.
_WRAPPERS = frozenset({"Optional", "ClassVar", "Final", "Annotated", "Required", "NotRequired"})


class ClassNames:
    """Names in annotations and constructor calls -> qualified classes."""

    def __init__(self, imports: ImportTable, module_names: frozenset[str], module: str) -> None:
        self.imports = imports
        self.module_names = module_names
        self.module = module

    def qualified(self, chain: list[str]) -> str:
        """A dotted name as the module binds its first name (`get_broker` ->
        `pkg.broker.get_broker`, `Broker.create` -> `pkg.broker.Broker.create`); ""
        when the module binds no such name, or it is one of typing's."""
        root = chain[0]
        if root in self.imports.bindings:
            qualified = self.imports.qualify(".".join(chain))
            # typing's aliases (Dict, Callable, Any) are no class whose methods are indexed
            return UNKNOWN if qualified.startswith("typing.") else qualified
        if root in self.module_names:
            return ".".join([self.module, *chain])
        return UNKNOWN

    def named(self, node: ast.expr) -> str:
        chain = dotted_chain(node)
        if not chain or not class_like(chain[-1]):
            return UNKNOWN
        if chain[0] not in self.imports.bindings and len(chain) > 1:
            return UNKNOWN  # `Outer.Inner` of the module itself: not followed
        return self.qualified(chain)

    def annotation(self, node: ast.expr | None) -> str:
        if node is None:
            return UNKNOWN
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                return self.annotation(ast.parse(node.value, mode="eval").body)
            except SyntaxError:
                return UNKNOWN
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

    def parameters(self, args: ast.arguments, receiver: str | None) -> dict[str, str | None]:
        """Each named parameter (not `receiver`, nor `*args`/`**kwargs`) -> the class its
        annotation names ("" for an unknown one), None when it has no annotation."""
        return {
            a.arg: None if a.annotation is None else self.annotation(a.annotation)
            for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)
            if a.arg != receiver
        }

    def _one_of(self, options: list[ast.expr]) -> str:
        """The one class of a union with None (`Cls | None`), else unknown."""
        rest = [o for o in options if not (isinstance(o, ast.Constant) and o.value is None)]
        return self.annotation(rest[0]) if len(rest) == 1 else UNKNOWN


def with_local_imports(classes: ClassNames, nodes: Iterable[ast.AST]) -> ClassNames:
    """`classes` with a function's own imports added (`from x import Client` inside it)."""
    table: ImportTable | None = None
    for node in nodes:
        if isinstance(node, ast.Import | ast.ImportFrom):
            table = table or classes.imports.overlay()
            table.add(node)
    return classes if table is None else ClassNames(table, classes.module_names, classes.module)
