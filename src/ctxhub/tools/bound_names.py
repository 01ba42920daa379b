"""Names a module binds that are no definition of their own (a public constant), and the
definitions a dotted name that its module does not bind may have meant."""

from __future__ import annotations

from ctxhub.core.knowledge import Chunk, ChunkMeta, ChunkQuery
from ctxhub.search.reexports import module_chunks
from ctxhub.store.protocol import Store


def constant_chunks(store: Store, name: str, source: str | None = None) -> list[Chunk]:
    """`pkg.status.HTTP_404_NOT_FOUND`: the module-level assignment module `pkg.status`
    recorded (`extra.constants`: a name in its `__all__` or a public UPPER_CASE one), as
    a chunk of type `constant` spanning its lines (the module chunk's id: it has no chunk
    of its own). [] when the module records no such constant."""
    if "." not in name:
        return []
    module, last = name.rsplit(".", 1)
    out: list[Chunk] = []
    for chunk in module_chunks(store, module, source):
        span = chunk.metadata.extra.get("constants", {}).get(last)
        if not span:
            continue
        start, end = int(span[0]), int(span[1])
        lines = chunk.content.splitlines()  # the overview, not the file: replaced below
        text = store.file_text(chunk.source, chunk.path)
        if text is not None:
            lines = text.splitlines()[start - 1 : end]
        meta = ChunkMeta(chunk_type="constant", module=module, language="python")
        out.append(
            chunk.model_copy(
                update={
                    "symbol": name,
                    "title": last,
                    "line_start": start,
                    "line_end": end,
                    "content": "\n".join(lines),
                    "metadata": meta,
                }
            )
        )
    return out


def module_constants(store: Store, module: str, source: str | None = None) -> list[str]:
    """The qualified names of the constants module `module` records (`extra.constants`:
    `pkg.status.HTTP_404_NOT_FOUND`), in order; [] when it is no indexed module."""
    names = {
        str(name): None
        for chunk in module_chunks(store, module, source)
        for name in chunk.metadata.extra.get("constants", {})
    }
    return [f"{module}.{name}" for name in names]


def defined_below(store: Store, name: str, source: str | None = None) -> list[str]:
    """`pkg.Request` that `pkg` does not bind: the definitions named `Request` (its case)
    in the modules below `pkg` (`pkg.requests.Request`), shortest first."""
    if "." not in name:
        return []
    package, last = name.rsplit(".", 1)
    query = ChunkQuery(kind="api", source=source, symbol_name=last)
    found = {
        c.symbol
        for c in store.find_chunks(query)
        if c.symbol
        and c.symbol.startswith(f"{package}.")
        and c.symbol.rsplit(".", 1)[-1] == last
        and c.metadata.chunk_type in ("class", "function", "instance", "alias")
    }
    return sorted(found, key=lambda s: (s.count("."), len(s), s))
