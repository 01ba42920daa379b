"""The read side of the PostgreSQL store: chunks by id, the four retrieval queries,
listings. A mixin of PostgresStore (which owns the pool, the model and the writes)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ctxhub.core.knowledge import Chunk, ChunkQuery, Deprecation, SearchFilters, parameter_note
from ctxhub.embed.base import Vectors
from ctxhub.store.postgres import vectors
from ctxhub.store.postgres.filters import chunk_query_where, where_clause
from ctxhub.store.postgres.fts import (
    CHUNK_FREQUENCIES_SQL,
    idf,
    phrases,
    postings_bm25_sql,
)
from ctxhub.store.postgres.vectors import nearest_chunks, nearest_windows
from ctxhub.store.protocol import FileState, SourceState
from ctxhub.store.sqlite.rows import (
    EMBED_TEXTS,
    READ_COLUMNS,
    WINDOWS_OF,
    chunk_from_row,
    deprecation_from_row,
    source_from_row,
    with_windows,
)

T = TypeVar("T")

#: The chunk tsvector's parts and SQLite's BM25 column weights (reads.BM25_WEIGHTS), as
#: `fts.bm25_sql` takes them (the postings hold the same weights: schema.POSTING_WEIGHTS;
#: tests and benchmarks compare both statements):
#: names (A) 4.0, identifier parts (B) 1.5, content (D) 1.0.
CHUNK_FIELDS = (
    ("ts_filter(v.tsv, '{a}')", 4.0),
    ("ts_filter(v.tsv, '{b}')", 1.5),
    ("ts_filter(v.tsv, '{d}')", 1.0),
)
_READ = ", ".join(f"c.{c.strip()}" for c in READ_COLUMNS.split(","))


#: Ids starting with a typed prefix, in byte order as SQLite sorts them (collation "C");
#: starts_with() has no wildcards to escape. A rare lookup, typed by a person.
IDS_WITH_PREFIX = (
    'SELECT id FROM {table} WHERE starts_with(id, %s) ORDER BY id COLLATE "C" LIMIT %s'
)


class PgSearchQueries:
    location: str
    _model: tuple[str, int] | None
    _count: tuple[int, int] | None
    _windows: tuple[int, int] | None
    _df: tuple[int, dict[str, int]]
    _avg: tuple[int, float] | None

    def _read(self, fn: Callable[[Any], T]) -> T:
        raise NotImplementedError  # provided by PostgresStore

    def _all(self, statement: Any, params: Any = (), *, dicts: bool = False) -> list[Any]:
        raise NotImplementedError  # provided by PostgresStore

    def _one(self, statement: Any, params: Any = ()) -> Any:
        raise NotImplementedError  # provided by PostgresStore

    def generation(self) -> int:
        row = self._one("SELECT value FROM meta WHERE key = 'generation'")
        return int(row[0]) if row else 0

    def get_chunks(self, ids: Sequence[str]) -> list[Chunk]:
        if not ids:
            return []
        rows = self._all(
            f"SELECT {_READ} FROM chunks c WHERE c.id = ANY(%s)", (list(ids),), dicts=True
        )
        by_id = {r["id"]: chunk_from_row(r) for r in rows}
        return [by_id[i] for i in ids if i in by_id]

    def chunk_ids_with_prefix(self, prefix: str, limit: int = 2) -> list[str]:
        return [
            str(r[0]) for r in self._all(IDS_WITH_PREFIX.format(table="chunks"), (prefix, limit))
        ]

    def file_text(self, source: str, path: str) -> str | None:
        row = self._one(
            "SELECT text FROM file_texts WHERE source = %s AND path = %s", (source, path)
        )
        return None if row is None else str(row[0])

    def find_chunks(self, query: ChunkQuery) -> list[Chunk]:
        where, params = chunk_query_where(query)
        limit = f" LIMIT {int(query.limit)}" if query.limit else ""
        rows = self._all(
            f"SELECT {_READ} FROM chunks c WHERE {where} ORDER BY c.rowid{limit}",
            params,
            dicts=True,
        )
        windows = self._all(WINDOWS_OF.format(where=where), params)
        return with_windows([chunk_from_row(r) for r in rows], windows)

    def unit_of(self, chunk_id: str) -> tuple[str, str] | None:
        row = self._one("SELECT source, file FROM chunks WHERE id = %s", (chunk_id,))
        return None if row is None else (str(row[0]), str(row[1]))

    def unit_texts(self, source: str, unit: str) -> list[tuple[str, str]]:
        rows = self._all(
            "SELECT path, text FROM file_texts WHERE source = %s AND unit = %s ORDER BY path",
            (source, unit),
        )
        return [(str(r[0]), str(r[1])) for r in rows]

    def doc_pages(self, source: str | None = None) -> list[tuple[str, str]]:
        where, params = ("c.kind = 'doc'", [])
        if source is not None:
            where, params = "c.kind = 'doc' AND c.source = %s", [source]
        rows = self._all(
            f"SELECT DISTINCT c.source, c.path FROM chunks c WHERE {where} "
            "ORDER BY c.source, c.path",
            params,
        )
        return [(str(r[0]), str(r[1])) for r in rows]

    def chunk_count(self) -> int:
        """Number of ranked chunks (BM25's N: lookup-only ones are not in the text index),
        cached until the store's generation moves."""
        generation = self.generation()
        if self._count is None or self._count[0] != generation:
            found = self._one("SELECT count(*) FROM chunks WHERE lookup_only = 0")
            self._count = (generation, int(found[0]))
        return self._count[1]

    def _window_count(self) -> int:
        """Number of window texts, cached as `chunk_count` is (a window goes with its
        chunk: no join needed)."""
        generation = self.generation()
        if self._windows is None or self._windows[0] != generation:
            found = int(self._one("SELECT count(*) FROM chunk_windows")[0])
            self._windows = (generation, found)
        return self._windows[1]

    def _frequencies(self, words: Sequence[str]) -> dict[str, int]:
        """{index words: chunks matching them}, cached per generation."""
        generation = self.generation()
        if self._df[0] != generation:
            self._df = (generation, {})
        cache = self._df[1]
        todo = [w for w in words if w not in cache]
        if todo:
            counts = [r[0] for r in self._all(CHUNK_FREQUENCIES_SQL, (list(todo),))]
            cache.update({w: int(n) for w, n in zip(todo, counts, strict=True)})
        return {w: cache[w] for w in words}

    def term_frequencies(self, terms: Sequence[str]) -> tuple[dict[str, int], int]:
        """({term: chunks containing it}, total chunks), as the text index matches."""
        words = {t: w for t in terms if (w := " ".join(phrases([t])))}
        freqs = self._frequencies(sorted(set(words.values())))
        return {t: freqs.get(words.get(t, ""), 0) for t in terms}, self.chunk_count()

    def bm25(
        self, terms: Sequence[str], filters: SearchFilters, kinds: list[str] | None, limit: int
    ) -> list[tuple[str, float]]:
        """Chunks holding any of `terms` (each a word or an exact phrase), ranked by
        FTS5's BM25 with SQLite's column weights (see fts.py): (id, score), best first."""
        words = phrases(terms)
        if not words:
            return []
        total = self.chunk_count()
        freqs = self._frequencies(words)
        where, params = where_clause(filters, kinds)
        statement = postings_bm25_sql(where, len(words))
        idfs = [idf(freqs[w], total) for w in words]
        rows = self._all(statement, (*words, *words, idfs, self._avgdl(), *params, limit))
        return [(str(r[0]), float(r[1])) for r in rows]

    def _avgdl(self) -> float:
        """Average tokens per chunk (BM25's length normalisation), cached per generation."""
        generation = self.generation()
        if self._avg is None or self._avg[0] != generation:
            row = self._one("SELECT COALESCE(AVG(dl), 0) FROM chunks WHERE lookup_only = 0")
            self._avg = (generation, float(row[0]))
        return self._avg[1]

    def dense(
        self, query: Vectors, filters: SearchFilters, kinds: list[str] | None, limit: int
    ) -> list[tuple[str, float]]:
        """Chunks nearest `query` by cosine among the filtered set: exact when that set
        is small, through the model's HNSW index with iterative scans otherwise."""
        if self._model is None:
            return []
        model, dim = self._model
        where, params = where_clause(filters, kinds)
        if where == "TRUE":
            size = self.chunk_count()
        else:
            size = int(self._one(f"SELECT count(*) FROM chunks c WHERE {where}", params)[0])
        exact = size <= vectors.EXACT_MAX  # read here: a test may lower it
        return self._read(
            lambda conn: nearest_chunks(conn, model, dim, query, where, params, limit, exact)
        )

    def dense_windows(
        self, query: Vectors, filters: SearchFilters, kinds: list[str] | None, limit: int
    ) -> list[tuple[str, float, float]]:
        """Chunks by their best window: exact when the windows the filter admits are few,
        through the model's HNSW index otherwise (windows grow with the chunks: 392,652
        at a million, where the exact scan took 6.3 s)."""
        if self._model is None:
            return []
        model, dim = self._model
        where, params = where_clause(filters, kinds)
        if where == "TRUE":
            size = self._window_count()
        else:
            size = int(
                self._one(
                    "SELECT count(*) FROM chunk_windows w JOIN chunks c ON c.rowid = w.chunk "
                    f"WHERE {where}",
                    params,
                )[0]
            )
        exact = size <= vectors.EXACT_MAX  # read here: a test may lower it
        return self._read(
            lambda conn: nearest_windows(conn, model, dim, query, where, params, limit, exact)
        )

    def symbol_lookup(
        self, names: Sequence[str], filters: SearchFilters, kinds: list[str] | None, limit: int
    ) -> list[tuple[str, float]]:
        """Chunks whose symbol ends with one of `names` (dotted, case-insensitive).
        Score: parts matched, +0.5 when the name is the whole symbol; longer names win."""
        wanted = sorted({n.lower().strip(".") for n in names if n.strip(".")})
        if not wanted:
            return []
        where, params = where_clause(filters, kinds)
        rows = self._all(
            "SELECT c.id, MAX(s.depth + CASE WHEN s.name = lower(c.symbol) THEN 0.5 ELSE 0 END)"
            " AS score, length(c.symbol) AS n FROM symbol_names s "
            "JOIN chunks c ON c.rowid = s.chunk "
            f"WHERE s.name = ANY(%s) AND {where} GROUP BY c.id, c.symbol "
            "ORDER BY score DESC, n ASC, c.id LIMIT %s",
            (wanted, *params, limit),
        )
        return [(str(r[0]), float(r[1])) for r in rows]

    def exported(self, symbols: Sequence[str]) -> set[str]:
        wanted = sorted(set(symbols))
        if not wanted:
            return set()
        rows = self._all(
            "SELECT DISTINCT value FROM chunk_terms WHERE field = 'exports' AND value = ANY(%s)",
            (wanted,),
        )
        return {str(r[0]) for r in rows}

    def exporters(self, symbols: Sequence[str]) -> dict[str, set[str]]:
        return self._modules_with_term("exports", symbols)

    def importers(self, symbols: Sequence[str]) -> dict[str, set[str]]:
        return self._modules_with_term("imports", symbols)

    def _modules_with_term(self, field: str, symbols: Sequence[str]) -> dict[str, set[str]]:
        """{value: symbols of the chunks holding it as a term of `field`}."""
        wanted = sorted(set(symbols))
        if not wanted:
            return {}
        rows = self._all(
            "SELECT DISTINCT t.value, c.symbol FROM chunk_terms t "
            "JOIN chunks c ON c.rowid = t.chunk "
            "WHERE t.field = %s AND t.value = ANY(%s) AND c.symbol IS NOT NULL",
            (field, wanted),
        )
        found: dict[str, set[str]] = {}
        for value, module in rows:
            found.setdefault(str(value), set()).add(str(module))
        return found

    def list_ids(
        self, filters: SearchFilters, kinds: list[str] | None, limit: int, offset: int = 0
    ) -> tuple[list[str], int]:
        where, params = where_clause(filters, kinds)
        total = self._one(f"SELECT count(*) FROM chunks c WHERE {where}", params)[0]
        rows = self._all(
            f"SELECT c.id FROM chunks c WHERE {where} "
            "ORDER BY c.source, c.path, c.line_start, c.id LIMIT %s OFFSET %s",
            (*params, limit, offset),
        )
        return [str(r[0]) for r in rows], int(total)

    def bare_names(self, initial: str, limit: int) -> list[str]:
        low = initial.lower()
        rows = self._all(
            "SELECT DISTINCT name FROM symbol_names "
            "WHERE depth = 1 AND left(name, length(%s)) = %s ORDER BY name LIMIT %s",
            (low, low, limit),
        )
        return [str(r[0]) for r in rows]

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
        rows = self._all(
            "SELECT c.id, count(DISTINCT t.value) AS n FROM chunk_terms t "
            "JOIN chunks c ON c.rowid = t.chunk "
            f"WHERE t.field = %s AND t.value = ANY(%s) AND {where} "
            "GROUP BY c.id, c.source, c.path, c.line_start "
            "ORDER BY n DESC, c.source, c.path, c.line_start, c.id LIMIT %s",
            (field, wanted, *params, limit),
        )
        return [(str(r[0]), int(r[1])) for r in rows]

    def counts(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for r in self._all(
            "SELECT source, kind, count(*) FROM chunks GROUP BY source, kind ORDER BY source, kind"
        ):
            out.setdefault(r[0], {})[r[1]] = int(r[2])
        return out

    def deprecations(self, symbol: str) -> list[Deprecation]:
        """Deprecations recorded for `symbol`: exact, a dotted suffix match, or its bare name."""
        low = symbol.lower()
        tail = low.rsplit(".", 1)[-1]
        rows = self._all(
            "SELECT * FROM deprecations WHERE lower(symbol) IN (%s, %s) "
            "OR right(lower(symbol), length(%s) + 1) = '.' || %s "
            "OR right(%s, length(symbol) + 1) = '.' || lower(symbol)",
            (low, tail, low, low, low),
            dicts=True,
        )
        return [deprecation_from_row(r) for r in rows]

    def embeddings_for(self, model: str, hashes: Sequence[str]) -> dict[str, Vectors]:
        rows = self._all(
            "SELECT text_hash, vec::text FROM embeddings WHERE model = %s AND text_hash = ANY(%s)",
            (model, list(dict.fromkeys(hashes))),
        )
        return {str(h): vectors.parse_vector(v) for h, v in rows}

    def parameter_deprecations(self, name: str) -> list[Deprecation]:
        prefix = parameter_note(name, "")  # the note a parameter record opens with
        rows = self._all(
            "SELECT * FROM deprecations WHERE left(note, length(%s)) = %s ORDER BY ctid",
            (prefix, prefix),
            dicts=True,
        )
        return [deprecation_from_row(r) for r in rows]

    def file_deprecations(self, source: str, file: str) -> list[Deprecation]:
        rows = self._all(
            "SELECT * FROM deprecations WHERE source = %s AND file = %s ORDER BY ctid",
            (source, file),
            dicts=True,
        )
        return [deprecation_from_row(r) for r in rows]

    def missing_embeddings(
        self, model: str, limit: int = 1000, source: str | None = None
    ) -> list[tuple[str, str]]:
        where, params = ("AND x.src = %s", [source]) if source else ("", [])
        rows = self._all(
            f"SELECT x.h, MIN(x.t) FROM {EMBED_TEXTS} "
            "LEFT JOIN embeddings e ON e.model = %s AND e.text_hash = x.h "
            f"WHERE e.text_hash IS NULL {where} GROUP BY x.h "
            "ORDER BY MIN(x.pri), MIN(x.ord), MIN(x.seq) LIMIT %s",
            (model, *params, limit),
        )
        return [(str(r[0]), str(r[1])) for r in rows]

    def count_missing_embeddings(self, model: str, source: str | None = None) -> int:
        where, params = ("AND x.src = %s", [source]) if source else ("", [])
        row = self._one(
            f"SELECT count(DISTINCT x.h) FROM {EMBED_TEXTS} "
            "LEFT JOIN embeddings e ON e.model = %s AND e.text_hash = x.h "
            f"WHERE e.text_hash IS NULL {where}",
            (model, *params),
        )
        return int(row[0])

    def embedding_coverage(self, model: str) -> tuple[int, int]:
        row = self._one(
            "SELECT count(e.text_hash), count(*) FROM chunks c LEFT JOIN embeddings e "
            "ON e.model = %s AND e.text_hash = c.embed_hash WHERE c.lookup_only = 0",
            (model,),
        )
        return int(row[0]), int(row[1])

    def sources(self) -> list[SourceState]:
        rows = self._all("SELECT * FROM sources ORDER BY name", dicts=True)
        return [source_from_row(r) for r in rows]

    def file_states(self, source: str) -> dict[str, FileState]:
        return {
            r["path"]: FileState(
                path=r["path"],
                hash=r["hash"],
                kind=r["kind"],
                status=r["status"],
                reason=r["reason"],
            )
            for r in self._all("SELECT * FROM files WHERE source = %s", (source,), dicts=True)
        }
