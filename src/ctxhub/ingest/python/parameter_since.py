"""A parameter's deprecation dated by the docstring that states its version: loguru's
`ansi : bool` entry says "Deprecated since version 0.4.1: ..." in plain words (no
directive), while the warning that fires says no version. A parameter record without a
since takes the version its def's docstring entry for that parameter states."""

from __future__ import annotations

import ast

from ctxhub.core.knowledge import Deprecation
from ctxhub.ingest.python.definitions import Definition, docstring
from ctxhub.ingest.python.deprecation_text import parameter_entry, stated_since


def dated_parameters(
    partial: list[Deprecation], defs: list[Definition], module: str
) -> list[Deprecation]:
    """`partial` with each undated parameter record dated by its def's docstring entry."""
    undated = {(r.symbol, r.parameter) for r in partial if r.parameter and r.since is None}
    if not undated:
        return partial
    since: dict[tuple[str, str], str] = {}
    for d in defs:
        symbol = f"{module}.{d.qualname}"
        if not isinstance(d.node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        params = {p for s, p in undated if s == symbol and p}
        doc = docstring(d.node) if params else None
        for param in params if doc else ():
            stated = stated_since(parameter_entry(doc or "", param) or "")
            if stated:
                since[(symbol, param)] = stated
    return [
        r.model_copy(update={"since": since[(r.symbol, r.parameter)]})
        if r.since is None and r.parameter and (r.symbol, r.parameter) in since
        else r
        for r in partial
    ]
