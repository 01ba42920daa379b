"""The memory half of the Store seam: what records, feedback and their search need from a
backend. SQLite implements it in `sqlite/memory_writes.py` and `sqlite/memory_reads.py`;
another backend implements the same methods, and `tests/conformance/` checks each."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Literal, Protocol

from ctxhub.core.records import MemoryFilters, Record, TermStats
from ctxhub.embed.base import Vectors


class MemoryStore(Protocol):
    def memory_generation(self) -> int:
        """A counter every memory write moves (caches of record vectors key on it)."""
        ...

    def memory_transaction(self) -> AbstractContextManager[Any]:
        """Make a read-decide-write sequence atomic (the writes below join it)."""
        ...

    def put_record(
        self,
        record: Record,
        text_hash: str,
        vectors: Mapping[str, Vectors] | None,
        model: str,
        links: Sequence[tuple[str, str]] | None = None,
        counters: Literal["keep", "max"] = "keep",
    ) -> None:
        """Insert, or rewrite texts by id keeping (or raising to the given) history;
        `vectors`/`links` None keep the stored ones."""
        ...

    def add_occurrence(self, record_id: str, tags: Sequence[str], seen: float) -> None: ...

    def add_alias(self, alias: str, record_id: str) -> None: ...

    def resolve_alias(self, alias: str) -> str | None: ...

    def aliases(self) -> list[tuple[str, str]]:
        """Every (alias, record id), by alias."""
        ...

    def record_links(self, record_id: str) -> list[tuple[str, str]]:
        """(symbol, content hash) a record was linked to, as `put_record` took them."""
        ...

    def set_record_tags(self, record_id: str, tags: Sequence[str]) -> bool:
        """Replace the record's tags with `tags` (in that order, repeats dropped); False
        when there is no such record. Its texts, vectors and history stay."""
        ...

    def delete_record(self, record_id: str) -> bool: ...

    def add_feedback(
        self,
        target: str,
        target_kind: str,
        worked: bool,
        *,
        note: str | None = None,
        agent: str | None = None,
        session_id: str | None = None,
        query: str | None = None,
        author: str | None = None,
    ) -> tuple[int, int] | None:
        """Append an event and increment the counter atomically; None: unknown target.
        `author`: who rated (a bearer token's name), shown with the target."""
        ...

    def ratings_by(self, target: str) -> list[tuple[str, int, int]]:
        """(author, worked, did not work) of the rating events of `target` that name an
        author, by author."""
        ...

    def knowledge_feedback(self, ids: Sequence[str]) -> dict[str, tuple[int, int]]: ...

    def unhelpful_queries(self, limit: int = 10) -> list[tuple[str, int]]: ...

    def unhelpful_targets(self, query: str, limit: int = 10) -> list[tuple[str, int]]:
        """(knowledge hit id, times) agents rated not useful for exactly `query`, most
        often first: what they got for one of `unhelpful_queries`."""
        ...

    def get_records(self, ids: Sequence[str]) -> list[Record]:
        """In the order asked, with `linked_symbols` and `stale_symbols` filled in."""
        ...

    def record_ids_with_prefix(self, prefix: str, limit: int = 2) -> list[str]:
        """Up to `limit` record ids that start with `prefix`, in id order."""
        ...

    def record_text_hash(self, record_id: str) -> str | None: ...

    def record_vectors(self, record_id: str, model: str) -> dict[str, Vectors]: ...

    def records_without_vectors(self, model: str, limit: int = 500) -> list[str]: ...

    def record_bm25(
        self,
        terms: Sequence[str],
        filters: MemoryFilters,
        limit: int,
        fields: Sequence[str] | None = None,
    ) -> list[tuple[str, float]]:
        """Records holding any of `terms` (words or exact phrases), BM25-ranked; `fields`
        restricts the match to those text fields (problem, error_type, stack_trace,
        solution, code)."""
        ...

    def record_term_stats(self, terms: Sequence[str], record_ids: Sequence[str]) -> TermStats:
        """Document frequency of each term over all records, and which of `record_ids`
        contain it (matched the way the store's BM25 matches)."""
        ...

    def record_dense(
        self, space: str, query: Vectors, model: str, filters: MemoryFilters, limit: int
    ) -> list[tuple[str, float]]: ...

    def list_records(
        self, filters: MemoryFilters, limit: int, offset: int = 0, order: str = "recent"
    ) -> tuple[list[Record], int]: ...

    def records_after(
        self, filters: MemoryFilters, limit: int, after: tuple[float, int] | None = None
    ) -> tuple[list[Record], int, tuple[float, int] | None]:
        """Keyset paging, most recently seen first (see SQLite's implementation)."""
        ...

    def iter_records(self, batch: int = 200) -> Iterator[Record]: ...

    def memory_counts(self) -> dict[str, Any]: ...
