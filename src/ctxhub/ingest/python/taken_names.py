"""The names a function takes: its parameters, and the options it reads from its
`**kwargs` (`'old' in options`, `kwargs.pop('old', None)`, `kwargs.get('old')`,
`kwargs['old']`). A warning about such an option is about that keyword, not about
the `**kwargs` container that carries it."""

from __future__ import annotations

import ast

from ctxhub.ingest.python.callgraph import own_nodes

_READERS = frozenset({"pop", "get", "setdefault"})


def taken_names(node: ast.AST) -> set[str]:
    """A function's parameters and `**kwargs` options (a class's: its `__init__`'s)."""
    if isinstance(node, ast.ClassDef):
        init = next(
            (
                s
                for s in node.body
                if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name == "__init__"
            ),
            None,
        )
        return taken_names(init) if init is not None else set()
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return set()
    args = node.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    names = {a.arg for a in every if a is not None} - {"self", "cls"}
    if args.kwarg is not None:
        names |= keyword_options(node.body, args.kwarg.arg)
    return names


def keyword_options(body: list[ast.stmt], container: str) -> set[str]:
    """The literal keys a scope reads from its `**container` dict."""
    found: set[str] = set()
    for n in own_nodes(body):
        key: ast.expr | None = None
        if (
            isinstance(n, ast.Compare)
            and len(n.ops) == 1
            and isinstance(n.ops[0], ast.In | ast.NotIn)
        ):
            key = n.left if _is(n.comparators[0], container) else None
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.args:
            if n.func.attr in _READERS and _is(n.func.value, container):
                key = n.args[0]
        elif isinstance(n, ast.Subscript) and _is(n.value, container):
            key = n.slice
        if (
            isinstance(key, ast.Constant)
            and isinstance(key.value, str)
            and key.value.isidentifier()
        ):
            found.add(key.value)
    return found


def tested_option(test: ast.expr, params: set[str]) -> str | None:
    """The option a guard tests for (`if 'old' in options:`): a literal key looked up in
    one of the function's parameters, when there is exactly one."""
    keys = {
        n.left.value
        for n in ast.walk(test)
        if isinstance(n, ast.Compare)
        and len(n.ops) == 1
        and isinstance(n.ops[0], ast.In | ast.NotIn)
        and isinstance(n.comparators[0], ast.Name)
        and n.comparators[0].id in params
        and isinstance(n.left, ast.Constant)
        and isinstance(n.left.value, str)
    }
    return keys.pop() if len(keys) == 1 else None


def _is(expr: ast.expr, name: str) -> bool:
    return isinstance(expr, ast.Name) and expr.id == name
