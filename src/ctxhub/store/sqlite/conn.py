"""The SQLite connection under every store: SQLite's errors about the file itself become
StoreErrors whose message names the fix.

Every statement the store runs (through `conn.execute`, `executemany` or a cursor, and
every row it fetches) goes through `StoreConnection`/`StoreCursor`, so a damaged page is
reported wherever it is first read:

- SQLITE_CORRUPT / SQLITE_NOTADB ("database disk image is malformed", "file is not a
  database", a broken FTS structure) -> StoreCorruptError, and the file is remembered as
  damaged for the rest of the process, so no later write goes into it;
- SQLITE_READONLY -> StoreReadOnlyError ("the store <path> is read-only");
- SQLITE_FULL -> StoreFullError ("disk full"; SQLite rolled the write back).

Any other `OperationalError` (a lock held past the busy timeout, a statement SQLite
rejects) becomes a `SQLiteQueryError`: a StoreQueryError to the layers above (one
retrieval path failed; the others still answer) and still an `OperationalError` to the
store's own code, with SQLite's message and error code unchanged.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from ctxhub.core.errors import (
    StoreCorruptError,
    StoreError,
    StoreFullError,
    StoreQueryError,
    StoreReadOnlyError,
)

SQLITE_READONLY, SQLITE_CORRUPT, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_NOTADB = 8, 11, 13, 14, 26

T = TypeVar("T")

#: Messages of the same errors, for Pythons without `sqlite_errorcode` (3.10).
_CORRUPT_TEXT = ("database disk image is malformed", "file is not a database")
_READONLY_TEXT = ("attempt to write a readonly database",)
_FULL_TEXT = ("database or disk is full",)

#: (store path, inode) -> what SQLite said when the file was first found damaged. Keyed
#: by inode so a file restored from a backup (a new file) is trusted again.
_DAMAGED: dict[tuple[str, int], str] = {}
_DAMAGED_LOCK = threading.Lock()


def corrupt_message(location: str, detail: str) -> str:
    return (
        f"the store {location} is damaged ({detail}): restore it from a backup, or move it "
        "aside and run `ctxhub refresh --force` to index every source into a new store. "
        "Memory records can be exported (`ctxhub export FILE`, then `ctxhub import FILE` "
        "into the new store) only while the damaged file is still readable"
    )


def read_only_message(location: str, why: str) -> str:
    return (
        f"the store {location} is read-only ({why}): searches work, but refresh, add, "
        "remove, log and ratings cannot write; make the file and its folder writable, or "
        "point CTXHUB_DB at a writable copy"
    )


def full_message(location: str, detail: str) -> str:
    return (
        f"disk full: the store {location} could not grow ({detail}); the write was rolled "
        "back and the last committed index is unchanged and searchable. Free some space "
        "(or move the store with CTXHUB_DB) and run the command again"
    )


def _key(location: str) -> tuple[str, int] | None:
    try:
        return (location, os.stat(location).st_ino)
    except OSError:
        return None


def mark_damaged(location: str, detail: str) -> None:
    key = _key(location)
    if key is not None:
        with _DAMAGED_LOCK:
            _DAMAGED.setdefault(key, detail)


def damage(location: str) -> str | None:
    """What SQLite said when this process found the store damaged, or None."""
    key = _key(location)
    if key is None:
        return None
    with _DAMAGED_LOCK:
        return _DAMAGED.get(key)


def forget_damage() -> None:
    """Trust every store again (tests; a long-lived process never needs it)."""
    with _DAMAGED_LOCK:
        _DAMAGED.clear()


class SQLiteQueryError(StoreQueryError, sqlite3.OperationalError):
    """An SQLite statement failed for a reason other than the file (see the module)."""

    sqlite_errorcode: int | None = None
    sqlite_errorname: str | None = None


def _query_error(exc: sqlite3.OperationalError) -> SQLiteQueryError:
    err = SQLiteQueryError(str(exc))
    err.sqlite_errorcode = getattr(exc, "sqlite_errorcode", None)
    err.sqlite_errorname = getattr(exc, "sqlite_errorname", None)
    return err


def _primary_code(exc: sqlite3.Error) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def is_cantopen(exc: sqlite3.Error) -> bool:
    code = _primary_code(exc)
    if code is not None:
        return code == SQLITE_CANTOPEN
    return "unable to open database file" in str(exc)


def translate(exc: sqlite3.Error, location: str, why_read_only: str = "") -> StoreError | None:
    """The StoreError an SQLite error stands for; None for errors that are bugs
    (an integrity or programming error)."""
    text = str(exc)
    code = _primary_code(exc)
    # Only codes decide where Python has them: an FTS syntax error quotes the query,
    # which may contain any words. A broken FTS structure record is an SQLITE_ERROR.
    if code is None:
        corrupt = any(t in text for t in _CORRUPT_TEXT)
        read_only = any(t in text for t in _READONLY_TEXT)
        full = any(t in text for t in _FULL_TEXT)
    else:
        corrupt = code in (SQLITE_CORRUPT, SQLITE_NOTADB)
        read_only, full = code == SQLITE_READONLY, code == SQLITE_FULL
    corrupt = corrupt or text.startswith("vtable constructor failed")
    if corrupt:
        mark_damaged(location, text)
        return StoreCorruptError(corrupt_message(location, text))
    if read_only:
        return StoreReadOnlyError(read_only_message(location, why_read_only or text))
    if full:
        return StoreFullError(full_message(location, text))
    if isinstance(exc, sqlite3.OperationalError) and not isinstance(exc, StoreError):
        return _query_error(exc)
    return None


class StoreCursor(sqlite3.Cursor):
    """A cursor whose statements and fetches raise StoreErrors for a damaged, read-only
    or full store file (and StoreQueryErrors for the rest; see the module)."""

    def _guard(self, call: Callable[[], T]) -> T:
        try:
            return call()
        except sqlite3.DatabaseError as exc:
            conn = self.connection
            location = getattr(conn, "location", "") or "(unknown)"
            err = translate(exc, location, getattr(conn, "why_read_only", ""))
            if err is None:
                raise
            raise err from exc

    def execute(self, sql: str, parameters: Any = (), /) -> StoreCursor:
        self._guard(lambda: super(StoreCursor, self).execute(sql, parameters))
        return self

    def executemany(self, sql: str, seq_of_parameters: Iterable[Any], /) -> StoreCursor:
        self._guard(lambda: super(StoreCursor, self).executemany(sql, seq_of_parameters))
        return self

    def fetchone(self) -> Any:
        return self._guard(super().fetchone)

    def fetchmany(self, size: int | None = 1) -> list[Any]:
        return self._guard(
            lambda: super(StoreCursor, self).fetchmany(self.arraysize if size is None else size)
        )

    def fetchall(self) -> list[Any]:
        return self._guard(super().fetchall)

    def __iter__(self) -> StoreCursor:
        return self

    def __next__(self) -> Any:
        return self._guard(super().__next__)


class StoreConnection(sqlite3.Connection):
    """`sqlite3.connect(..., factory=StoreConnection)`: `execute` and `executemany` run
    on StoreCursors. `location` names the store in messages."""

    location: str = ""
    why_read_only: str = ""

    def cursor(self, factory: Any = StoreCursor) -> Any:
        return super().cursor(factory)

    def execute(self, sql: str, parameters: Any = (), /) -> StoreCursor:
        cur: StoreCursor = self.cursor()
        return cur.execute(sql, parameters)

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> StoreCursor:
        cur: StoreCursor = self.cursor()
        return cur.executemany(sql, parameters)
