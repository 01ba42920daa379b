"""Connections to PostgreSQL: one pool per location and process, and psycopg's errors as
StoreErrors whose message names the fix.

- cannot connect (server down, unreachable, wrong password, no such database) ->
  StoreError naming what to start or fix;
- a pooled connection the server dropped is replaced before it is lent (the pool checks
  it), and a read whose connection drops mid-statement is run once more on a fresh one:
  a server restart between two commands is no error. A write transaction whose
  connection drops rolled back: StoreDisconnectedError, on which a write tool runs once
  more whole (`ToolSpec.call`). A server that stays down: a StoreError after POOL_WAIT
  seconds;
- disk full -> StoreFullError; a read-only server (a standby) -> StoreReadOnlyError;
  damaged data -> StoreCorruptError; a vector of the wrong size -> ModelMismatchError;
- any other operational error (a cancelled statement, a lock timeout) ->
  StoreQueryError: one retrieval path failed, the others still answer.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from ctxhub.core.errors import (
    ModelMismatchError,
    StoreCorruptError,
    StoreDisconnectedError,
    StoreError,
    StoreFullError,
    StoreQueryError,
    StoreReadOnlyError,
)

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

#: Seconds to wait for the server before saying it is unreachable.
CONNECT_TIMEOUT = 5
#: Seconds a statement waits for a pooled connection (the server down: a StoreError then).
POOL_WAIT = 10.0
#: Connections one process keeps to one database (the server's pooled sessions share them).
POOL_MAX = 8

START_HINT = (
    "start the server (for a local one to try: `python -m ctxhub.store.postgres.local`), "
    "or point CTXHUB_DB (or --db) at one that runs"
)


def display_location(location: str) -> str:
    """`postgresql://user@host:port/db`: the location without its password, for messages."""
    from psycopg.conninfo import conninfo_to_dict

    try:
        info = conninfo_to_dict(location)
    except Exception:  # a malformed URL: say so where it is opened
        return location.split("@")[-1] if "@" in location else location
    user = str(info.get("user") or "")
    host = str(info.get("host") or "localhost")
    port = str(info.get("port") or "")
    dbname = str(info.get("dbname") or user)
    who = f"{user}@" if user else ""
    if host.startswith("/"):  # a unix socket folder: as the URL spells it
        return f"postgresql://{who}/{dbname}?host={host}"
    return f"postgresql://{who}{host}{':' + port if port else ''}/{dbname}"


def connect_error(exc: Exception, shown: str) -> StoreError:
    """The StoreError for a connection that could not be made."""
    text = str(exc).strip()
    low = text.lower()
    if "password authentication failed" in low or "no password supplied" in low:
        return StoreError(
            f"PostgreSQL at {shown} refused the password: put the right one in the URL "
            "(postgresql://user:PASSWORD@host/db), in PGPASSWORD or in ~/.pgpass"
        )
    if "does not exist" in low and "database" in low:
        return StoreError(
            f"{text} at {shown}: create it (`createdb NAME`, or CREATE DATABASE NAME) or "
            "fix the database name in CTXHUB_DB"
        )
    if "role" in low and "does not exist" in low:
        return StoreError(f"{text} at {shown}: create the user or fix it in CTXHUB_DB")
    first = text.splitlines()[0] if text else type(exc).__name__
    return StoreError(f"cannot reach PostgreSQL at {shown} ({first}): {START_HINT}")


def extension_error(exc: Exception, shown: str) -> StoreError:
    """CREATE EXTENSION vector failed: say how to get pgvector."""
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if "permission denied" in first.lower() or "must be" in first.lower():
        fix = "ask a superuser to run `CREATE EXTENSION vector;` in that database once"
    else:
        fix = (
            "install pgvector >= 0.8 on the server (Debian/Ubuntu: "
            "`apt install postgresql-NN-pgvector`; or build it from "
            "https://github.com/pgvector/pgvector), then open the store again"
        )
    return StoreError(f"PostgreSQL at {shown} has no usable pgvector extension ({first}): {fix}")


def is_disconnect(exc: BaseException, conn: psycopg.Connection[Any] | None) -> bool:
    """True when `exc` means the connection itself went away (worth one retry)."""
    import psycopg

    if not isinstance(exc, psycopg.OperationalError):
        return False
    if conn is not None and conn.closed:
        return True
    sqlstate = getattr(exc, "sqlstate", None)
    # admin shutdown / crash shutdown / cannot connect now / connection failures
    return sqlstate is None or sqlstate.startswith("08") or sqlstate in ("57P01", "57P02", "57P03")


def translate(exc: Exception, shown: str) -> StoreError | None:
    """The StoreError a psycopg error stands for; None for errors that are bugs."""
    import psycopg
    from psycopg import errors

    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if isinstance(exc, errors.DiskFull):
        return StoreFullError(
            f"disk full: PostgreSQL at {shown} could not grow ({text}); the write was rolled "
            "back and the last committed index is unchanged. Free space on the server"
        )
    if isinstance(exc, errors.ReadOnlySqlTransaction):
        return StoreReadOnlyError(
            f"the store {shown} is read-only ({text}): searches work, but refresh, add, "
            "remove, log and ratings cannot write; point CTXHUB_DB at the primary server"
        )
    if isinstance(exc, errors.DataCorrupted | errors.IndexCorrupted):
        return StoreCorruptError(
            f"the store {shown} is damaged ({text}): restore the database from a backup, "
            "or REINDEX the damaged index"
        )
    if isinstance(exc, psycopg.DataError) and "dimensions" in text:
        return ModelMismatchError(
            f"the store {shown} holds vectors of another size ({text}): run "
            "`ctxhub refresh --reembed` to re-embed every chunk with the current model"
        )
    if is_disconnect(exc, None):
        return StoreDisconnectedError(
            f"lost the connection to PostgreSQL at {shown} ({text}); what it was doing was "
            f"rolled back and a retry failed: {START_HINT}"
        )
    if isinstance(exc, psycopg.OperationalError):
        return StoreQueryError(f"PostgreSQL at {shown}: {text}")
    return None


# -- pools, shared by every store of one location in this process ---------------------
_POOLS: dict[str, tuple[ConnectionPool[Any], int]] = {}
_POOLS_LOCK = threading.Lock()


def acquire_pool(location: str, read_only: bool) -> ConnectionPool[Any]:
    """The process's pool for `location` (opened on first use); release it when done."""
    from psycopg_pool import ConnectionPool

    key = f"{location}\x00{'ro' if read_only else 'rw'}"
    with _POOLS_LOCK:
        if key in _POOLS:
            pool, users = _POOLS[key]
            _POOLS[key] = (pool, users + 1)
            return pool
        options = "-c default_transaction_read_only=on" if read_only else ""
        kwargs: dict[str, Any] = {"autocommit": True, "connect_timeout": CONNECT_TIMEOUT}
        if options:
            kwargs["options"] = options
        pool = ConnectionPool(
            location,
            kwargs=kwargs,
            min_size=1,
            max_size=POOL_MAX,
            open=True,
            timeout=POOL_WAIT,
            name="ctxhub",
            # a connection the server dropped while pooled (a restart, an idle timeout)
            # is replaced before it is lent: writes, which are never retried, start on a
            # live one. One round trip per borrow (~0.1 ms on a socket)
            check=ConnectionPool.check_connection,
        )
        _POOLS[key] = (pool, 1)
        return pool


def release_pool(pool: ConnectionPool[Any]) -> None:
    with _POOLS_LOCK:
        for key, (found, users) in list(_POOLS.items()):
            if found is pool:
                if users > 1:
                    _POOLS[key] = (found, users - 1)
                    return
                del _POOLS[key]
                break
    pool.close()
