"""The default Store: one SQLite file (WAL), FTS5 for BM25, numpy for exact cosine.

Every write runs in one `BEGIN IMMEDIATE` transaction covering the chunk rows, their FTS
entries, side tables and the generation counter, so readers (which never block under
WAL) see either all of a file's new chunks or none of them. One SQLiteStore wraps one
connection: give each thread its own.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from ctxhub.embed.base import Vectors
from ctxhub.models import Chunk, Deprecation, SearchFilters
from ctxhub.store import schema
from ctxhub.store.base import (
    FileState,
    ModelMismatchError,
    ReplaceResult,
    SourceState,
    StoreError,
)
from ctxhub.store.filters import where_clause
from ctxhub.store.fts_terms import document_frequencies
from ctxhub.store.rows import (
    CHUNK_COLUMNS,
    READ_COLUMNS,
    chunk_from_row,
    chunk_row,
    row_hash,
    symbol_suffixes,
    term_values,
)
from ctxhub.store.vectors import VectorIndex, to_blob

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


class SQLiteStore:
    def __init__(self, path: str | Path, *, timeout: float = 30.0) -> None:
        self.path = Path(path).expanduser()
        self.location = str(self.path.resolve())
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = sqlite3.connect(
                self.path, timeout=timeout, isolation_level=None, check_same_thread=False
            )
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
            conn.execute("PRAGMA synchronous=NORMAL")
            schema.migrate(conn)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open store {self.path}: {exc}") from exc
        self.conn = conn
        self._model: tuple[str, int] | None = None
        self._count: tuple[int, int] | None = None
        row = self._meta("embedding_model")
        if row:
            self._model = (row, int(self._meta("embedding_dim") or 0))

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> SQLiteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- meta ----------------------------------------------------------------------
    def _meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def _set_meta(self, key: str, value: str) -> None:
        self.conn.execute(
            "INSERT INTO meta(key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    @property
    def model(self) -> tuple[str, int] | None:
        """(embedding model id, dimension) recorded in this store, if any."""
        return self._model

    def bind_model(self, model: str, dim: int) -> None:
        if self._model is None:
            with self.transaction():
                if self._meta("embedding_model") is None:
                    self._set_meta("embedding_model", model)
                    self._set_meta("embedding_dim", str(dim))
            name = self._meta("embedding_model")
            self._model = (str(name), int(self._meta("embedding_dim") or 0))
        if self._model != (model, dim):
            raise ModelMismatchError(
                f"store {self.path} holds vectors of {self._model[0]} (dim {self._model[1]}),"
                f" not {model} (dim {dim}); run `ctxhub refresh --reembed` to re-embed"
                " every chunk with the current model"
            )

    def rebind_model(self, model: str, dim: int) -> None:
        """Switch the store to another model (`--reembed`): old vectors stop counting."""
        with self.transaction():
            self._set_meta("embedding_model", model)
            self._set_meta("embedding_dim", str(dim))
        self._model = (model, dim)

    def schema_version(self) -> int:
        return schema.current_version(self.conn)

    def generation(self) -> int:
        return int(self._meta("generation") or 0)

    # -- transactions --------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, bumping the generation; ROLLBACK on any error."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
            self.conn.execute(
                "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'"
            )
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise

    # -- chunk writes ----------------------------------------------------------------
    def _delete_rows(self, rowids: Sequence[int]) -> None:
        for rowid in rowids:
            old = self.conn.execute(
                "SELECT content, names, idents FROM chunks WHERE rowid = ?", (rowid,)
            ).fetchone()
            if old is None:
                continue
            self.conn.execute(
                "INSERT INTO chunks_fts(chunks_fts, rowid, content, names, idents) "
                "VALUES ('delete', ?, ?, ?, ?)",
                (rowid, old["content"], old["names"], old["idents"]),
            )
            self.conn.execute("DELETE FROM chunk_terms WHERE chunk = ?", (rowid,))
            self.conn.execute("DELETE FROM symbol_names WHERE chunk = ?", (rowid,))
            self.conn.execute("DELETE FROM chunks WHERE rowid = ?", (rowid,))

    def _insert(self, chunk: Chunk, file: str) -> None:
        row = chunk_row(chunk, file)
        cur = self.conn.execute(
            f"INSERT INTO chunks({', '.join(CHUNK_COLUMNS)}) "
            f"VALUES ({', '.join('?' for _ in CHUNK_COLUMNS)})",
            row,
        )
        rowid = cur.lastrowid
        values = dict(zip(CHUNK_COLUMNS, row, strict=True))
        self.conn.execute(
            "INSERT INTO chunks_fts(rowid, content, names, idents) VALUES (?, ?, ?, ?)",
            (rowid, values["content"], values["names"], values["idents"]),
        )
        terms = term_values(chunk)
        if terms:
            self.conn.executemany(
                "INSERT INTO chunk_terms(chunk, field, value) VALUES (?, ?, ?)",
                [(rowid, f, v) for f, v in terms],
            )
        if chunk.symbol:
            self.conn.executemany(
                "INSERT INTO symbol_names(name, chunk, depth) VALUES (?, ?, ?)",
                [(name, rowid, depth) for name, depth in symbol_suffixes(chunk.symbol)],
            )

    def replace_file(
        self,
        source: str,
        file: str,
        chunks: Sequence[Chunk],
        file_state: FileState | None = None,
        deprecations: Sequence[Deprecation] = (),
        texts: Mapping[str, str] | None = None,
    ) -> ReplaceResult:
        """Make `chunks` the whole content of (source, file) in one transaction, with the
        unit's deprecations, its file state and (for code) the text of its files."""
        result = ReplaceResult()
        with self.transaction():
            existing = {
                r["id"]: (r["rowid"], r["row_hash"])
                for r in self.conn.execute(
                    "SELECT rowid, id, row_hash FROM chunks WHERE source = ? AND file = ?",
                    (source, file),
                )
            }
            new_ids = {c.id for c in chunks}
            gone = [rowid for cid, (rowid, _) in existing.items() if cid not in new_ids]
            self._delete_rows(gone)
            result.removed = len(gone)
            for chunk in chunks:
                if chunk.source != source:
                    raise StoreError(f"chunk {chunk.id} belongs to {chunk.source}, not {source}")
                old = existing.get(chunk.id)
                if old is not None and old[1] == row_hash(chunk):
                    result.unchanged += 1
                    continue
                if old is not None:
                    self._delete_rows([old[0]])
                    result.updated += 1
                else:
                    result.added += 1
                self._insert(chunk, file)
            self.conn.execute(
                "DELETE FROM deprecations WHERE source = ? AND file = ?", (source, file)
            )
            self.conn.executemany(
                "INSERT INTO deprecations(source, file, symbol, replacement, since, note,"
                " path, line, origin) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        source,
                        file,
                        d.symbol,
                        d.replacement,
                        d.since,
                        d.note,
                        d.path,
                        d.line,
                        d.origin,
                    )
                    for d in deprecations
                ],
            )
            if file_state is not None:
                self._put_file_state(source, file_state)
            if texts is not None:
                self.conn.execute(
                    "DELETE FROM file_texts WHERE source = ? AND unit = ?", (source, file)
                )
                self.conn.executemany(
                    "INSERT OR REPLACE INTO file_texts(source, unit, path, text) "
                    "VALUES (?, ?, ?, ?)",
                    [(source, file, path, text) for path, text in texts.items()],
                )
        return result

    def mark_file(self, source: str, state: FileState) -> None:
        """Record a unit's state without touching its chunks (a skipped unit keeps them)."""
        with self.transaction():
            self._put_file_state(source, state)

    def _put_file_state(self, source: str, state: FileState) -> None:
        self.conn.execute(
            "INSERT INTO files(source, path, hash, kind, status, reason) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(source, path) DO UPDATE SET "
            "hash = excluded.hash, kind = excluded.kind, status = excluded.status, "
            "reason = excluded.reason",
            (source, state.path, state.hash, state.kind, state.status, state.reason),
        )

    def remove_file(self, source: str, file: str) -> int:
        with self.transaction():
            rowids = [
                r[0]
                for r in self.conn.execute(
                    "SELECT rowid FROM chunks WHERE source = ? AND file = ?", (source, file)
                )
            ]
            self._delete_rows(rowids)
            self.conn.execute(
                "DELETE FROM deprecations WHERE source = ? AND file = ?", (source, file)
            )
            self.conn.execute("DELETE FROM files WHERE source = ? AND path = ?", (source, file))
            self.conn.execute(
                "DELETE FROM file_texts WHERE source = ? AND unit = ?", (source, file)
            )
        return len(rowids)

    def delete_source(self, source: str) -> int:
        with self.transaction():
            rowids = [
                r[0]
                for r in self.conn.execute("SELECT rowid FROM chunks WHERE source = ?", (source,))
            ]
            self._delete_rows(rowids)
            for table, column in (
                ("deprecations", "source"),
                ("file_texts", "source"),
                ("files", "source"),
                ("sources", "name"),
            ):
                self.conn.execute(f"DELETE FROM {table} WHERE {column} = ?", (source,))
        return len(rowids)

    # -- embeddings ------------------------------------------------------------------
    def put_embeddings(self, model: str, items: Sequence[tuple[str, Vectors]]) -> None:
        with self.transaction():
            self.conn.executemany(
                "INSERT OR REPLACE INTO embeddings(model, text_hash, vec) VALUES (?, ?, ?)",
                [(model, h, to_blob(v)) for h, v in items],
            )

    def missing_embeddings(
        self, model: str, limit: int = 1000, source: str | None = None
    ) -> list[tuple[str, str]]:
        where, params = ("AND c.source = ?", [source]) if source else ("", [])
        rows = self.conn.execute(
            "SELECT c.embed_hash, MIN(c.embed_text) FROM chunks c "
            "LEFT JOIN embeddings e ON e.model = ? AND e.text_hash = c.embed_hash "
            f"WHERE e.text_hash IS NULL {where} GROUP BY c.embed_hash LIMIT ?",
            (model, *params, limit),
        ).fetchall()
        return [(r[0], r[1]) for r in rows]

    def count_missing_embeddings(self, model: str, source: str | None = None) -> int:
        where, params = ("AND c.source = ?", [source]) if source else ("", [])
        row = self.conn.execute(
            "SELECT COUNT(DISTINCT c.embed_hash) FROM chunks c "
            "LEFT JOIN embeddings e ON e.model = ? AND e.text_hash = c.embed_hash "
            f"WHERE e.text_hash IS NULL {where}",
            (model, *params),
        ).fetchone()
        return int(row[0])

    def embedding_coverage(self, model: str) -> tuple[int, int]:
        """(chunks with a vector, all chunks)."""
        row = self.conn.execute(
            "SELECT COUNT(e.text_hash), COUNT(*) FROM chunks c LEFT JOIN embeddings e "
            "ON e.model = ? AND e.text_hash = c.embed_hash",
            (model,),
        ).fetchone()
        return int(row[0]), int(row[1])

    # -- sources ---------------------------------------------------------------------
    def upsert_source(self, state: SourceState) -> None:
        with self.transaction():
            self.conn.execute(
                "INSERT INTO sources(name, kinds, origin, root, version, commit_sha, status,"
                " error, last_refresh, stats) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(name) DO UPDATE SET kinds = excluded.kinds, origin = excluded.origin,"
                " root = excluded.root, version = excluded.version,"
                " commit_sha = excluded.commit_sha, status = excluded.status,"
                " error = excluded.error, last_refresh = excluded.last_refresh,"
                " stats = excluded.stats",
                (
                    state.name,
                    ",".join(state.kinds),
                    state.origin,
                    state.root,
                    state.version,
                    state.commit,
                    state.status,
                    state.error,
                    state.last_refresh,
                    json.dumps(state.stats),
                ),
            )

    def sources(self) -> list[SourceState]:
        return [
            SourceState(
                name=r["name"],
                kinds=[k for k in r["kinds"].split(",") if k],
                origin=r["origin"],
                root=r["root"],
                version=r["version"],
                commit=r["commit_sha"],
                status=r["status"],
                error=r["error"],
                last_refresh=r["last_refresh"],
                stats=json.loads(r["stats"] or "{}"),
            )
            for r in self.conn.execute("SELECT * FROM sources ORDER BY name")
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

    # -- reads -----------------------------------------------------------------------
    def get_chunks(self, ids: Sequence[str]) -> list[Chunk]:
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        rows = self.conn.execute(
            f"SELECT {READ_COLUMNS} FROM chunks WHERE id IN ({marks})", list(ids)
        ).fetchall()
        by_id = {r["id"]: chunk_from_row(r) for r in rows}
        return [by_id[i] for i in ids if i in by_id]

    def file_text(self, source: str, path: str) -> str | None:
        """The stored text of an indexed file (None when that file's text is not kept)."""
        row = self.conn.execute(
            "SELECT text FROM file_texts WHERE source = ? AND path = ?", (source, path)
        ).fetchone()
        return None if row is None else str(row[0])

    def chunks_where(self, sql: str, params: Sequence[object]) -> list[Chunk]:
        """Chunks matching a raw WHERE over `chunks c` (for tools that page through a file)."""
        rows = self.conn.execute(
            f"SELECT {READ_COLUMNS} FROM chunks c WHERE {sql}", list(params)
        ).fetchall()
        return [chunk_from_row(r) for r in rows]

    def term_frequencies(self, terms: Sequence[str]) -> tuple[dict[str, int], int]:
        """({term: chunks containing it}, total chunks), as the FTS index tokenises."""
        return document_frequencies(self.conn, terms), self.chunk_count()

    def chunk_count(self) -> int:
        """Number of chunks, cached until the store's generation moves."""
        generation = self.generation()
        if self._count is None or self._count[0] != generation:
            n = int(self.conn.execute("SELECT COUNT(*) FROM chunks").fetchone()[0])
            self._count = (generation, n)
        return self._count[1]

    def bm25(
        self, match: str, filters: SearchFilters, kinds: list[str] | None, limit: int
    ) -> list[tuple[str, float]]:
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
            return self._ids_for([(int(r[0]), -float(r[1])) for r in found])
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
        allowed = None
        if where != "1":
            allowed = np.fromiter(
                (
                    r[0]
                    for r in self.conn.execute(
                        f"SELECT c.rowid FROM chunks c WHERE {where}", params
                    )
                ),
                dtype=np.int64,
            )
        index = _vector_index(self.location, *self._model)
        found = index.search(self.conn, self.generation(), query, limit, allowed)
        return self._ids_for(found)

    def _ids_for(self, found: list[tuple[int, float]]) -> list[tuple[str, float]]:
        if not found:
            return []
        marks = ", ".join("?" for _ in found)
        ids = dict(
            self.conn.execute(
                f"SELECT rowid, id FROM chunks WHERE rowid IN ({marks})", [r for r, _ in found]
            ).fetchall()
        )
        return [(ids[r], s) for r, s in found if r in ids]

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
        return [
            Deprecation(
                source=r["source"],
                symbol=r["symbol"],
                replacement=r["replacement"],
                since=r["since"],
                note=r["note"],
                path=r["path"],
                line=r["line"],
                origin=r["origin"],
            )
            for r in rows
        ]
