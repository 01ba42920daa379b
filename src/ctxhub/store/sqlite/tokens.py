"""Bearer tokens in the SQLite store (see `store/token_protocol.py`). A mixin of
SQLiteStore: it expects its `conn` and `transaction`."""

from __future__ import annotations

import sqlite3
import time
from contextlib import AbstractContextManager
from typing import Any

from ctxhub.store.token_protocol import TokenInfo

_COLUMNS = "name, read_only, created_at, revoked_at"


def token_info(row: Any) -> TokenInfo:
    return TokenInfo(
        name=row[0], read_only=bool(row[1]), created_at=float(row[2]), revoked_at=row[3]
    )


class TokenQueries:
    conn: sqlite3.Connection

    def transaction(self, counter: str | None = "generation") -> AbstractContextManager[Any]:
        raise NotImplementedError  # provided by SQLiteStore

    def add_token(self, name: str, digest: str, read_only: bool) -> bool:
        with self.transaction(None):
            found = self.conn.execute(
                "SELECT revoked_at FROM tokens WHERE name = ?", (name,)
            ).fetchone()
            if found is not None and found[0] is None:
                return False
            # a revoked token's row gives its name up: its digest can never match again
            self.conn.execute(
                "INSERT INTO tokens(name, digest, read_only, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(name) DO UPDATE SET digest = excluded.digest, "
                "read_only = excluded.read_only, created_at = excluded.created_at, "
                "revoked_at = NULL",
                (name, digest, int(read_only), time.time()),
            )
        return True

    def revoke_token(self, name: str) -> bool:
        with self.transaction(None):
            cur = self.conn.execute(
                "UPDATE tokens SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL",
                (time.time(), name),
            )
        return cur.rowcount > 0

    def tokens(self) -> list[TokenInfo]:
        rows = self.conn.execute(f"SELECT {_COLUMNS} FROM tokens ORDER BY name").fetchall()
        return [token_info(r) for r in rows]

    def token_for(self, digest: str) -> TokenInfo | None:
        row = self.conn.execute(
            f"SELECT {_COLUMNS} FROM tokens WHERE digest = ? AND revoked_at IS NULL", (digest,)
        ).fetchone()
        return None if row is None else token_info(row)

    def tokens_configured(self) -> bool:
        return self.conn.execute("SELECT 1 FROM tokens LIMIT 1").fetchone() is not None
