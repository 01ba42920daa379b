"""The read side of the SQLite store: chunks by id, the four retrieval queries, listings.

A mixin of `SQLiteStore` (which owns the connection, the model binding and the writes),
kept apart so each file stays one job: how ctxhub asks SQLite and numpy for candidates.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence

from ctxhub.core.knowledge import Chunk, ChunkQuery, Deprecation, SearchFilters, parameter_note
from ctxhub.embed.base import Vectors
from ctxhub.store.protocol import FileState, SourceState
from ctxhub.store.sqlite.filters import chunk_query_where, where_clause
from ctxhub.store.sqlite.fts import document_frequencies, match_any
from ctxhub.store.sqlite.rows import (
    EMBED_TEXTS,
    READ_COLUMNS,
    WINDOWS_OF,
    chunk_from_row,
    deprecation_from_row,
    source_from_row,
    with_windows,
)
from ctxhub.store.sqlite.vectors import (
    VectorIndex,
    allowed_rowids,
    from_blob,
    ids_for,
    rowid_ids,
)

#: BM25 column weights: content, names (title/symbol/path), identifier parts.
BM25_WEIGHTS = (1.0, 4.0, 1.5)

_INDEXES: dict[tuple[str, str], VectorIndex] = {}
_INDEXES_LOCK = threading.Lock()


def _vector_index(location: str, model: str, dim: int) -> VectorIndex:
    with _INDEXES_LOCK:
        key = (location, model)
        if key not in _INDEXES:
            _INDEXES[key] = VectorIndex(model, dim)
        return _INDEXES[key]


def ids_with_prefix(conn: sqlite3.Connection, table: str, prefix: str, limit: int) -> list[str]:
    """Ids of `table` starting with `prefix`: a range on the id index, not a LIKE scan
    (and no LIKE wildcards to escape)."""
    rows = conn.execute(
        f"SELECT id FROM {table} WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
        (prefix, prefix + "\U0010ffff", limit),
    )
    return [str(r[0]) for r in rows]


class SearchQueries:
    """Read queries over `self.conn`; see SQLiteStore for the attributes' owner."""

    conn: sqlite3.Connection
    location: str
    _model: tuple[str, int] | None
    _count: tuple[int, int] | None

    def generation(self) -> int:
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        return int(row[0]) if row else 0

    def get_chunks(self, ids: Sequence[str]) -> list[Chunk]:
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        rows = self.conn.execute(
            f"SELECT {READ_COLUMNS} FROM chunks WHERE id IN ({marks})", list(ids)
        ).fetchall()
        by_id = {r["id"]: chunk_from_row(r) for r in rows}
        return [by_id[i] for i in ids if i in by_id]

    def chunk_ids_with_prefix(self, prefix: str, limit: int = 2) -> list[str]:
        return ids_with_prefix(self.conn, "chunks", prefix, limit)

    def file_text(self, source: str, path: str) -> str | None:
        """The stored text of an indexed file (None when that file's text is not kept)."""
        row = self.conn.execute(
            "SELECT text FROM file_texts WHERE source = ? AND path = ?", (source, path)
        ).fetchone()
        return None if row is None else str(row[0])

    def find_chunks(self, query: ChunkQuery) -> list[Chunk]:
        """Chunks matching every field of `query`, in a stable order."""
        where, params = chunk_query_where(query)
        limit = f" LIMIT {int(query.limit)}" if query.limit else ""
        rows = self.conn.execute(
            f"SELECT {READ_COLUMNS} FROM chunks c WHERE {where} ORDER BY c.rowid{limit}",
            params,
        ).fetchall()
        windows = self.conn.execute(WINDOWS_OF.format(where=where), params)
        return with_windows([chunk_from_row(r) for r in rows], windows)

    def unit_of(self, chunk_id: str) -> tuple[str, str] | None:
        """(source, unit) of the file or example unit a chunk was made from."""
        row = self.conn.execute(
            "SELECT source, file FROM chunks WHERE id = ?", (chunk_id,)
        ).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    def unit_texts(self, source: str, unit: str) -> list[tuple[str, str]]:
        """(path, text) of every file kept for one example unit, by path."""
        rows = self.conn.execute(
            "SELECT path, text FROM file_texts WHERE source = ? AND unit = ? ORDER BY path",
            (source, unit),
        ).fetchall()
        return [(str(r[0]), str(r[1])) for r in rows]

    def doc_pages(self, source: str | None = None) -> list[tuple[str, str]]:
        """(source, path) of every doc page, optionally of one source."""
        where, params = ("c.kind = 'doc'", [])
        if source is not None:
            where, params = "c.kind = 'doc' AND c.source = ?", [source]
        rows = self.conn.execute(
            f"SELECT DISTINCT c.source, c.path FROM chunks c WHERE {where} "
            "ORDER BY c.source, c.path",
            params,
        ).fetchall()
        return [(str(r[0]), str(r[1])) for r in rows]

    def term_frequencies(self, terms: Sequence[str]) -> tuple[dict[str, int], int]:
        """({term: chunks containing it}, total chunks), as the FTS index tokenises."""
        return document_frequencies(self.conn, terms), self.chunk_count()

    def chunk_count(self) -> int:
        """Number of ranked chunks (those in the text index: lookup-only ones are not),
        cached until the store's generation moves."""
        generation = self.generation()
        if self._count is None or self._count[0] != generation:
            row = self.conn.execute("SELECT COUNT(*) FROM chunks WHERE lookup_only = 0")
            n = int(row.fetchone()[0])
            self._count = (generation, n)
        return self._count[1]

    def bm25(
        self, terms: Sequence[str], filters: SearchFilters, kinds: list[str] | None, limit: int
    ) -> list[tuple[str, float]]:
        """Chunks holding any of `terms` (each a word or an exact phrase), BM25-ranked."""
        match = match_any(terms)
        if match is None:
            return []
        where, params = where_clause(filters, kinds)
        weights = ", ".join(str(w) for w in BM25_WEIGHTS)
        if where == "1":
            # Unfiltered: rank inside the FTS table alone (twice as fast as the join),
            # then look up the ids of the winners.
            found = self.conn.execute(
                f"SELECT rowid, bm25(chunks_fts, {weights}) AS s FROM chunks_fts "
                "WHERE chunks_fts MATCH ? ORDER BY s LIMIT ?",
                (match, limit),
            ).fetchall()
            return ids_for(self.conn, "chunks", [(int(r[0]), -float(r[1])) for r in found])
        rows = self.conn.execute(
            f"SELECT c.id, bm25(chunks_fts, {weights}) AS s FROM chunks_fts "
            "JOIN chunks c ON c.rowid = chunks_fts.rowid "
            f"WHERE chunks_fts MATCH ? AND {where} ORDER BY s LIMIT ?",
            (match, *params, limit),
        ).fetchall()
        return [(r[0], -float(r[1])) for r in rows]

    def dense(
        self, query: Vectors, filters: SearchFilters, kinds: list[str] | None, limit: int
    ) -> list[tuple[str, float]]:
        if self._model is None:
            return []
        where, params = where_clause(filters, kinds)
        allowed = allowed_rowids(self.conn, "chunks c", where, params)
        index = _vector_index(self.location, *self._model)
        found = index.search(self.conn, self.generation(), query, limit, allowed)
        return ids_for(self.conn, "chunks", found)

    def dense_windows(
        self, query: Vectors, filters: SearchFilters, kinds: list[str] | None, limit: int
    ) -> list[tuple[str, float, float]]:
        if self._model is None:
            return []
        where, params = where_clause(filters, kinds)
        allowed = allowed_rowids(self.conn, "chunks c", where, params)
        index = _vector_index(self.location, *self._model)
        found = index.search_windows(self.conn, self.generation(), query, limit, allowed)
        ids = rowid_ids(self.conn, "chunks", [r for r, _, _ in found])
        return [(ids[r], own, best) for r, own, best in found if r in ids]

    def symbol_lookup(
        self, names: Sequence[str], filters: SearchFilters, kinds: list[str] | None, limit: int
    ) -> list[tuple[str, float]]:
        """Chunks whose symbol ends with one of `names` (dotted, case-insensitive).

        Score: parts matched, +0.5 when the name is the whole symbol; longer names win.
        """
        wanted = sorted({n.lower().strip(".") for n in names if n.strip(".")})
        if not wanted:
            return []
        where, params = where_clause(filters, kinds)
        marks = ", ".join("?" for _ in wanted)
        rows = self.conn.execute(
            "SELECT c.id, MAX(s.depth + CASE WHEN s.name = lower(c.symbol) THEN 0.5 ELSE 0 END)"
            " AS score, length(c.symbol) AS n FROM symbol_names s "
            "JOIN chunks c ON c.rowid = s.chunk "
            f"WHERE s.name IN ({marks}) AND {where} GROUP BY c.id "
            "ORDER BY score DESC, n ASC LIMIT ?",
            (*wanted, *params, limit),
        ).fetchall()
        return [(r[0], float(r[1])) for r in rows]

    def exported(self, symbols: Sequence[str]) -> set[str]:
        wanted = sorted(set(symbols))
        if not wanted:
            return set()
        marks = ", ".join("?" for _ in wanted)
        rows = self.conn.execute(
            "SELECT DISTINCT value FROM chunk_terms "
            f"WHERE field = 'exports' AND value IN ({marks})",
            wanted,
        ).fetchall()
        return {r[0] for r in rows}

    def exporters(self, symbols: Sequence[str]) -> dict[str, set[str]]:
        return self._modules_with_term("exports", symbols)

    def importers(self, symbols: Sequence[str]) -> dict[str, set[str]]:
        return self._modules_with_term("imports", symbols)

    def _modules_with_term(self, field: str, symbols: Sequence[str]) -> dict[str, set[str]]:
        """{value: symbols of the chunks holding it as a term of `field`}."""
        wanted = sorted(set(symbols))
        if not wanted:
            return {}
        marks = ", ".join("?" for _ in wanted)
        rows = self.conn.execute(
            "SELECT DISTINCT t.value, c.symbol FROM chunk_terms t "
            "JOIN chunks c ON c.rowid = t.chunk "
            f"WHERE t.field = ? AND t.value IN ({marks}) AND c.symbol IS NOT NULL",
            (field, *wanted),
        ).fetchall()
        found: dict[str, set[str]] = {}
        for value, module in rows:
            found.setdefault(str(value), set()).add(str(module))
        return found

    def list_ids(
        self, filters: SearchFilters, kinds: list[str] | None, limit: int, offset: int = 0
    ) -> tuple[list[str], int]:
        where, params = where_clause(filters, kinds)
        total = self.conn.execute(
            f"SELECT COUNT(*) FROM chunks c WHERE {where}", params
        ).fetchone()[0]
        rows = self.conn.execute(
            f"SELECT c.id FROM chunks c WHERE {where} "
            "ORDER BY c.source, c.path, c.line_start, c.id LIMIT ? OFFSET ?",
            (*params, limit, offset),
        ).fetchall()
        return [r[0] for r in rows], int(total)

    def bare_names(self, initial: str, limit: int) -> list[str]:
        low = initial.lower()
        rows = self.conn.execute(
            "SELECT DISTINCT name FROM symbol_names "
            "WHERE depth = 1 AND substr(name, 1, length(?)) = ? ORDER BY name LIMIT ?",
            (low, low, limit),
        ).fetchall()
        return [r[0] for r in rows]

    def term_matches(
        self,
        field: str,
        values: Sequence[str],
        filters: SearchFilters,
        kinds: list[str] | None,
        limit: int,
    ) -> list[tuple[str, int]]:
        wanted = sorted(set(values))
        if not wanted:
            return []
        where, params = where_clause(filters, kinds)
        marks = ", ".join("?" for _ in wanted)
        rows = self.conn.execute(
            "SELECT c.id, COUNT(DISTINCT t.value) AS n FROM chunk_terms t "
            "JOIN chunks c ON c.rowid = t.chunk "
            f"WHERE t.field = ? AND t.value IN ({marks}) AND {where} GROUP BY c.id "
            "ORDER BY n DESC, c.source, c.path, c.line_start, c.id LIMIT ?",
            (field, *wanted, *params, limit),
        ).fetchall()
        return [(r[0], int(r[1])) for r in rows]

    def counts(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for r in self.conn.execute(
            "SELECT source, kind, COUNT(*) FROM chunks GROUP BY source, kind ORDER BY source"
        ):
            out.setdefault(r[0], {})[r[1]] = int(r[2])
        return out

    def deprecations(self, symbol: str) -> list[Deprecation]:
        """Deprecations recorded for `symbol`: exact, a dotted suffix match, or its bare name."""
        low = symbol.lower()
        tail = low.rsplit(".", 1)[-1]
        # exact; stored name ends with `.symbol`; symbol ends with `.stored`; bare names
        rows = self.conn.execute(
            "SELECT * FROM deprecations WHERE lower(symbol) IN (?, ?) "
            "OR substr(lower(symbol), -length(?) - 1) = '.' || ? "
            "OR substr(?, -length(symbol) - 1) = '.' || lower(symbol)",
            (low, tail, low, low, low),
        ).fetchall()
        return [deprecation_from_row(r) for r in rows]

    def embeddings_for(self, model: str, hashes: Sequence[str]) -> dict[str, Vectors]:
        out: dict[str, Vectors] = {}
        wanted = list(dict.fromkeys(hashes))
        for i in range(0, len(wanted), 500):
            batch = wanted[i : i + 500]
            rows = self.conn.execute(
                f"SELECT text_hash, vec FROM embeddings WHERE model = ? AND text_hash IN "
                f"({', '.join('?' for _ in batch)})",
                [model, *batch],
            )
            for text_hash, blob in rows:
                out[str(text_hash)] = from_blob(blob, len(blob) // 4)
        return out

    def parameter_deprecations(self, name: str) -> list[Deprecation]:
        prefix = parameter_note(name, "")  # the note a parameter record opens with
        rows = self.conn.execute(
            "SELECT * FROM deprecations WHERE substr(note, 1, length(?)) = ? ORDER BY rowid",
            (prefix, prefix),
        ).fetchall()
        return [deprecation_from_row(r) for r in rows]

    def file_deprecations(self, source: str, file: str) -> list[Deprecation]:
        rows = self.conn.execute(
            "SELECT * FROM deprecations WHERE source = ? AND file = ? ORDER BY rowid",
            (source, file),
        ).fetchall()
        return [deprecation_from_row(r) for r in rows]

    def missing_embeddings(
        self, model: str, limit: int = 1000, source: str | None = None
    ) -> list[tuple[str, str]]:
        where, params = ("AND x.src = ?", [source]) if source else ("", [])
        rows = self.conn.execute(
            f"SELECT x.h, MIN(x.t) FROM {EMBED_TEXTS} "
            "LEFT JOIN embeddings e INDEXED BY embeddings_keys "
            "ON e.model = ? AND e.text_hash = x.h "
            f"WHERE e.text_hash IS NULL {where} GROUP BY x.h "
            "ORDER BY MIN(x.pri), MIN(x.ord), MIN(x.seq) LIMIT ?",
            (model, *params, limit),
        ).fetchall()
        return [(r[0], r[1]) for r in rows]

    def count_missing_embeddings(self, model: str, source: str | None = None) -> int:
        where, params = ("AND x.src = ?", [source]) if source else ("", [])
        row = self.conn.execute(
            f"SELECT COUNT(DISTINCT x.h) FROM {EMBED_TEXTS} "
            "LEFT JOIN embeddings e INDEXED BY embeddings_keys "
            "ON e.model = ? AND e.text_hash = x.h "
            f"WHERE e.text_hash IS NULL {where}",
            (model, *params),
        ).fetchone()
        return int(row[0])

    def embedding_coverage(self, model: str) -> tuple[int, int]:
        """(chunks with a vector, chunks that want one: all but the lookup-only)."""
        row = self.conn.execute(
            "SELECT COUNT(e.text_hash), COUNT(*) FROM chunks c "
            "LEFT JOIN embeddings e INDEXED BY embeddings_keys "
            "ON e.model = ? AND e.text_hash = c.embed_hash WHERE c.lookup_only = 0",
            (model,),
        ).fetchone()
        return int(row[0]), int(row[1])

    def sources(self) -> list[SourceState]:
        return [
            source_from_row(r) for r in self.conn.execute("SELECT * FROM sources ORDER BY name")
        ]

    def file_states(self, source: str) -> dict[str, FileState]:
        return {
            r["path"]: FileState(
                path=r["path"],
                hash=r["hash"],
                kind=r["kind"],
                status=r["status"],
                reason=r["reason"],
            )
            for r in self.conn.execute("SELECT * FROM files WHERE source = ?", (source,))
        }
