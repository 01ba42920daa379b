"""Indexed API chunks by name: exact and suffix lookups in a stable preference order,
and the definitions a module's recorded re-exports stand for. The building blocks of
the symbol cascade (`resolve.py`) and of class hierarchies (`hierarchy.py`), kept apart
so both can use them without importing each other."""

from __future__ import annotations

from collections.abc import Sequence

from ctxhub.core.knowledge import Chunk, ChunkQuery
from ctxhub.search.reexports import bound_groups
from ctxhub.search.stubs import is_stub
from ctxhub.store.protocol import Store

#: Modules a re-export is followed through at most (`pkg` -> `pkg._a` -> `pkg._b` ...).
MAX_REEXPORT_DEPTH = 5

#: Definitions before overviews when a name matches several chunks.
_TYPE_ORDER = {"class": 0, "method": 1, "function": 1, "module": 3}


def by_preference(chunks: Sequence[Chunk]) -> list[Chunk]:
    return sorted(
        chunks,
        key=lambda c: (
            _TYPE_ORDER.get(c.metadata.chunk_type or "", 2),
            is_stub(c),  # the code that runs before its type stub (search/stubs.py)
            len(c.symbol or ""),
            c.path,
            c.line_start or 0,
        ),
    )


def api_chunks(
    store: Store,
    source: str | None = None,
    *,
    symbol: str | None = None,
    symbol_name: str | None = None,
    chunk_types: tuple[str, ...] = (),
    calls: str | None = None,
    limit: int | None = None,
) -> list[Chunk]:
    query = ChunkQuery(
        kind="api",
        source=source,
        symbol=symbol,
        symbol_name=symbol_name,
        chunk_types=chunk_types,
        calls=calls,
        limit=limit,
    )
    # a lookup's first answer is the code that runs, not a `.pyi` or `@overload` of it
    return sorted(store.find_chunks(query), key=is_stub)


def with_suffix(
    store: Store,
    name: str,
    source: str | None = None,
    chunk_types: Sequence[str] | None = None,
) -> list[Chunk]:
    """API chunks whose symbol is `name` or ends with `.name` (case-insensitive)."""
    return by_preference(
        api_chunks(store, source, symbol_name=name, chunk_types=tuple(chunk_types or ()))
    )


def recorded_reexport(
    store: Store,
    name: str,
    source: str | None = None,
    depth: int = 0,
    seen: set[str] | None = None,
) -> list[Chunk]:
    """The definitions `pkg.mod.name` stands for by what module `pkg.mod` recorded at
    ingest that it binds (search/reexports.bound_groups: its declared API, its imports,
    a lazy-import table, its star imports), followed through further re-exports (a
    public module importing from a private one that re-exports in turn), at most
    `MAX_REEXPORT_DEPTH` modules deep and never twice through one name (a constant the
    target module records is a chunk of its own: its definition). [] when the module is
    not indexed or binds no such name."""
    seen = seen if seen is not None else set()
    if "." not in name or depth > MAX_REEXPORT_DEPTH or name in seen:
        return []
    seen.add(name)
    modules = api_chunks(store, source, symbol=name.rsplit(".", 1)[0], chunk_types=("module",))
    for targets in bound_groups(store, modules, name, source):
        found: dict[str, Chunk] = {}
        for target in targets:
            chunks = api_chunks(store, source, symbol=target) or recorded_reexport(
                store, target, source, depth + 1, seen
            )
            # the best definition per source: with two versions of a package indexed,
            # each is kept, and the caller puts the installed one first
            per_source: dict[str, Chunk] = {}
            for c in by_preference(chunks):
                per_source.setdefault(c.source, c)
            found.update((c.id, c) for c in per_source.values())
        if found:
            return list(found.values())
    return []
