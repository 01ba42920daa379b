"""The Store seam: what ingestion writes and retrieval reads, whatever the backend.

`Store` is the knowledge half, `MemoryStore` (memory_protocol.py) the memory half, and
`HubStore` both: what `store.factory.open_store` returns and every layer above types
on. Terms and filters arrive as data (never SQL or FTS syntax), so any backend can
answer them; `tests/conformance/` is the contract each backend passes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from pydantic import BaseModel, Field

from ctxhub.core.knowledge import Chunk, ChunkQuery, Deprecation, SearchFilters
from ctxhub.embed.base import Vectors
from ctxhub.store.memory_protocol import MemoryStore
from ctxhub.store.token_protocol import TokenStore


class ReplaceResult(BaseModel):
    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0


class SourceState(BaseModel):
    """What the store remembers about one source between refreshes."""

    name: str
    kinds: list[str] = Field(default_factory=list)
    origin: str = ""
    root: str | None = None
    version: str | None = None
    commit: str | None = None
    status: str = "new"  # new | ok | failed
    error: str | None = None
    last_refresh: float | None = None  # unix time
    stats: dict[str, Any] = Field(default_factory=dict)


class FileState(BaseModel):
    path: str
    hash: str
    kind: str = ""
    status: str = "ok"  # ok | skipped
    reason: str | None = None


class Store(Protocol):
    """Chunks, their vectors, sources and deprecations. Every write method is atomic."""

    location: str
    read_only: bool

    def close(self) -> None: ...

    def __enter__(self) -> Any: ...

    def __exit__(self, *exc: object) -> None: ...

    # -- health, model guard and generation ---------------------------------------------
    def check_integrity(self) -> None:
        """Raise StoreCorruptError when the store is found damaged (a quick check)."""
        ...

    def schema_version(self) -> int: ...

    def size_bytes(self) -> int:
        """How much space the store takes (its files, or its database's relations)."""
        ...

    def update_statistics(self) -> None:
        """After a bulk write (`migrate`): refresh the query planner's statistics, so the
        first searches over the new rows are planned from them, not from guesses."""
        ...

    def health(self) -> list[tuple[str, bool, str]]:
        """(check, ok, detail) of everything this backend can verify about itself: its
        engine's features, the connection or file, the schema, the data's integrity."""
        ...

    @property
    def model(self) -> tuple[str, int] | None:
        """(model id, dimension) the stored vectors belong to; None before any."""
        ...

    def bind_model(self, model: str, dim: int) -> None:
        """Record the embedding model on first use; raise ModelMismatchError after."""
        ...

    def rebind_model(self, model: str, dim: int) -> None:
        """Switch the store to another model (its vectors are re-made by the caller)."""
        ...

    def generation(self) -> int:
        """A counter every knowledge write moves (caches key on it)."""
        ...

    def transaction(self, counter: str | None = "generation") -> AbstractContextManager[Any]:
        """Make several writes one atomic change, moving `counter` once."""
        ...

    # -- writes ------------------------------------------------------------------
    def replace_file(
        self,
        source: str,
        file: str,
        chunks: Sequence[Chunk],
        file_state: FileState | None = None,
        deprecations: Sequence[Deprecation] = (),
        texts: Mapping[str, str] | None = None,
    ) -> ReplaceResult:
        """Make `chunks` the whole content of (source, file) in one transaction, with
        the unit's deprecations, its file state and (for code) the text of its files."""
        ...

    def mark_file(self, source: str, state: FileState) -> None:
        """Remember a file's state (e.g. skipped, with its reason) without chunks."""
        ...

    def remove_file(self, source: str, file: str) -> int: ...

    def relabel_version(self, source: str, version: str | None) -> int:
        """Label every chunk of `source` with the version it was indexed at; how many
        changed."""
        ...

    def delete_source(self, source: str) -> int: ...

    def put_embeddings(self, model: str, items: Sequence[tuple[str, Vectors]]) -> None: ...

    def embeddings_for(self, model: str, hashes: Sequence[str]) -> dict[str, Vectors]:
        """The cached vectors of `model` for these text hashes (the ones it has)."""
        ...

    def drop_other_models(self, model: str) -> int:
        """Delete cached embeddings of every other model; how many went."""
        ...

    def missing_embeddings(
        self, model: str, limit: int = 1000, source: str | None = None
    ) -> list[tuple[str, str]]:
        """(embed_hash, embed_text) of chunks without a vector for `model`."""
        ...

    def count_missing_embeddings(self, model: str, source: str | None = None) -> int: ...

    def embedding_coverage(self, model: str) -> tuple[int, int]:
        """(chunks with a vector for `model`, all chunks)."""
        ...

    def upsert_source(self, state: SourceState, *, bump: bool = True) -> None: ...

    # -- reads -------------------------------------------------------------------
    def get_chunks(self, ids: Sequence[str]) -> list[Chunk]:
        """The chunks of `ids` that exist, in the order asked."""
        ...

    def chunk_ids_with_prefix(self, prefix: str, limit: int = 2) -> list[str]:
        """Up to `limit` chunk ids that start with `prefix` (a shortened id a person
        typed), in id order."""
        ...

    def find_chunks(self, query: ChunkQuery) -> list[Chunk]:
        """Chunks matching every field of `query`, in a stable order (no ranking)."""
        ...

    def unit_of(self, chunk_id: str) -> tuple[str, str] | None:
        """(source, unit) of the file or example unit a chunk was made from."""
        ...

    def file_text(self, source: str, path: str) -> str | None:
        """The stored text of an indexed file (None when that file's text is not kept)."""
        ...

    def unit_texts(self, source: str, unit: str) -> list[tuple[str, str]]:
        """(path, text) of every file kept for one example unit, by path."""
        ...

    def doc_pages(self, source: str | None = None) -> list[tuple[str, str]]:
        """(source, path) of every doc page, optionally of one source."""
        ...

    def term_frequencies(self, terms: Sequence[str]) -> tuple[dict[str, int], int]:
        """({term: chunks containing it}, total chunks), as the text index tokenises."""
        ...

    def bm25(
        self, terms: Sequence[str], filters: SearchFilters, kinds: list[str] | None, limit: int
    ) -> list[tuple[str, float]]:
        """Chunks holding any of `terms` (each a word or an exact phrase), BM25-ranked:
        (id, score), best first."""
        ...

    def dense(
        self, query: Vectors, filters: SearchFilters, kinds: list[str] | None, limit: int
    ) -> list[tuple[str, float]]:
        """Chunks nearest to `query` by cosine among the filtered set, best first."""
        ...

    def dense_windows(
        self, query: Vectors, filters: SearchFilters, kinds: list[str] | None, limit: int
    ) -> list[tuple[str, float, float]]:
        """Chunks with window texts (`Chunk.embed_windows`) among the filtered set, by
        their best window's cosine to `query`: (id, the chunk's own cosine, the best
        window's cosine), best window first. A chunk without a vector of its own yet
        gets its best window's cosine as its own."""
        ...

    def symbol_lookup(
        self, names: Sequence[str], filters: SearchFilters, kinds: list[str] | None, limit: int
    ) -> list[tuple[str, float]]:
        """Chunks whose symbol is, or ends with, one of `names`."""
        ...

    def list_ids(
        self, filters: SearchFilters, kinds: list[str] | None, limit: int, offset: int = 0
    ) -> tuple[list[str], int]:
        """Ids of the whole filtered set in a stable order, and its size."""
        ...

    def bare_names(self, initial: str, limit: int) -> list[str]:
        """Distinct last parts of indexed symbols (lowercase) that start with `initial`,
        in order, at most `limit`: what "did you mean" compares a misspelt name with."""
        ...

    def term_matches(
        self,
        field: str,
        values: Sequence[str],
        filters: SearchFilters,
        kinds: list[str] | None,
        limit: int,
    ) -> list[tuple[str, int]]:
        """Chunks holding any of `values` among their indexed terms of `field`
        (`msgsegs`, `templates`, ...), with how many distinct ones each holds: most
        first, then in list_ids' order."""
        ...

    def exported(self, symbols: Sequence[str]) -> set[str]:
        """Those of `symbols` (qualified names) that a module declares as its API
        (`__all__`, a package's re-exports: `ingest/python/exports.py`)."""
        ...

    def exporters(self, symbols: Sequence[str]) -> dict[str, set[str]]:
        """For those of `symbols` that a module declares as its API, the qualified names
        of the modules that do (`pkg._impl.f` -> {"pkg"}): their public spellings."""
        ...

    def importers(self, symbols: Sequence[str]) -> dict[str, set[str]]:
        """For those of `symbols` that a module imports (its recorded `imports`), the
        qualified names of the modules that do (`pkg._b.f` -> {"pkg._a"}): the hops a
        re-export through private modules takes (search/reexports.public_paths)."""
        ...

    def sources(self) -> list[SourceState]: ...

    def file_states(self, source: str) -> dict[str, FileState]: ...

    def counts(self) -> dict[str, dict[str, int]]:
        """{source: {kind: n}}."""
        ...

    def deprecations(self, symbol: str) -> list[Deprecation]: ...

    def file_deprecations(self, source: str, file: str) -> list[Deprecation]:
        """The deprecations one unit recorded, as `replace_file` was given them."""
        ...

    def parameter_deprecations(self, name: str) -> list[Deprecation]:
        """The records that deprecate a parameter named exactly `name`, of any symbol."""
        ...

    def knowledge_feedback(self, ids: Sequence[str]) -> dict[str, tuple[int, int]]:
        """{chunk id: (useful, not useful)} ratings of the rated ones among `ids`."""
        ...


class HubStore(Store, MemoryStore, TokenStore, Protocol):
    """One store holding both halves: what every layer above `store/` is typed on."""
