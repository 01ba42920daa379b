"""Knowledge writes in the PostgreSQL store: chunks with their text index, side tables,
deprecations, file states and texts, embeddings and sources. A mixin of PostgresStore:
every write is one transaction (or joins the caller's), and every write to a source
first takes that source's advisory lock."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

from ctxhub.core.errors import ModelMismatchError, StoreError
from ctxhub.core.knowledge import Chunk, Deprecation
from ctxhub.embed.base import Vectors
from ctxhub.store.postgres.fts import fts_text, tsvector_sql
from ctxhub.store.postgres.vectors import dimension, vector_text
from ctxhub.store.protocol import FileState, ReplaceResult, SourceState
from ctxhub.store.sqlite.rows import (
    CHUNK_COLUMNS,
    chunk_row,
    deprecation_values,
    row_hash,
    symbol_suffixes,
    term_values,
    window_values,
)

#: content (D), names: title/symbol/path (A), identifier parts (B)
_TSV = " || ".join(tsvector_sql(w) for w in ("D", "A", "B"))
_INSERT_CHUNK = (
    f"INSERT INTO chunks({', '.join(CHUNK_COLUMNS)}, tsv) "
    f"VALUES ({', '.join('%s' for _ in CHUNK_COLUMNS)}, {_TSV}) RETURNING rowid"
)


class PgChunkWrites:
    location: str
    _model: tuple[str, int] | None

    def transaction(self, counter: str | None = "generation") -> AbstractContextManager[Any]:
        raise NotImplementedError  # provided by PostgresStore

    def _lock_source(self, conn: Any, source: str) -> None:
        raise NotImplementedError  # provided by PostgresStore

    def _one(self, statement: Any, params: Any = ()) -> Any:
        raise NotImplementedError  # provided by PostgresStore

    def insert_chunk(self, conn: Any, chunk: Chunk, file: str) -> None:
        row = chunk_row(chunk, file)
        values = dict(zip(CHUNK_COLUMNS, row, strict=True))
        # a lookup-only chunk gets an empty tsvector: no postings, no match, length 0
        # (left out of the average too: reads._avgdl)
        columns = () if chunk.lookup_only else ("content", "names", "idents")
        texts = [fts_text(values[c]) for c in columns] or ["", "", ""]
        rowid = conn.execute(_INSERT_CHUNK, (*row, *texts)).fetchone()[0]
        terms = term_values(chunk)
        if terms:
            conn.cursor().executemany(
                "INSERT INTO chunk_terms(chunk, field, value) VALUES (%s, %s, %s)",
                [(rowid, f, v) for f, v in terms],
            )
        if chunk.symbol:
            conn.cursor().executemany(
                "INSERT INTO symbol_names(name, chunk, depth) VALUES (%s, %s, %s)",
                [(name, rowid, depth) for name, depth in symbol_suffixes(chunk.symbol)],
            )
        if chunk.embed_windows and not chunk.lookup_only:  # no vectors, windows' neither
            conn.cursor().executemany(
                "INSERT INTO chunk_windows(chunk, seq, embed_hash, embed_text) "
                "VALUES (%s, %s, %s, %s)",
                window_values(rowid, chunk),
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
        result = ReplaceResult()
        with self.transaction() as conn:
            self._lock_source(conn, source)
            existing = {
                r[1]: (r[0], r[2])
                for r in conn.execute(
                    "SELECT rowid, id, row_hash FROM chunks WHERE source = %s AND file = %s",
                    (source, file),
                ).fetchall()
            }
            new_ids = {c.id for c in chunks}
            gone = [rowid for cid, (rowid, _) in existing.items() if cid not in new_ids]
            conn.execute("DELETE FROM chunks WHERE rowid = ANY(%s)", (gone,))
            result.removed = len(gone)
            for chunk in chunks:
                if chunk.source != source:
                    raise StoreError(f"chunk {chunk.id} belongs to {chunk.source}, not {source}")
                old = existing.get(chunk.id)
                if old is not None and old[1] == row_hash(chunk):
                    result.unchanged += 1
                    continue
                if old is not None:
                    conn.execute("DELETE FROM chunks WHERE rowid = %s", (old[0],))
                    result.updated += 1
                else:
                    result.added += 1
                self.insert_chunk(conn, chunk, file)
            conn.execute("DELETE FROM deprecations WHERE source = %s AND file = %s", (source, file))
            if deprecations:
                conn.cursor().executemany(
                    "INSERT INTO deprecations(source, file, symbol, replacement, since, note,"
                    " path, line, origin) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    deprecation_values(source, file, deprecations),
                )
            if file_state is not None:
                self._put_file_state(conn, source, file_state)
            if texts is not None:
                conn.execute(
                    "DELETE FROM file_texts WHERE source = %s AND unit = %s", (source, file)
                )
                if texts:
                    conn.cursor().executemany(
                        "INSERT INTO file_texts(source, unit, path, text) VALUES (%s, %s, %s, %s) "
                        "ON CONFLICT (source, path) DO UPDATE SET unit = excluded.unit, "
                        "text = excluded.text",
                        [(source, file, path, text) for path, text in texts.items()],
                    )
        return result

    def mark_file(self, source: str, state: FileState) -> None:
        with self.transaction() as conn:
            self._lock_source(conn, source)
            self._put_file_state(conn, source, state)

    def _put_file_state(self, conn: Any, source: str, state: FileState) -> None:
        conn.execute(
            "INSERT INTO files(source, path, hash, kind, status, reason) "
            "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (source, path) DO UPDATE SET "
            "hash = excluded.hash, kind = excluded.kind, status = excluded.status, "
            "reason = excluded.reason",
            (source, state.path, state.hash, state.kind, state.status, state.reason),
        )

    def remove_file(self, source: str, file: str) -> int:
        with self.transaction() as conn:
            self._lock_source(conn, source)
            n = conn.execute(
                "DELETE FROM chunks WHERE source = %s AND file = %s", (source, file)
            ).rowcount
            for table, column in (
                ("deprecations", "file"),
                ("files", "path"),
                ("file_texts", "unit"),
            ):
                conn.execute(
                    f"DELETE FROM {table} WHERE source = %s AND {column} = %s", (source, file)
                )
        return int(n)

    def relabel_version(self, source: str, version: str | None) -> int:
        stale = "source = %s AND version IS DISTINCT FROM %s"
        found = self._one(f"SELECT 1 FROM chunks WHERE {stale} LIMIT 1", (source, version))
        if found is None:
            return 0  # nothing to relabel: no write, no new generation
        with self.transaction() as conn:
            self._lock_source(conn, source)
            n = conn.execute(
                f"UPDATE chunks SET version = %s WHERE {stale}", (version, source, version)
            ).rowcount
        return int(n)

    def delete_source(self, source: str) -> int:
        with self.transaction() as conn:
            self._lock_source(conn, source)
            n = conn.execute("DELETE FROM chunks WHERE source = %s", (source,)).rowcount
            for table, column in (
                ("deprecations", "source"),
                ("file_texts", "source"),
                ("files", "source"),
                ("sources", "name"),
            ):
                conn.execute(f"DELETE FROM {table} WHERE {column} = %s", (source,))
        return int(n)

    def put_embeddings(self, model: str, items: Sequence[tuple[str, Vectors]]) -> None:
        if self._model is not None and self._model[0] == model:
            dim = self._model[1]
            wrong = next((dimension(v) for _, v in items if dimension(v) != dim), None)
            if wrong is not None:
                raise ModelMismatchError(
                    f"store {self.location} holds {model} vectors of dim {dim}, not {wrong}: "
                    "run `ctxhub refresh --reembed` to re-embed every chunk"
                )
        with self.transaction() as conn:
            conn.cursor().executemany(
                "INSERT INTO embeddings(model, text_hash, vec) VALUES (%s, %s, %s::vector) "
                "ON CONFLICT (model, text_hash) DO UPDATE SET vec = excluded.vec",
                [(model, h, vector_text(v)) for h, v in items],
            )

    def upsert_source(self, state: SourceState, *, bump: bool = True) -> None:
        with self.transaction("generation" if bump else None) as conn:
            self._lock_source(conn, state.name)
            conn.execute(
                "INSERT INTO sources(name, kinds, origin, root, version, commit_sha, status,"
                " error, last_refresh, stats) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT (name) DO UPDATE SET kinds = excluded.kinds,"
                " origin = excluded.origin, root = excluded.root, version = excluded.version,"
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
