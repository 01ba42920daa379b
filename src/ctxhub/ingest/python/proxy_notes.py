"""A module `__getattr__` proxy's warning, written out for each name it serves.

    def __getattr__(name):
        changes = {"HTTP_422_UNPROCESSABLE_ENTITY": "HTTP_422_UNPROCESSABLE_CONTENT"}
        if name in __deprecated__:
            warnings.warn(f"'{name}' is deprecated. Use '{changes[name]}' instead.", ...)

The proxy's message is a template; each deprecated name it serves gets the message
Python would emit for that name: the proxy's parameter is the name, and a literal dict
(assigned in the proxy or at module level) is looked up by it. A field that cannot be
filled stays as the source writes it.
"""

from __future__ import annotations

import ast

from ctxhub.ingest.python.aliases import Alias
from ctxhub.ingest.python.message_fields import FIELD, fill_fields, literal_tables


def filled_proxy_notes(tree: ast.Module, module: str, aliases: list[Alias]) -> list[Alias]:
    """`aliases` with the notes of the names this module's `__getattr__` serves filled
    in for each name."""
    proxy = next(
        (
            s
            for s in tree.body
            if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name == "__getattr__"
        ),
        None,
    )
    if proxy is None or not any(FIELD.search(a.note) for a in aliases):
        return aliases
    params = [*proxy.args.posonlyargs, *proxy.args.args]
    if not params:
        return aliases
    param = params[0].arg
    tables = {**literal_tables(tree.body), **literal_tables(proxy.body)}
    out = []
    for alias in aliases:
        owner, _, name = alias.symbol.rpartition(".")
        if owner != module or not FIELD.search(alias.note):
            out.append(alias)
            continue
        names = {param: name, "__name__": module}
        note = fill_fields(alias.note, names, tables)
        out.append(Alias(alias.symbol, alias.replacement, note, alias.line, alias.since))
    return out
