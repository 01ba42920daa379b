"""Lazy-import tables that name deprecated aliases by a keyword.

A package that imports lazily hands a helper its tables by keyword:

    lazy_import(
        globals(),
        aliases={"Protocol": ".protocol"},
        deprecated_aliases={
            # deprecated in 14.0 - 2024-11-09
            "InvalidStatusCode": ".legacy.exceptions",
        },
    )

The keyword's name says which table is deprecated (it contains "deprecat"), whatever
the helper is called or wherever it is defined. Each key is a deprecated name of the
calling module; its value is the module the name is imported from (relative to the
calling module, as `from .legacy.exceptions import InvalidStatusCode` would be), or the
full dotted name of the object (`"pkg.mod.New"`, `"pkg.mod:New"`). Since when comes from
the nearest comment above the entry that dates it, inside the table or above the call.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ctxhub.ingest.python.aliases import Alias
from ctxhub.ingest.python.callgraph import ImportTable, scope_statements
from ctxhub.ingest.python.deprecation_since import (
    comment_block_above,
    comments_between,
    since_in_comments,
)
from ctxhub.ingest.python.modules import resolve_relative


def deprecated_keyword_tables(
    tree: ast.Module, module: str, imports: ImportTable, lines: list[str]
) -> Iterator[Alias]:
    """Each entry of a `deprecat*=` dict literal passed to a module-level call."""
    for stmt in scope_statements(tree.body):
        value = stmt.value if isinstance(stmt, ast.Expr | ast.Assign) else None
        if not isinstance(value, ast.Call):
            continue
        for keyword in value.keywords:
            named = keyword.arg is not None and "deprecat" in keyword.arg.lower()
            if named and isinstance(keyword.value, ast.Dict):
                yield from _entries(keyword.value, stmt, module, imports, lines)


def _entries(
    table: ast.Dict, stmt: ast.stmt, module: str, imports: ImportTable, lines: list[str]
) -> Iterator[Alias]:
    above = comment_block_above(lines, stmt.lineno) if lines else []
    comments = comments_between(lines, table.lineno, table.end_lineno or table.lineno)
    for key, value in zip(table.keys, table.values, strict=True):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            continue
        if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
            continue
        name, where = key.value, value.value
        target = _target(name, where, module, imports)
        symbol = f"{module}.{name}"
        dated = [text for line, text in comments if line <= key.lineno]
        since = since_in_comments(dated) or since_in_comments(above)
        note = (
            f"`{symbol}` is a deprecated alias of `{target}`."
            if target
            else (f"`{symbol}` is deprecated.")
        )
        yield Alias(symbol, target, note, key.lineno, since)


def _target(name: str, where: str, module: str, imports: ImportTable) -> str | None:
    """The object a table entry imports: `name` in the module `where` names (relative
    to `module` when it starts with a dot), or `where` itself when it names the object
    (`pkg.mod:New`, or a dotted name ending in `name`)."""
    if ":" in where:
        return where.replace(":", ".")
    level = len(where) - len(where.lstrip("."))
    if level:
        base = resolve_relative(module, imports.is_package, level, where[level:] or None)
        return f"{base}.{name}" if base else None
    if where.rsplit(".", 1)[-1] == name and where not in imports.known_modules:
        return where
    return f"{where}.{name}"
