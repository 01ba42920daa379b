"""Knowledge writes in the SQLite store: chunks with their FTS5 entries and side tables,
deprecations, file states and texts, embeddings and sources. A mixin of SQLiteStore:
every write is one `BEGIN IMMEDIATE` transaction (or joins the caller's)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager

from ctxhub.core.errors import StoreError
from ctxhub.core.knowledge import Chunk, Deprecation
from ctxhub.embed.base import Vectors
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
from ctxhub.store.sqlite.vectors import to_blob


class ChunkWrites:
    """Write methods over `self.conn`; see SQLiteStore for the attributes' owner."""

    conn: sqlite3.Connection

    def transaction(
        self, counter: str | None = "generation"
    ) -> AbstractContextManager[sqlite3.Connection]:
        raise NotImplementedError  # provided by SQLiteStore

    def _delete_rows(self, rowids: Sequence[int]) -> None:
        for rowid in rowids:
            old = self.conn.execute(
                "SELECT content, names, idents, lookup_only FROM chunks WHERE rowid = ?",
                (rowid,),
            ).fetchone()
            if old is None:
                continue
            # a lookup-only row was never indexed, and an external-content FTS5 'delete'
            # of a row it does not hold corrupts the index (it subtracts tokens it never
            # added)
            if not old["lookup_only"]:
                self.conn.execute(
                    "INSERT INTO chunks_fts(chunks_fts, rowid, content, names, idents) "
                    "VALUES ('delete', ?, ?, ?, ?)",
                    (rowid, old["content"], old["names"], old["idents"]),
                )
            self.conn.execute("DELETE FROM chunk_terms WHERE chunk = ?", (rowid,))
            self.conn.execute("DELETE FROM symbol_names WHERE chunk = ?", (rowid,))
            self.conn.execute("DELETE FROM chunk_windows WHERE chunk = ?", (rowid,))
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
        if not chunk.lookup_only:  # no text-index entry: BM25 statistics never see it
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
        if chunk.embed_windows and not chunk.lookup_only:  # no vectors, windows' neither
            assert rowid is not None
            self.conn.executemany(
                "INSERT INTO chunk_windows(chunk, seq, embed_hash, embed_text) VALUES (?, ?, ?, ?)",
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
                deprecation_values(source, file, deprecations),
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

    def relabel_version(self, source: str, version: str | None) -> int:
        """Label every chunk of `source` with `version` (unchanged files keep their
        chunks across a release, not the old release's label); how many changed."""
        stale = "source = ? AND version IS NOT ?"
        if (
            self.conn.execute(
                f"SELECT 1 FROM chunks WHERE {stale} LIMIT 1", (source, version)
            ).fetchone()
            is None
        ):
            return 0  # nothing to relabel: no write, no new generation
        with self.transaction():
            cur = self.conn.execute(
                f"UPDATE chunks SET version = ? WHERE {stale}", (version, source, version)
            )
        return int(cur.rowcount)

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

    # -- sources ---------------------------------------------------------------------
    def upsert_source(self, state: SourceState, *, bump: bool = True) -> None:
        """Write a source's state; `bump=False` leaves the generation alone (a refresh
        marking its source `indexing` changes nothing a reader caches)."""
        with self.transaction("generation" if bump else None):
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
