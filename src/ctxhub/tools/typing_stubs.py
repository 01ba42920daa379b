"""Declarations for type checkers only: a def inside `if TYPE_CHECKING:` whose body is a
docstring and `...` (generated so an editor knows `Operations.add_column`). It never
runs; the code that does is often registered under its name by a decorator call
(`@Operations.register_operation("add_column")` on `AddColumnOp`, whose `add_column`
is the implementation)."""

from __future__ import annotations

import ast
import re
import textwrap

from ctxhub.core.knowledge import Chunk, ChunkQuery
from ctxhub.store.protocol import Store

_TYPE_CHECKING = re.compile(r"^\s*(el)?if\s+(typing\.)?TYPE_CHECKING\s*:")
#: Definitions of the stub's name looked at for a registration, at most.
MAX_CANDIDATES = 50


def is_typing_stub(store: Store, chunk: Chunk) -> bool:
    """Whether `chunk` is a def with a docstring-and-`...` body under `if TYPE_CHECKING:`."""
    if chunk.metadata.chunk_type not in ("method", "function") or not _empty_body(chunk):
        return False
    text = store.file_text(chunk.source, chunk.path)
    if text is None or not chunk.line_start:
        return False
    lines = text.splitlines()
    start = chunk.line_start - 1
    while start > 0 and lines[start].lstrip().startswith("@"):
        start -= 1
    indent = len(lines[start]) - len(lines[start].lstrip())
    for line in reversed(lines[:start]):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if len(line) - len(line.lstrip()) < indent:  # the block that holds the def
            return bool(_TYPE_CHECKING.match(line))
    return False


def _empty_body(chunk: Chunk) -> bool:
    try:
        tree = ast.parse(textwrap.dedent(chunk.content))
    except SyntaxError:
        return False
    fn = tree.body[0] if tree.body else None
    if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    body = list(fn.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    return all(
        isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and s.value.value is ...
        for s in body
    )


def registered_implementations(store: Store, stub: Chunk) -> list[Chunk]:
    """Definitions of the stub's name, in its source, registered under that name by a
    decorator call with it as a string literal, on themselves or on their class."""
    last = (stub.symbol or "").rsplit(".", 1)[-1]
    literal = re.compile(rf"\(\s*['\"]{re.escape(last)}['\"]")
    query = ChunkQuery(kind="api", source=stub.source, symbol_name=last, limit=MAX_CANDIDATES)
    found: list[Chunk] = []
    for chunk in store.find_chunks(query):
        if chunk.id == stub.id or (chunk.symbol or "").rsplit(".", 1)[-1] != last:
            continue
        decorators = list(chunk.metadata.decorators)
        owner = (chunk.symbol or "").rsplit(".", 1)[0]
        if chunk.metadata.chunk_type == "method":
            classes = store.find_chunks(
                ChunkQuery(kind="api", source=stub.source, symbol=owner, chunk_types=("class",))
            )
            decorators += [d for c in classes for d in c.metadata.decorators]
        if any(literal.search(d) for d in decorators):
            found.append(chunk)
    return found
