"""The default Store: one SQLite file (WAL), FTS5 for BM25, numpy for exact cosine.

Every write runs in one `BEGIN IMMEDIATE` transaction covering the chunk rows, their FTS
entries, side tables and the generation counter, so readers (which never block under
WAL) see either all of a file's new chunks or none of them. One SQLiteStore wraps one
connection: give each thread its own.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ctxhub.core.errors import ModelMismatchError, StoreCorruptError, StoreError, StoreReadOnlyError
from ctxhub.store.memory_protocol import MemoryStore
from ctxhub.store.protocol import Store
from ctxhub.store.sqlite import schema
from ctxhub.store.sqlite.conn import (
    StoreConnection,
    corrupt_message,
    damage,
    forget_damage,
    is_cantopen,
    mark_damaged,
    read_only_message,
)
from ctxhub.store.sqlite.memory_writes import MemoryQueries
from ctxhub.store.sqlite.reads import SearchQueries
from ctxhub.store.sqlite.schema import rollback
from ctxhub.store.sqlite.tokens import TokenQueries
from ctxhub.store.sqlite.writes import ChunkWrites
from ctxhub.store.token_protocol import TokenStore

__all__ = ["SQLiteStore", "forget_damage", "read_only_reason"]


def read_only_reason(path: Path) -> str:
    """Why an existing store file cannot be written, or "" when it can."""
    folder = path.parent
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return "on a read-only file system"
    except (OSError, AttributeError):  # no statvfs on Windows
        pass
    if not os.access(path, os.W_OK):
        return "the file is not writable"
    if not os.access(folder, os.W_OK):
        wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
        if not all(p.exists() and os.access(p, os.W_OK) for p in (wal, shm)):
            return "its folder is not writable"
    return ""


class SQLiteStore(ChunkWrites, SearchQueries, MemoryQueries, TokenQueries):
    def __init__(
        self, path: str | Path, *, timeout: float = 30.0, read_only: bool | None = None
    ) -> None:
        """Open (or create) the store at `path`.

        `read_only` None: read-only when the file exists but cannot be written (its mode,
        its folder, a read-only mount), else read-write, falling back to read-only when
        SQLite cannot open it for writing. A read-only store answers every read; every
        write raises StoreReadOnlyError. A damaged file raises StoreCorruptError."""
        self.path = Path(path).expanduser()
        self.location = str(self.path.resolve())
        self.timeout = timeout
        exists = self.path.exists()
        if not exists:
            if read_only:
                raise StoreError(f"no store at {self.path} to open read-only")
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create store {self.path}: {exc}") from exc
        why = read_only_reason(self.path) if exists else ""
        self.read_only = bool(read_only or (read_only is None and why))
        self.why_read_only = why or ("opened read-only" if self.read_only else "")
        self.conn = self._open(exists, explicit=read_only is not None)
        self._model: tuple[str, int] | None = None
        self._count: tuple[int, int] | None = None
        row = self._meta("embedding_model")
        if row:
            self._model = (row, int(self._meta("embedding_dim") or 0))

    # -- opening -----------------------------------------------------------------------
    def _connect(self, target: str, uri: bool) -> StoreConnection:
        try:
            conn = sqlite3.connect(
                target,
                timeout=self.timeout,
                isolation_level=None,
                check_same_thread=False,
                factory=StoreConnection,
                uri=uri,
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open store {self.path}: {exc}") from exc
        assert isinstance(conn, StoreConnection)
        conn.location = self.location
        conn.why_read_only = self.why_read_only
        conn.row_factory = sqlite3.Row
        return conn

    def _configure(self, conn: sqlite3.Connection) -> None:
        """Settings of a read-write connection, then the schema migrations."""
        conn.execute(f"PRAGMA busy_timeout={int(self.timeout * 1000)}")
        self._use_wal(conn)
        conn.execute("PRAGMA synchronous=NORMAL")
        schema.migrate(conn)

    def _use_wal(self, conn: sqlite3.Connection) -> None:
        """Put the file in WAL mode. Switching needs an exclusive lock, and SQLite answers
        "database is locked" at once, without waiting on busy_timeout, while another
        connection opens the same new file (two servers or a hook starting together):
        retry until the timeout, as busy_timeout would."""
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                conn.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def _configure_read_only(self, conn: sqlite3.Connection) -> None:
        """Settings of a read-only connection, and a first read (which opens the file)."""
        conn.execute(f"PRAGMA busy_timeout={int(self.timeout * 1000)}")
        # mode=ro / immutable make SQLite refuse any write to the store itself; no
        # `query_only`, which would also refuse the temp tables a BM25 search counts its
        # query terms in (fts.document_frequencies): searches must work read-only
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()

    def _open(self, exists: bool, explicit: bool) -> StoreConnection:
        if not self.read_only:
            conn = self._connect(str(self.path), uri=False)
            try:
                self._configure(conn)
                return conn
            except (StoreReadOnlyError, sqlite3.OperationalError) as exc:
                conn.close()
                cannot_write = isinstance(exc, StoreReadOnlyError) or is_cantopen(exc)
                if not (exists and cannot_write and not explicit):
                    if isinstance(exc, StoreError) and not isinstance(exc, sqlite3.Error):
                        raise  # damaged, read-only or full: its message names the fix
                    raise StoreError(f"cannot open store {self.path}: {exc}") from exc
            except BaseException:
                conn.close()
                raise
            # the file exists but SQLite cannot write it (or create its -wal/-shm files)
            self.read_only = True
            self.why_read_only = read_only_reason(self.path) or "SQLite cannot write it"
        base = self.path.resolve().as_uri()
        last: Exception | None = None
        # mode=ro reads the WAL too (it needs the -shm file, or a folder to create it in);
        # immutable reads the main file alone, where nothing can be created or locked
        for mode in ("mode=ro", "immutable=1"):
            conn = self._connect(f"{base}?{mode}", uri=True)
            try:
                self._configure_read_only(conn)
            except (sqlite3.OperationalError, StoreReadOnlyError) as exc:
                # a WAL file without its -shm index, which a read-only open cannot build
                conn.close()
                last = exc
                continue
            except BaseException:
                conn.close()
                raise
            try:
                schema.migrate(conn)  # a current schema needs no write
            except StoreReadOnlyError as exc:
                found = schema.current_version(conn)
                conn.close()
                raise StoreReadOnlyError(
                    f"{exc}; its schema {found} is older than this ctxhub's "
                    f"({schema.SCHEMA_VERSION}): open it writable once to upgrade it"
                ) from exc
            except BaseException:
                conn.close()
                raise
            return conn
        raise StoreError(f"cannot open store {self.path} read-only: {last}")

    def check_integrity(self) -> None:
        """`PRAGMA quick_check` (every page and b-tree, ~0.1 s per 200 MB): raise
        StoreCorruptError, naming the fix, when the file is damaged."""
        rows = [str(r[0]) for r in self.conn.execute("PRAGMA quick_check").fetchall()]
        if rows != ["ok"]:
            found = [
                line.strip()
                for row in rows
                for line in row.splitlines()
                if line.strip() and not line.startswith("***")
            ]
            first = found[0] if found else "; ".join(rows)
            many = f"{len(found)} problems, first: " if len(found) > 1 else ""
            detail = f"quick_check: {many}{first}"
            mark_damaged(self.location, detail)
            raise StoreCorruptError(corrupt_message(self.location, detail))

    def _refuse_writes(self) -> None:
        if self.read_only:
            raise StoreReadOnlyError(read_only_message(self.location, self.why_read_only))
        found = damage(self.location)
        if found is not None:
            raise StoreCorruptError(corrupt_message(self.location, found))

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
        if self._model is None and self.read_only:
            self._model = (model, dim)  # nothing embedded to guard; nothing can be written
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

    def drop_other_models(self, model: str) -> int:
        """Delete the cached chunk embeddings of every model but `model` (record vectors
        need no sweep: re-embedding a record replaces all of its vectors). SQLite reuses
        the freed pages; the file itself shrinks only with VACUUM."""
        with self.transaction(None):
            return self.conn.execute("DELETE FROM embeddings WHERE model != ?", (model,)).rowcount

    def schema_version(self) -> int:
        return schema.current_version(self.conn)

    def size_bytes(self) -> int:
        """The file with its -wal and -shm companions (0 for one a closing connection
        just removed)."""
        total = 0
        for companion in self.path.parent.glob(self.path.name + "*"):
            try:
                total += companion.stat().st_size if companion.is_file() else 0
            except OSError:
                continue
        return total

    def update_statistics(self) -> None:
        """`PRAGMA optimize`: SQLite's own choice of which tables to ANALYZE."""
        self._refuse_writes()
        self.conn.execute("PRAGMA optimize")

    def health(self) -> list[tuple[str, bool, str]]:
        """(check, ok, detail) for `ctxhub doctor`: the engine, the file, the schema."""
        checks = [("fts5", True, f"SQLite {sqlite3.sqlite_version} has FTS5")]
        mode = f" read-only ({self.why_read_only}): writes will fail" if self.read_only else ""
        checks.append(("store", True, f"{self.location} opens{mode}"))
        version = self.schema_version()
        current = schema.SCHEMA_VERSION
        checks.append(("schema", version == current, f"version {version} (current {current})"))
        try:
            self.check_integrity()
            checks.append(("integrity", True, "PRAGMA quick_check found no damage"))
        except StoreCorruptError as exc:
            checks.append(("integrity", False, str(exc)))
        return checks

    # -- transactions --------------------------------------------------------------
    @contextmanager
    def transaction(self, counter: str | None = "generation") -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, bumping `counter`; ROLLBACK on any error.

        Knowledge writes bump `generation`, memory writes `memory_generation` (so logging a
        solution never makes a server reload the knowledge vector matrix); a write that
        changes no vectors (a rating) passes None. Inside an open transaction this joins
        it: a caller can make a read-decide-write sequence one atomic unit."""
        if self.conn.in_transaction:
            yield self.conn
            if counter is not None:
                self._bump(counter)
            return
        self._refuse_writes()
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
            if counter is not None:
                self._bump(counter)
            self.conn.execute("COMMIT")
        except BaseException:
            # SQLite has already rolled back after some errors (a full disk): a second
            # ROLLBACK would only hide the real error behind "no transaction is active"
            rollback(self.conn)
            raise

    def _bump(self, counter: str) -> None:
        self.conn.execute(
            "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = ?", (counter,)
        )


def _conforms(store: SQLiteStore) -> tuple[Store, MemoryStore, TokenStore]:
    """Never called: makes mypy check SQLiteStore against every part of the seam."""
    return store, store, store
