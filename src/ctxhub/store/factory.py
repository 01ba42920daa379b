"""Where a store lives -> the store: the one place that picks a backend.

A location is a file path (`~/.ctxhub/ctxhub.db`), a `sqlite:///path` URL, or a server
URL (`postgresql://user@host/db`). Every command, the server and the eval harness open
their store here and see only the `HubStore` protocol.
"""

from __future__ import annotations

from pathlib import Path

from ctxhub.core.errors import StoreError
from ctxhub.store.protocol import HubStore

_SERVER_SCHEMES = ("postgresql://", "postgres://")


def is_file_location(location: str) -> bool:
    """True for a SQLite file (a path or a sqlite:// URL), False for a server URL."""
    return "://" not in location or location.startswith("sqlite://")


def sqlite_path(location: str) -> Path:
    """The file a SQLite location names (`sqlite:///abs/path` or `sqlite:///~/x.db`)."""
    if location.startswith("sqlite://"):
        rest = location.removeprefix("sqlite://")
        return Path(rest.removeprefix("/") if rest.startswith("/~") else rest).expanduser()
    return Path(location).expanduser()


def open_store(location: str | Path, *, read_only: bool | None = None) -> HubStore:
    """Open (or create) the store at `location`. `read_only` as `SQLiteStore` takes it;
    a PostgreSQL store opened read-only refuses every write."""
    text = str(location)
    if text.startswith(_SERVER_SCHEMES):
        try:  # psycopg loads only here: a SQLite hub never imports it
            from ctxhub.store.postgres.store import PostgresStore
        except ImportError as exc:
            raise StoreError(
                f"a PostgreSQL store needs psycopg ({exc.name} is not installed): "
                "pip install 'ctxhub[postgres]'"
            ) from None
        return PostgresStore(text, read_only=read_only)
    if not is_file_location(text):
        scheme = text.split("://", 1)[0]
        raise StoreError(
            f"unknown store location scheme {scheme!r}: give a file path or a sqlite:/// URL"
        )
    from ctxhub.store.sqlite.store import SQLiteStore

    return SQLiteStore(sqlite_path(text), read_only=read_only)
