"""The Store seam: what ingestion writes and retrieval reads, whatever the backend."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from pydantic import BaseModel, Field

from ctxhub.embed.base import Vectors
from ctxhub.models import Chunk, Deprecation, SearchFilters


class StoreError(RuntimeError):
    """A store cannot be used as asked (model mismatch, newer schema, unreadable file)."""


class ModelMismatchError(StoreError):
    pass


class StoreCorruptError(StoreError):
    """The store file is damaged (not a database, or a malformed page).

    The message names the fix: restore the file from a backup, or move it aside and
    `ctxhub refresh --force` into a new store; memory records can be exported with
    `ctxhub export` only while the file is still readable.
    """


class StoreFullError(StoreError):
    """The disk (or the file system holding the store) is full: a write was rolled back
    and the last committed index is unchanged."""


class StoreReadOnlyError(StoreError):
    """The store file (or the directory or mount it lives on) cannot be written.

    Reads still work; every write raises this with "the store <path> is read-only".
    """


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

    def close(self) -> None: ...

    # -- model guard and generation ------------------------------------------------
    def bind_model(self, model: str, dim: int) -> None:
        """Record the embedding model on first use; raise ModelMismatchError after."""
        ...

    def generation(self) -> int: ...

    # -- writes ------------------------------------------------------------------
    def replace_file(
        self,
        source: str,
        file: str,
        chunks: Sequence[Chunk],
        file_state: FileState | None = None,
        deprecations: Sequence[Deprecation] = (),
    ) -> ReplaceResult:
        """Make `chunks` the whole content of (source, file), in one transaction."""
        ...

    def remove_file(self, source: str, file: str) -> int: ...

    def delete_source(self, source: str) -> int: ...

    def put_embeddings(self, model: str, items: Sequence[tuple[str, Vectors]]) -> None: ...

    def drop_other_models(self, model: str) -> int:
        """Delete cached embeddings of every other model; how many went."""
        ...

    def missing_embeddings(
        self, model: str, limit: int = 1000, source: str | None = None
    ) -> list[tuple[str, str]]:
        """(embed_hash, embed_text) of chunks without a vector for `model`."""
        ...

    def upsert_source(self, state: SourceState) -> None: ...

    # -- reads -------------------------------------------------------------------
    def get_chunks(self, ids: Sequence[str]) -> list[Chunk]: ...

    def term_frequencies(self, terms: Sequence[str]) -> tuple[dict[str, int], int]:
        """({term: chunks containing it}, total chunks), as the text index tokenises."""
        ...

    def bm25(
        self, match: str, filters: SearchFilters, kinds: list[str] | None, limit: int
    ) -> list[tuple[str, float]]: ...

    def dense(
        self, query: Vectors, filters: SearchFilters, kinds: list[str] | None, limit: int
    ) -> list[tuple[str, float]]: ...

    def symbol_lookup(
        self, names: Sequence[str], filters: SearchFilters, kinds: list[str] | None, limit: int
    ) -> list[tuple[str, float]]: ...

    def list_ids(
        self, filters: SearchFilters, kinds: list[str] | None, limit: int, offset: int = 0
    ) -> tuple[list[str], int]:
        """Ids of the whole filtered set in a stable order, and its size."""
        ...

    def sources(self) -> list[SourceState]: ...

    def file_states(self, source: str) -> dict[str, FileState]: ...

    def counts(self) -> dict[str, dict[str, int]]:
        """{source: {kind: n}}."""
        ...

    def deprecations(self, symbol: str) -> list[Deprecation]: ...

    def knowledge_feedback(self, ids: Sequence[str]) -> dict[str, tuple[int, int]]:
        """{chunk id: (useful, not useful)} ratings of the rated ones among `ids`."""
        ...
