"""The public constants a module records (each a chunk of its own, chunk type
`constant`: ingest/python/constant_chunks.py), and the definitions a dotted name that its
module does not bind may have meant."""

from __future__ import annotations

from ctxhub.core.knowledge import ChunkQuery
from ctxhub.search.reexports import module_chunks
from ctxhub.store.protocol import Store


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
