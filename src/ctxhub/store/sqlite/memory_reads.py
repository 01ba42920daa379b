"""Memory reads in the SQLite store: records by id (with stale links), BM25 and exact
cosine over their vector spaces, listings, counts and feedback summaries. A mixin of
SQLiteStore (it shares the connection)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from typing import Any

from ctxhub.core.records import MemoryFilters, Record, TermStats
from ctxhub.embed.base import Vectors
from ctxhub.store.sqlite.fts import match_any
from ctxhub.store.sqlite.memory_rows import (
    RATINGS_BY,
    RECORD_BM25_WEIGHTS,
    memory_where,
    records_in_order,
)
from ctxhub.store.sqlite.reads import ids_with_prefix
from ctxhub.store.sqlite.vectors import Matrix, allowed_rowids, ids_for, load_matrix, top_cosine

#: FTS columns a BM25 search may be restricted to
FTS_COLUMNS = frozenset({"problem", "error_type", "stack_trace", "solution", "code"})


#: process-wide record matrices: (store, model, space) -> the matrix of that space
_MATRICES: dict[tuple[str, str, str], Matrix] = {}
_MATRIX_LOCK = threading.Lock()


class MemoryReads:
    conn: sqlite3.Connection
    location: str

    # -- generation ------------------------------------------------------------------
    def memory_generation(self) -> int:
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'memory_generation'").fetchone()
        return int(row[0]) if row else 0

    def knowledge_feedback(self, ids: Sequence[str]) -> dict[str, tuple[int, int]]:
        """{chunk id: (useful, not useful)} for the rated ones among `ids`."""
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        return {
            r[0]: (int(r[1]), int(r[2]))
            for r in self.conn.execute(
                "SELECT chunk_id, useful, not_useful FROM knowledge_feedback "
                f"WHERE chunk_id IN ({marks})",
                list(ids),
            )
        }

    def unhelpful_queries(self, limit: int = 10) -> list[tuple[str, int]]:
        """Queries whose knowledge results were rated not useful, most often first."""
        return [
            (str(r[0]), int(r[1]))
            for r in self.conn.execute(
                "SELECT query, COUNT(*) AS n FROM feedback_events WHERE target_kind = "
                "'knowledge' AND worked = 0 AND query IS NOT NULL AND query != '' "
                "GROUP BY query ORDER BY n DESC, MAX(created_at) DESC LIMIT ?",
                (limit,),
            )
        ]

    def ratings_by(self, target: str) -> list[tuple[str, int, int]]:
        rows = self.conn.execute(RATINGS_BY.replace("%s", "?"), (target,)).fetchall()
        return [(str(r[0]), int(r[1]), int(r[2])) for r in rows]

    def unhelpful_targets(self, query: str, limit: int = 10) -> list[tuple[str, int]]:
        """(knowledge hit id, times) rated not useful for `query`, most often first."""
        return [
            (str(r[0]), int(r[1]))
            for r in self.conn.execute(
                "SELECT target, COUNT(*) AS n FROM feedback_events WHERE target_kind = "
                "'knowledge' AND worked = 0 AND query = ? "
                "GROUP BY target ORDER BY n DESC, MAX(created_at) DESC LIMIT ?",
                (query, limit),
            )
        ]

    # -- reads -------------------------------------------------------------------------
    def record_ids_with_prefix(self, prefix: str, limit: int = 2) -> list[str]:
        return ids_with_prefix(self.conn, "records", prefix, limit)

    def get_records(self, ids: Sequence[str]) -> list[Record]:
        """Records by id, in the order asked (unknown ids left out), with stale links."""
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        rows = {
            r["id"]: r
            for r in self.conn.execute(f"SELECT * FROM records WHERE id IN ({marks})", list(ids))
        }
        links = self._links([r["rowid"] for r in rows.values()])
        return records_in_order(ids, rows, links)

    def _links(self, rowids: Sequence[int]) -> dict[int, list[tuple[str, bool]]]:
        """{record rowid: [(symbol, stale)]}: stale when no chunk of that symbol still has
        the content it had when the record was linked (changed, or gone)."""
        if not rowids:
            return {}
        marks = ", ".join("?" for _ in rowids)
        out: dict[int, list[tuple[str, bool]]] = {}
        for r in self.conn.execute(
            "SELECT l.record, l.symbol, EXISTS (SELECT 1 FROM chunks c WHERE c.symbol = "
            "l.symbol AND c.content_hash = l.content_hash) AS fresh FROM record_links l "
            f"WHERE l.record IN ({marks}) ORDER BY l.symbol",
            list(rowids),
        ):
            out.setdefault(int(r[0]), []).append((str(r[1]), not r[2]))
        return out

    def aliases(self) -> list[tuple[str, str]]:
        rows = self.conn.execute("SELECT alias, record_id FROM record_aliases ORDER BY alias")
        return [(str(a), str(r)) for a, r in rows]

    def record_links(self, record_id: str) -> list[tuple[str, str]]:
        rows = self.conn.execute(
            "SELECT l.symbol, l.content_hash FROM record_links l JOIN records r "
            "ON r.rowid = l.record WHERE r.id = ? ORDER BY l.symbol",
            (record_id,),
        )
        return [(str(s), str(h)) for s, h in rows]

    def resolve_alias(self, alias: str) -> str | None:
        """The record an importer's id was merged into, if it was."""
        row = self.conn.execute(
            "SELECT record_id FROM record_aliases WHERE alias = ?", (alias,)
        ).fetchone()
        return None if row is None else str(row[0])

    def record_text_hash(self, record_id: str) -> str | None:
        row = self.conn.execute(
            "SELECT text_hash FROM records WHERE id = ?", (record_id,)
        ).fetchone()
        return None if row is None else str(row[0])

    def record_vectors(self, record_id: str, model: str) -> dict[str, Vectors]:
        rows = self.conn.execute(
            "SELECT v.space, v.vec FROM record_vectors v JOIN records r ON r.rowid = v.record "
            "WHERE r.id = ? AND v.model = ?",
            (record_id, model),
        ).fetchall()
        import numpy as np

        return {str(r[0]): np.frombuffer(r[1], dtype="<f4").copy() for r in rows}

    def records_without_vectors(self, model: str, limit: int = 500) -> list[str]:
        """Ids of records with no problem vector for `model` (pending, or another model)."""
        return [
            str(r[0])
            for r in self.conn.execute(
                "SELECT id FROM records r WHERE NOT EXISTS (SELECT 1 FROM record_vectors v "
                "WHERE v.record = r.rowid AND v.space = 'problem' AND v.model = ?) LIMIT ?",
                (model, limit),
            )
        ]

    def record_bm25(
        self,
        terms: Sequence[str],
        filters: MemoryFilters,
        limit: int,
        fields: Sequence[str] | None = None,
    ) -> list[tuple[str, float]]:
        """Records whose text holds any of `terms`, BM25-ranked; `fields` restricts the
        match to those text fields (of FTS_COLUMNS)."""
        if fields and not set(fields) <= FTS_COLUMNS:
            raise ValueError(f"unknown record text fields: {sorted(set(fields) - FTS_COLUMNS)}")
        match = match_any(terms)
        if match is None:
            return []
        where, params = memory_where(filters)
        weights = ", ".join(str(w) for w in RECORD_BM25_WEIGHTS)
        expression = f"{{{' '.join(fields)}}} : ({match})" if fields else match
        rows = self.conn.execute(
            f"SELECT r.id, bm25(records_fts, {weights}) AS s FROM records_fts "
            "JOIN records r ON r.rowid = records_fts.rowid "
            f"WHERE records_fts MATCH ? AND {where} ORDER BY s LIMIT ?",
            (expression, *params, limit),
        ).fetchall()
        return [(str(r[0]), -float(r[1])) for r in rows]

    def record_term_stats(self, terms: Sequence[str], record_ids: Sequence[str]) -> TermStats:
        """How many records hold each term (FTS5's tokenizer decides what matches), and
        which of `record_ids` do. One count and one rowid-restricted match per term."""
        total = int(self.conn.execute("SELECT count(*) FROM records").fetchone()[0])
        rowids = {
            int(r[0]): str(r[1])
            for r in self.conn.execute(
                f"SELECT rowid, id FROM records WHERE id IN ({', '.join('?' for _ in record_ids)})",
                list(record_ids),
            )
        }
        marks = ", ".join("?" for _ in rowids)
        doc_freq: dict[str, int] = {}
        present: dict[str, set[str]] = {rid: set() for rid in rowids.values()}
        for term in terms:
            phrase = '"' + term.replace('"', "").replace("\x00", "") + '"'
            if phrase == '""':
                continue
            count = self.conn.execute(
                "SELECT count(*) FROM records_fts WHERE records_fts MATCH ?", (phrase,)
            ).fetchone()[0]
            doc_freq[term] = int(count)
            if count and rowids:
                for r in self.conn.execute(
                    "SELECT rowid FROM records_fts WHERE records_fts MATCH ?"
                    f" AND rowid IN ({marks})",
                    (phrase, *rowids),
                ):
                    present[rowids[int(r[0])]].add(term)
        return TermStats(records=total, doc_freq=doc_freq, present=present)

    def record_dense(
        self, space: str, query: Vectors, model: str, filters: MemoryFilters, limit: int
    ) -> list[tuple[str, float]]:
        """Exact cosine over one vector space of the filtered records."""
        m = self._space_matrix(space, model)
        if m.rowids.size == 0:
            return []
        where, params = memory_where(filters)
        allowed = allowed_rowids(self.conn, "records r", where, params)
        return ids_for(self.conn, "records", top_cosine(m, query, limit, allowed))

    def _space_matrix(self, space: str, model: str) -> Matrix:
        generation = self.memory_generation()
        key = (self.location, model, space)
        with _MATRIX_LOCK:
            current = _MATRICES.get(key)
            if current is not None and current.generation == generation:
                return current
            rows = self.conn.execute(
                "SELECT record, vec FROM record_vectors WHERE space = ? AND model = ? "
                "ORDER BY record",
                (space, model),
            ).fetchall()
            dim = len(rows[0][1]) // 4 if rows else 0
            current = _MATRICES[key] = load_matrix(rows, dim, generation)
            return current

    def list_records(
        self,
        filters: MemoryFilters,
        limit: int,
        offset: int = 0,
        order: str = "recent",
    ) -> tuple[list[Record], int]:
        """A page of the filtered records and the size of the whole set."""
        where, params = memory_where(filters)
        total = self._count_records(where, params)
        by = {
            "recent": "r.last_seen DESC, r.rowid DESC",
            "useful": "(r.worked - r.not_worked) DESC, r.occurrences DESC, r.last_seen DESC",
        }[order]
        ids = [
            str(r[0])
            for r in self.conn.execute(
                f"SELECT r.id FROM records r WHERE {where} ORDER BY {by} LIMIT ? OFFSET ?",
                (*params, limit, offset),
            )
        ]
        return self.get_records(ids), total

    def records_after(
        self, filters: MemoryFilters, limit: int, after: tuple[float, int] | None = None
    ) -> tuple[list[Record], int, tuple[float, int] | None]:
        """Most recently seen first, the page after the keyset position `after`
        (last_seen, rowid); returns the page, the size of the whole set and the position
        of its last record. Keyset paging: a record merged (seen again) between two pages
        moves to the front and is not shown twice, and nothing else shifts."""
        where, params = memory_where(filters)
        total = self._count_records(where, params)
        clause, keyset = where, list(params)
        if after is not None:
            clause = f"({where}) AND (r.last_seen < ? OR (r.last_seen = ? AND r.rowid < ?))"
            keyset += [after[0], after[0], after[1]]
        rows = self.conn.execute(
            f"SELECT r.id, r.last_seen, r.rowid FROM records r WHERE {clause} "
            "ORDER BY r.last_seen DESC, r.rowid DESC LIMIT ?",
            (*keyset, limit),
        ).fetchall()
        last = (float(rows[-1][1]), int(rows[-1][2])) if rows else None
        return self.get_records([str(r[0]) for r in rows]), total, last

    def _count_records(self, where: str, params: list[object]) -> int:
        row = self.conn.execute(f"SELECT COUNT(*) FROM records r WHERE {where}", params)
        return int(row.fetchone()[0])

    def iter_records(self, batch: int = 200) -> Iterator[Record]:
        last = 0
        while True:
            rows = self.conn.execute(
                "SELECT rowid, id FROM records WHERE rowid > ? ORDER BY rowid LIMIT ?",
                (last, batch),
            ).fetchall()
            if not rows:
                return
            last = int(rows[-1][0])
            yield from self.get_records([str(r[1]) for r in rows])

    def memory_counts(self) -> dict[str, Any]:
        """Totals for status: records by source, ratings, pending (unembedded) records."""
        by_source = {
            str(r[0]): int(r[1])
            for r in self.conn.execute("SELECT source, COUNT(*) FROM records GROUP BY source")
        }
        row = self.conn.execute(
            "SELECT COUNT(*), COALESCE(SUM(worked), 0), COALESCE(SUM(not_worked), 0), "
            "COALESCE(SUM(variant_of IS NOT NULL), 0) FROM records"
        ).fetchone()
        knowledge = self.conn.execute(
            "SELECT COALESCE(SUM(useful), 0), COALESCE(SUM(not_useful), 0) FROM knowledge_feedback"
        ).fetchone()
        return {
            "records": int(row[0]),
            "by_source": by_source,
            "variants": int(row[3]),
            "worked": int(row[1]),
            "not_worked": int(row[2]),
            "knowledge_useful": int(knowledge[0]),
            "knowledge_not_useful": int(knowledge[1]),
        }
