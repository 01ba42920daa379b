"""A chunk of its own for each documented class attribute: a class-level assignment or
annotation followed by a string literal (Sphinx's attribute docstring: `stream:
ReadableIO | None` then `\"\"\"A file-like object ...\"\"\"`, a dataclass field with its
docstring), so `pkg.mod.Class.attr` is a definition a lookup opens, a re-export reaches
(`pkg.Class.attr`) and a deprecation note in that docstring is told against.

Lookup-only, like constants: found by its name, never ranked on its few words (the class
chunk already lists the attribute among its fields for search). An attribute without a
docstring gets no chunk: nothing tells what it is for beyond the class's listing."""

from __future__ import annotations

import ast
import textwrap

from ctxhub.core.knowledge import LOOKUP_ONLY, Chunk, ChunkMeta
from ctxhub.ingest.embed_text import build_embed_text
from ctxhub.ingest.python.definition_chunks import FileContext
from ctxhub.ingest.python.definitions import Definition, documented_attributes, first_line
from ctxhub.ingest.python.source import segment


def attribute_chunks(f: FileContext, d: Definition, taken: set[str]) -> list[Chunk]:
    """One `attribute` chunk per documented attribute name of class `d`, except the
    names a member of the class already carries (`taken`: a method, a property, a
    nested class of that name). A name documented twice is one chunk: the later
    binding, as at class creation."""
    node = d.node
    if not isinstance(node, ast.ClassDef) or d.local_to is not None:
        return []  # a class made inside a function, at any depth, offers no API
    out: dict[str, Chunk] = {}
    for attribute in documented_attributes(node.body):
        stmt = attribute.statement
        span = (stmt.lineno, attribute.literal.end_lineno or attribute.literal.lineno)
        content = segment(f.lines, *span)
        annotation = ast.unparse(stmt.annotation) if isinstance(stmt, ast.AnnAssign) else None
        for name in attribute.names:
            qualname = f"{d.qualname}.{name}"
            symbol = f"{f.module}.{qualname}"
            if name.startswith("__") or symbol in taken:
                continue
            header = [symbol, f"attribute of {d.qualname}", annotation, first_line(attribute.doc)]
            out[symbol] = f.chunk(
                symbol,
                0,
                title=qualname,
                section=d.qualname,
                span=span,
                content=content,
                embed=build_embed_text(header, textwrap.dedent(content)),
                meta=ChunkMeta(
                    chunk_type="attribute",
                    module=f.module,
                    class_name=d.qualname,
                    signature=annotation,
                    language="python",
                    extra={LOOKUP_ONLY: True},
                ),
            )
    return list(out.values())
