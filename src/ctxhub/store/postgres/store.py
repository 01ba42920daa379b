"""The server Store: one PostgreSQL database with pgvector, shared by many hubs.

A PostgresStore borrows connections from its process's pool (`conn.py`): a read takes
one for one statement (retried once on a fresh connection if the server dropped it); a
write transaction holds one until it commits, and every call made inside it (on the
same thread) joins it. Writers never block readers (MVCC). Writes to one source are
serialised across machines by an advisory lock per source; memory writes by one memory
lock, so `log_solution`'s look-for-a-duplicate-then-write is one atomic step everywhere.
Counters move by SQL arithmetic only; the generation counters move once per outermost
transaction, at its end.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from ctxhub.core.errors import ModelMismatchError, StoreError, StoreReadOnlyError
from ctxhub.store.memory_protocol import MemoryStore
from ctxhub.store.postgres import schema
from ctxhub.store.postgres.conn import (
    CONNECT_TIMEOUT,
    START_HINT,
    acquire_pool,
    connect_error,
    display_location,
    extension_error,
    is_disconnect,
    release_pool,
    translate,
)
from ctxhub.store.postgres.memory_writes import PgMemoryQueries
from ctxhub.store.postgres.reads import PgSearchQueries
from ctxhub.store.postgres.tokens import PgTokenQueries
from ctxhub.store.postgres.vectors import drop_indexes_except, ensure_index, index_name
from ctxhub.store.postgres.writes import PgChunkWrites
from ctxhub.store.protocol import Store
from ctxhub.store.token_protocol import TokenStore

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

T = TypeVar("T")

__all__ = ["PostgresStore"]


class PostgresStore(PgChunkWrites, PgSearchQueries, PgMemoryQueries, PgTokenQueries):
    def __init__(self, location: str, *, read_only: bool | None = None) -> None:
        """Open the store in the database `location` names (creating its tables and the
        pgvector extension on first use). Raises a StoreError naming the fix when the
        server cannot be reached, refuses the password, or has no pgvector."""
        import psycopg

        self._dsn = location
        self.location = display_location(location)
        self.read_only = bool(read_only)
        self.why_read_only = "opened read-only" if self.read_only else ""
        self._local = threading.local()
        self._count: tuple[int, int] | None = None
        self._windows: tuple[int, int] | None = None
        self._df: tuple[int, dict[str, int]] = (-1, {})
        self._avg: tuple[int, float] | None = None
        self._memory_avg: tuple[int, float] | None = None
        try:
            first = psycopg.connect(location, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
        except psycopg.Error as exc:
            raise connect_error(exc, self.location) from None
        with first:
            if not self.read_only:
                try:
                    schema.ensure_vector_extension(first)
                except psycopg.Error as exc:
                    raise extension_error(exc, self.location) from None
            self._migrate(first)
            self._model = self._read_model(first)
            self.server_version = str(first.info.server_version)
        self.pool: ConnectionPool[Any] | None = acquire_pool(location, self.read_only)

    def _migrate(self, conn: psycopg.Connection[Any]) -> None:
        import psycopg

        if self.read_only:
            found = schema.current_version(conn)
            if found != schema.SCHEMA_VERSION:
                raise StoreReadOnlyError(
                    f"the store {self.location} opened read-only has schema {found}, not "
                    f"{schema.SCHEMA_VERSION}: open it writable once to create or upgrade it"
                )
            return
        try:
            schema.migrate(conn)
        except psycopg.Error as exc:
            err = translate(exc, self.location)
            raise (err or StoreError(f"cannot set up the store {self.location}: {exc}")) from exc

    @staticmethod
    def _read_model(conn: psycopg.Connection[Any]) -> tuple[str, int] | None:
        rows = dict(
            conn.execute(
                "SELECT key, value FROM meta WHERE key IN ('embedding_model', 'embedding_dim')"
            ).fetchall()
        )
        if "embedding_model" not in rows:
            return None
        return (str(rows["embedding_model"]), int(rows.get("embedding_dim") or 0))

    def close(self) -> None:
        pool = getattr(self, "pool", None)
        if pool is not None:
            self.pool = None
            release_pool(pool)

    def __enter__(self) -> PostgresStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- running statements ------------------------------------------------------------
    def _tx_conn(self) -> psycopg.Connection[Any] | None:
        return getattr(self._local, "conn", None)

    def _fail(self, exc: Exception) -> StoreError:
        err = translate(exc, self.location)
        if err is None:
            raise exc  # a bug (bad SQL, a broken constraint): its traceback helps
        return err

    def _read(self, fn: Callable[[psycopg.Connection[Any]], T]) -> T:
        """Run `fn` on the open transaction's connection, or on a pooled one; a
        connection the server dropped is replaced and `fn` run once more."""
        import psycopg
        from psycopg_pool import PoolTimeout

        tx = self._tx_conn()
        if tx is not None:
            try:
                return fn(tx)
            except psycopg.Error as exc:
                raise self._fail(exc) from exc
        if self.pool is None:
            raise StoreError(f"the store {self.location} is closed")
        for attempt in (0, 1):
            conn: psycopg.Connection[Any] | None = None
            try:
                with self.pool.connection() as conn:
                    return fn(conn)
            except PoolTimeout as exc:
                raise StoreError(
                    f"no connection to PostgreSQL at {self.location} ({exc}): {START_HINT}"
                ) from exc
            except psycopg.Error as exc:
                if attempt == 0 and is_disconnect(exc, conn):
                    self.pool.check()  # drop the other dead connections too
                    continue
                raise self._fail(exc) from exc
        raise AssertionError("unreachable")

    def _all(self, statement: Any, params: Any = (), *, dicts: bool = False) -> list[Any]:
        from psycopg.rows import dict_row

        def run(conn: psycopg.Connection[Any]) -> list[Any]:
            cur = conn.cursor(row_factory=dict_row) if dicts else conn.cursor()
            return cur.execute(statement, params).fetchall()

        return self._read(run)

    def _one(self, statement: Any, params: Any = ()) -> Any:
        rows = self._all(statement, params)
        return rows[0] if rows else None

    # -- transactions ------------------------------------------------------------------
    @contextmanager
    def transaction(self, counter: str | None = "generation") -> Iterator[Any]:
        """One atomic change: BEGIN ... COMMIT on one connection, moving `counter` once
        at the end (ROLLBACK on any error). Inside an open transaction this joins it."""
        tx = self._tx_conn()
        if tx is not None:
            yield tx
            if counter is not None:
                self._local.counters.add(counter)
            return
        self._refuse_writes()
        import psycopg

        if self.pool is None:
            raise StoreError(f"the store {self.location} is closed")
        try:
            with self.pool.connection() as conn, conn.transaction():
                self._local.conn, self._local.counters = conn, set()
                try:
                    yield conn
                    if counter is not None:
                        self._local.counters.add(counter)
                    for name in sorted(self._local.counters):
                        conn.execute(
                            "UPDATE meta SET value = (value::bigint + 1)::text WHERE key = %s",
                            (name,),
                        )
                finally:
                    self._local.conn = None
        except psycopg.Error as exc:
            raise self._fail(exc) from exc

    def _refuse_writes(self) -> None:
        if self.read_only:
            raise StoreReadOnlyError(
                f"the store {self.location} is read-only ({self.why_read_only}): searches "
                "work, but refresh, add, remove, log and ratings cannot write"
            )

    def _lock_source(self, conn: Any, source: str) -> None:
        """Serialise writes to one source across every process and machine."""
        conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (source,))

    # -- meta, the model guard ---------------------------------------------------------
    def _meta(self, key: str) -> str | None:
        row = self._one("SELECT value FROM meta WHERE key = %s", (key,))
        return None if row is None else str(row[0])

    @property
    def model(self) -> tuple[str, int] | None:
        return self._model

    def bind_model(self, model: str, dim: int) -> None:
        if self._model is None and self.read_only:
            self._model = (model, dim)
        if self._model is None:
            with self.transaction() as conn:
                for key, value in (("embedding_model", model), ("embedding_dim", str(dim))):
                    conn.execute(
                        "INSERT INTO meta(key, value) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                        (key, value),
                    )
            self._model = self._read(self._read_model)
        if self._model != (model, dim):
            assert self._model is not None
            raise ModelMismatchError(
                f"store {self.location} holds vectors of {self._model[0]} (dim "
                f"{self._model[1]}), not {model} (dim {dim}); run `ctxhub refresh --reembed` "
                "to re-embed every chunk with the current model"
            )
        self._ensure_indexes(model, dim)

    def rebind_model(self, model: str, dim: int) -> None:
        with self.transaction() as conn:
            for key, value in (("embedding_model", model), ("embedding_dim", str(dim))):
                conn.execute(
                    "INSERT INTO meta(key, value) VALUES (%s, %s) "
                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (key, value),
                )
        self._model = (model, dim)
        self._ensure_indexes(model, dim)

    def _ensure_indexes(self, model: str, dim: int) -> None:
        if self.read_only:
            return
        lock = (schema.LOCK_NAMESPACE, schema.MIGRATE_LOCK)
        self._read(lambda conn: ensure_index(conn, "embeddings", model, dim, lock))

    def drop_other_models(self, model: str) -> int:
        """Delete the chunk vectors of every other model, and their HNSW indexes."""
        with self.transaction(None) as conn:
            n = conn.execute("DELETE FROM embeddings WHERE model != %s", (model,)).rowcount
            if self._model is not None and self._model[0] == model:
                drop_indexes_except(conn, "embeddings", index_name("embeddings", *self._model))
        return int(n)

    def schema_version(self) -> int:
        return int(self._read(schema.current_version))

    def size_bytes(self) -> int:
        row = self._one(
            "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relkind = 'r'"
        )
        return int(row[0])

    def update_statistics(self) -> None:
        """ANALYZE (autovacuum would, a minute or so after a large write)."""
        self._refuse_writes()
        self._read(lambda conn: conn.execute("ANALYZE"))

    def check_integrity(self) -> None:
        """PostgreSQL checks its own pages (checksums, WAL); a query that reads damaged
        data raises StoreCorruptError where it happens. Here: the schema answers."""
        self._one("SELECT count(*) FROM meta")

    def health(self) -> list[tuple[str, bool, str]]:
        row = self._one("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        version = str(row[0]) if row else ""
        major_minor = tuple(int(p) for p in version.split(".")[:2] if p.isdigit())
        checks = [
            (
                "pgvector",
                major_minor >= (0, 8),
                f"pgvector {version or 'missing'} (iterative index scans need >= 0.8)",
            )
        ]
        mode = " read-only: writes will fail" if self.read_only else ""
        checks.append(("store", True, f"{self.location} answers{mode}"))
        found, current = self.schema_version(), schema.SCHEMA_VERSION
        checks.append(("schema", found == current, f"version {found} (current {current})"))
        checks.append(("integrity", True, "checked by PostgreSQL (page checksums, WAL)"))
        return checks


def _conforms(store: PostgresStore) -> tuple[Store, MemoryStore, TokenStore]:
    """Never called: makes mypy check PostgresStore against every part of the seam."""
    return store, store, store
