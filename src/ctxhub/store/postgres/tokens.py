"""Bearer tokens in the PostgreSQL store (see `store/token_protocol.py`). A mixin of
PostgresStore. Every server process on the database reads the same rows, so a token
added or revoked through one host counts on all of them at once."""

from __future__ import annotations

import time
from contextlib import AbstractContextManager
from typing import Any

from ctxhub.store.sqlite.tokens import token_info
from ctxhub.store.token_protocol import TokenInfo

_COLUMNS = "name, read_only, created_at, revoked_at"


class PgTokenQueries:
    def transaction(self, counter: str | None = "generation") -> AbstractContextManager[Any]:
        raise NotImplementedError  # provided by PostgresStore

    def _all(self, statement: Any, params: Any = (), *, dicts: bool = False) -> list[Any]:
        raise NotImplementedError  # provided by PostgresStore

    def add_token(self, name: str, digest: str, read_only: bool) -> bool:
        with self.transaction(None) as conn:
            # the name's row is locked (or its insert conflicts) until commit: two hosts
            # adding one name at once make one live token
            row = conn.execute(
                "INSERT INTO tokens(name, digest, read_only, created_at) "
                "VALUES (%s, %s, %s, %s) ON CONFLICT (name) DO UPDATE SET "
                "digest = excluded.digest, read_only = excluded.read_only, "
                "created_at = excluded.created_at, revoked_at = NULL "
                "WHERE tokens.revoked_at IS NOT NULL RETURNING name",
                (name, digest, int(read_only), time.time()),
            ).fetchone()
        return row is not None

    def revoke_token(self, name: str) -> bool:
        with self.transaction(None) as conn:
            row = conn.execute(
                "UPDATE tokens SET revoked_at = %s WHERE name = %s AND revoked_at IS NULL "
                "RETURNING name",
                (time.time(), name),
            ).fetchone()
        return row is not None

    def tokens(self) -> list[TokenInfo]:
        return [
            token_info(r)
            for r in self._all(f'SELECT {_COLUMNS} FROM tokens ORDER BY name COLLATE "C"')
        ]

    def token_for(self, digest: str) -> TokenInfo | None:
        rows = self._all(
            f"SELECT {_COLUMNS} FROM tokens WHERE digest = %s AND revoked_at IS NULL", (digest,)
        )
        return token_info(rows[0]) if rows else None

    def tokens_configured(self) -> bool:
        return bool(self._all("SELECT 1 FROM tokens LIMIT 1"))
