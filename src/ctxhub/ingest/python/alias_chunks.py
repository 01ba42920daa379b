"""Module-level names that stand for another definition: a plain alias
(`websocket_listener = WebsocketListenerRouteHandler`) and a pre-configured one
(`frozen = partial(define, frozen=True)`). Each is a public way to reach the
definition, so it gets a chunk of its own that points at it (`alias_of`), and a lookup
of the name finds the definition."""

from __future__ import annotations

import ast

from ctxhub.core.knowledge import Chunk, ChunkMeta
from ctxhub.ingest.embed_text import build_embed_text
from ctxhub.ingest.python.callgraph import alias_targets, dotted_chain
from ctxhub.ingest.python.definition_chunks import FileContext

#: Calls whose result is their first argument with some arguments already bound.
_PARTIALS = frozenset({"functools.partial", "functools.partialmethod"})


def alias_chunks(f: FileContext, tree: ast.Module, defined: dict[str, str]) -> list[Chunk]:
    """One chunk per alias name; every name of a chained assignment is one
    (`s = attributes = attrs`)."""
    out: list[Chunk] = []
    for stmt in tree.body:
        if not isinstance(stmt, ast.Assign):
            continue
        named, bound = _aliased(f, stmt.value)
        if named is None:
            continue
        chain = dotted_chain(named)
        if chain is None:
            continue
        target = defined.get(chain[0]) if len(chain) == 1 else None
        if target is None and chain[0] in f.ctx.imports.bindings:
            target = f.ctx.imports.qualify(".".join(chain))
        if target is None or not f.ctx.is_internal(target):
            continue  # an alias of a constant or of another library's name: not an API
        for name in alias_targets(stmt):
            if name not in defined:
                out.append(_alias_chunk(f, stmt, name, target, bound))
    return out


def _aliased(f: FileContext, value: ast.expr) -> tuple[ast.expr | None, str | None]:
    """The expression a name stands for, and the arguments a partial binds to it
    (`frozen=True, on_setattr=None`); (None, None) when the value is neither."""
    if isinstance(value, ast.Name | ast.Attribute):
        return value, None
    if not (isinstance(value, ast.Call) and value.args):
        return None, None
    func = dotted_chain(value.func)
    if func is None or f.ctx.imports.qualify(".".join(func)) not in _PARTIALS:
        return None, None
    first, *rest = value.args
    bound = ", ".join([*(ast.unparse(a) for a in rest), *(ast.unparse(k) for k in value.keywords)])
    return first, bound


def _alias_chunk(
    f: FileContext, stmt: ast.Assign, name: str, target: str, bound: str | None
) -> Chunk:
    end = stmt.end_lineno or stmt.lineno
    text = "\n".join(line.rstrip() for line in f.lines[stmt.lineno - 1 : end]).strip() or name
    symbol = f"{f.module}.{name}"
    short = target.rsplit(".", 1)[-1]
    about = f"{short} with {bound} already set" if bound else f"alias of {target}"
    extra: dict[str, object] = {"alias_of": target}
    if bound is not None:
        extra["bound_arguments"] = bound
    return f.chunk(
        symbol,
        0,
        title=name,
        section=f.module,
        span=(stmt.lineno, end),
        content=text,
        embed=build_embed_text([symbol, about], text),
        meta=ChunkMeta(chunk_type="alias", module=f.module, language="python", extra=extra),
    )
