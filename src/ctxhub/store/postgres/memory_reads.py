"""Memory reads in the PostgreSQL store: records by id (with stale links), the BM25-like
and cosine search paths, listings, counts and feedback summaries. A mixin of
PostgresStore; the SQL mirrors `sqlite/memory_reads.py` query for query."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from ctxhub.core.records import MemoryFilters, Record, TermStats
from ctxhub.embed.base import Vectors
from ctxhub.store.postgres.filters import memory_where
from ctxhub.store.postgres.fts import idf, phrases, query_cte
from ctxhub.store.postgres.reads import IDS_WITH_PREFIX
from ctxhub.store.postgres.record_fts import (
    field_ids,
    phrase_matches,
    record_bm25_sql,
    record_frequencies_sql,
)
from ctxhub.store.postgres.schema import RECORD_TEXT_FIELDS
from ctxhub.store.postgres.vectors import nearest_records, parse_vector
from ctxhub.store.sqlite.memory_rows import RATINGS_BY, RECORD_BM25_WEIGHTS, records_in_order

T = TypeVar("T")

#: the text fields, in the order of RECORD_BM25_WEIGHTS; each has its own tsvector column
FTS_COLUMNS = RECORD_TEXT_FIELDS


class PgMemoryReads:
    location: str
    _memory_avg: tuple[int, float] | None

    def _read(self, fn: Callable[[Any], T]) -> T:
        raise NotImplementedError  # provided by PostgresStore

    def _all(self, statement: Any, params: Any = (), *, dicts: bool = False) -> list[Any]:
        raise NotImplementedError  # provided by PostgresStore

    def _one(self, statement: Any, params: Any = ()) -> Any:
        raise NotImplementedError  # provided by PostgresStore

    def memory_generation(self) -> int:
        row = self._one("SELECT value FROM meta WHERE key = 'memory_generation'")
        return int(row[0]) if row else 0

    def knowledge_feedback(self, ids: Sequence[str]) -> dict[str, tuple[int, int]]:
        if not ids:
            return {}
        rows = self._all(
            "SELECT chunk_id, useful, not_useful FROM knowledge_feedback WHERE chunk_id = ANY(%s)",
            (list(ids),),
        )
        return {str(r[0]): (int(r[1]), int(r[2])) for r in rows}

    def unhelpful_queries(self, limit: int = 10) -> list[tuple[str, int]]:
        rows = self._all(
            "SELECT query, count(*) AS n FROM feedback_events WHERE target_kind = 'knowledge'"
            " AND worked = 0 AND query IS NOT NULL AND query != '' "
            "GROUP BY query ORDER BY n DESC, MAX(created_at) DESC LIMIT %s",
            (limit,),
        )
        return [(str(r[0]), int(r[1])) for r in rows]

    def ratings_by(self, target: str) -> list[tuple[str, int, int]]:
        rows = self._all(
            RATINGS_BY.replace("ORDER BY author", 'ORDER BY author COLLATE "C"'), (target,)
        )
        return [(str(r[0]), int(r[1]), int(r[2])) for r in rows]

    def unhelpful_targets(self, query: str, limit: int = 10) -> list[tuple[str, int]]:
        rows = self._all(
            "SELECT target, count(*) AS n FROM feedback_events WHERE target_kind = 'knowledge'"
            " AND worked = 0 AND query = %s "
            "GROUP BY target ORDER BY n DESC, MAX(created_at) DESC LIMIT %s",
            (query, limit),
        )
        return [(str(r[0]), int(r[1])) for r in rows]

    def record_ids_with_prefix(self, prefix: str, limit: int = 2) -> list[str]:
        rows = self._all(IDS_WITH_PREFIX.format(table="records"), (prefix, limit))
        return [str(r[0]) for r in rows]

    def get_records(self, ids: Sequence[str]) -> list[Record]:
        if not ids:
            return []
        rows = {
            r["id"]: r
            for r in self._all("SELECT * FROM records WHERE id = ANY(%s)", (list(ids),), dicts=True)
        }
        links = self._links([int(r["rowid"]) for r in rows.values()])
        return records_in_order(ids, rows, links)

    def _links(self, rowids: Sequence[int]) -> dict[int, list[tuple[str, bool]]]:
        """{record rowid: [(symbol, stale)]}: stale when no chunk of that symbol still has
        the content it had when the record was linked."""
        if not rowids:
            return {}
        out: dict[int, list[tuple[str, bool]]] = {}
        for r in self._all(
            "SELECT l.record, l.symbol, EXISTS (SELECT 1 FROM chunks c WHERE c.symbol = "
            "l.symbol AND c.content_hash = l.content_hash) AS fresh FROM record_links l "
            "WHERE l.record = ANY(%s) ORDER BY l.symbol",
            (list(rowids),),
        ):
            out.setdefault(int(r[0]), []).append((str(r[1]), not r[2]))
        return out

    def aliases(self) -> list[tuple[str, str]]:
        rows = self._all('SELECT alias, record_id FROM record_aliases ORDER BY alias COLLATE "C"')
        return [(str(a), str(r)) for a, r in rows]

    def record_links(self, record_id: str) -> list[tuple[str, str]]:
        rows = self._all(
            "SELECT l.symbol, l.content_hash FROM record_links l JOIN records r "
            'ON r.rowid = l.record WHERE r.id = %s ORDER BY l.symbol COLLATE "C"',
            (record_id,),
        )
        return [(str(s), str(h)) for s, h in rows]

    def resolve_alias(self, alias: str) -> str | None:
        row = self._one("SELECT record_id FROM record_aliases WHERE alias = %s", (alias,))
        return None if row is None else str(row[0])

    def record_text_hash(self, record_id: str) -> str | None:
        row = self._one("SELECT text_hash FROM records WHERE id = %s", (record_id,))
        return None if row is None else str(row[0])

    def record_vectors(self, record_id: str, model: str) -> dict[str, Vectors]:
        rows = self._all(
            "SELECT v.space, v.vec::text FROM record_vectors v JOIN records r ON r.rowid = "
            "v.record WHERE r.id = %s AND v.model = %s",
            (record_id, model),
        )
        return {str(r[0]): parse_vector(r[1]) for r in rows}

    def records_without_vectors(self, model: str, limit: int = 500) -> list[str]:
        rows = self._all(
            "SELECT id FROM records r WHERE NOT EXISTS (SELECT 1 FROM record_vectors v "
            "WHERE v.record = r.rowid AND v.space = 'problem' AND v.model = %s) "
            "ORDER BY r.rowid LIMIT %s",
            (model, limit),
        )
        return [str(r[0]) for r in rows]

    def _record_freqs(self, words: Sequence[str], fields: Sequence[str]) -> tuple[list[int], int]:
        """How many records hold each of `words` in `fields`, and how many there are."""
        rows = self._all(record_frequencies_sql(fields), (list(words), field_ids(fields)))
        total = int(self._one("SELECT count(*) FROM records")[0])
        return [int(r[0]) for r in rows], total

    def _record_avgdl(self) -> float:
        """Average tokens per record, cached per memory generation."""
        generation = self.memory_generation()
        if self._memory_avg is None or self._memory_avg[0] != generation:
            row = self._one("SELECT COALESCE(AVG(dl), 0) FROM records")
            self._memory_avg = (generation, float(row[0]))
        return self._memory_avg[1]

    def record_bm25(
        self,
        terms: Sequence[str],
        filters: MemoryFilters,
        limit: int,
        fields: Sequence[str] | None = None,
    ) -> list[tuple[str, float]]:
        """FTS5's BM25 with SQLite's field weights; `fields` restricts the match (and the
        frequencies that count) to those text fields, as an FTS5 column filter does."""
        if fields and not set(fields) <= set(FTS_COLUMNS):
            unknown = sorted(set(fields) - set(FTS_COLUMNS))
            raise ValueError(f"unknown record text fields: {unknown}")
        words = phrases(terms)
        if not words:
            return []
        chosen = [f for f in FTS_COLUMNS if not fields or f in fields]
        freqs, total = self._record_freqs(words, chosen)
        weight = dict(zip(FTS_COLUMNS, RECORD_BM25_WEIGHTS, strict=True))
        where, params = memory_where(filters)
        statement = record_bm25_sql(chosen, [weight[f] for f in chosen], where, len(words))
        idfs = [idf(n, total) for n in freqs]
        rows = self._all(statement, (*words, *words, idfs, self._record_avgdl(), *params, limit))
        return [(str(r[0]), float(r[1])) for r in rows]

    def record_term_stats(self, terms: Sequence[str], record_ids: Sequence[str]) -> TermStats:
        """How many records hold each term (counted from the postings), and which of
        `record_ids` do (a match restricted to those records)."""
        total = int(self._one("SELECT count(*) FROM records")[0])
        present: dict[str, set[str]] = {
            str(r[0]): set()
            for r in self._all("SELECT id FROM records WHERE id = ANY(%s)", (list(record_ids),))
        }
        usable = [
            (term, phrases([term])) for term in terms if term.replace('"', "").replace("\x00", "")
        ]
        words = list(dict.fromkeys(w[0] for _, w in usable if w))
        counts: dict[str, int] = {}
        if words:
            rows = self._all(record_frequencies_sql(FTS_COLUMNS), (words, field_ids(FTS_COLUMNS)))
            counts = {w: int(r[0]) for w, r in zip(words, rows, strict=True)}
        doc_freq: dict[str, int] = {}
        for term, found in usable:
            doc_freq[term] = counts[found[0]] if found else 0
            if not doc_freq[term] or not present:
                continue
            for (rid,) in self._all(
                f"WITH {query_cte(1)} SELECT r.id FROM records r, q "
                f"WHERE r.id = ANY(%s) AND {phrase_matches(FTS_COLUMNS, 'r', 'q.q0')}",
                (found[0], list(present)),
            ):
                present[str(rid)].add(term)
        return TermStats(records=total, doc_freq=doc_freq, present=present)

    def record_dense(
        self, space: str, query: Vectors, model: str, filters: MemoryFilters, limit: int
    ) -> list[tuple[str, float]]:
        where, params = memory_where(filters)
        return self._read(
            lambda conn: nearest_records(conn, space, model, query, where, params, limit)
        )

    def list_records(
        self, filters: MemoryFilters, limit: int, offset: int = 0, order: str = "recent"
    ) -> tuple[list[Record], int]:
        where, params = memory_where(filters)
        total = self._count_records(where, params)
        by = {
            "recent": "r.last_seen DESC, r.rowid DESC",
            "useful": "(r.worked - r.not_worked) DESC, r.occurrences DESC, r.last_seen DESC",
        }[order]
        rows = self._all(
            f"SELECT r.id FROM records r WHERE {where} ORDER BY {by} LIMIT %s OFFSET %s",
            (*params, limit, offset),
        )
        return self.get_records([str(r[0]) for r in rows]), total

    def records_after(
        self, filters: MemoryFilters, limit: int, after: tuple[float, int] | None = None
    ) -> tuple[list[Record], int, tuple[float, int] | None]:
        """Keyset paging, most recently seen first (as SQLite's)."""
        where, params = memory_where(filters)
        total = self._count_records(where, params)
        clause, keyset = where, list(params)
        if after is not None:
            clause = f"({where}) AND (r.last_seen < %s OR (r.last_seen = %s AND r.rowid < %s))"
            keyset += [after[0], after[0], after[1]]
        rows = self._all(
            f"SELECT r.id, r.last_seen, r.rowid FROM records r WHERE {clause} "
            "ORDER BY r.last_seen DESC, r.rowid DESC LIMIT %s",
            (*keyset, limit),
        )
        last = (float(rows[-1][1]), int(rows[-1][2])) if rows else None
        return self.get_records([str(r[0]) for r in rows]), total, last

    def _count_records(self, where: str, params: list[object]) -> int:
        return int(self._one(f"SELECT count(*) FROM records r WHERE {where}", params)[0])

    def iter_records(self, batch: int = 200) -> Iterator[Record]:
        last = 0
        while True:
            rows = self._all(
                "SELECT rowid, id FROM records WHERE rowid > %s ORDER BY rowid LIMIT %s",
                (last, batch),
            )
            if not rows:
                return
            last = int(rows[-1][0])
            yield from self.get_records([str(r[1]) for r in rows])

    def memory_counts(self) -> dict[str, Any]:
        by_source = {
            str(r[0]): int(r[1])
            for r in self._all("SELECT source, count(*) FROM records GROUP BY source")
        }
        row = self._one(
            "SELECT count(*), COALESCE(SUM(worked), 0), COALESCE(SUM(not_worked), 0), "
            "count(variant_of) FROM records"
        )
        knowledge = self._one(
            "SELECT COALESCE(SUM(useful), 0), COALESCE(SUM(not_useful), 0) FROM knowledge_feedback"
        )
        return {
            "records": int(row[0]),
            "by_source": by_source,
            "variants": int(row[3]),
            "worked": int(row[1]),
            "not_worked": int(row[2]),
            "knowledge_useful": int(knowledge[0]),
            "knowledge_not_useful": int(knowledge[1]),
        }
