"""A chunk of its own for each public constant a module records (`extra.constants`:
`HTTP_404_NOT_FOUND = 404`, a name in `__all__`, a type alias `Hook = Callable[...]`),
so the id a lookup prints opens that assignment, not the whole module. Lookup-only: a
constant is found by its name, never ranked on its few words."""

from __future__ import annotations

from collections.abc import Mapping

from ctxhub.core.knowledge import LOOKUP_ONLY, Chunk, ChunkMeta
from ctxhub.ingest.embed_text import build_embed_text
from ctxhub.ingest.python.definition_chunks import FileContext
from ctxhub.ingest.python.source import segment


def constant_chunks(
    f: FileContext, constants: Mapping[str, list[int]], taken: set[str]
) -> list[Chunk]:
    """One `constant` chunk per recorded constant ({name: [first line, last line]}),
    except the names another chunk of the file already carries (`taken`: an alias, an
    instance, a def of the same name)."""
    out: list[Chunk] = []
    for name, (start, end) in constants.items():
        symbol = f"{f.module}.{name}"
        if symbol in taken:
            continue
        content = segment(f.lines, start, end)
        out.append(
            f.chunk(
                symbol,
                0,
                title=name,
                section=f.module,
                span=(start, end),
                content=content,
                embed=build_embed_text([symbol, "constant"], content),
                meta=ChunkMeta(
                    chunk_type="constant",
                    module=f.module,
                    language="python",
                    extra={LOOKUP_ONLY: True},
                ),
            )
        )
    return out
