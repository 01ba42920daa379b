"""Several processes opening one new SQLite store at once (two MCP servers and a hook
starting together on a fresh home): every open succeeds."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

import pytest

from ctxhub.store.sqlite.store import SQLiteStore


def _open_and_close(path: str) -> str:
    try:
        SQLiteStore(path, timeout=20).close()
    except Exception as exc:  # reported to the parent, which asserts on it
        return repr(exc)
    return ""


def test_processes_opening_one_new_store_together_all_succeed(tmp_path: Path) -> None:
    # switching a new file to WAL answered "database is locked" at once (no busy wait)
    # in a few rounds out of a hundred before the open retried it
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(6) as pool:
        for n in range(12):
            path = str(tmp_path / f"hub{n}.db")
            errors = [e for e in pool.map(_open_and_close, [path] * 6) if e]
            assert errors == [], f"round {n}: {errors[0]}"
            assert SQLiteStore(path).schema_version() > 0


class _LockedTwice(sqlite3.Connection):
    """A connection whose first two WAL switches find the file locked."""

    refused = 0

    def execute(self, sql: str, *args: object) -> sqlite3.Cursor:  # type: ignore[override]
        if sql == "PRAGMA journal_mode=WAL" and type(self).refused < 2:
            type(self).refused += 1
            raise sqlite3.OperationalError("database is locked")
        return super().execute(sql, *args)


def test_a_locked_wal_switch_is_retried_within_the_timeout(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "hub.db")
    conn = sqlite3.connect(tmp_path / "other.db", factory=_LockedTwice)
    store._use_wal(conn)
    assert _LockedTwice.refused == 2
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # a lock held past the timeout is an error, not a hang
    store.timeout = 0.0
    _LockedTwice.refused = 0
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        store._use_wal(conn)
    conn.close()
    store.close()
