"""A damaged or full store (issue 11, item 7): every caller gets one clear StoreError
naming the fix, never a traceback, an empty success or writes into a broken file; the
previous index survives a full disk. The read-only store is in test_store_read_only.py."""

from __future__ import annotations

import hashlib
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from ctxhub.cli.main import cli
from ctxhub.config import Settings
from ctxhub.core.errors import StoreCorruptError, StoreFullError, StoreQueryError
from ctxhub.core.knowledge import SearchFilters
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.session import HubSession, set_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite import store as sqlite_mod
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools import search_tools
from ctxhub.tools.hub_status import hub_status
from tests.unit.store_docs import EMBEDDER, PAGES, write_docs


def _cli(home: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), env={"CTXHUB_HOME": str(home)})
    return result.exit_code, result.output


def _scribble(db: Path, tables: tuple[str, ...] = ("chunks", "chunks_fts_data")) -> None:
    """Random bytes over the pages (in the middle of the file) holding these tables."""
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = int(conn.execute("PRAGMA page_size").fetchone()[0])
        marks = ", ".join("?" for _ in tables)
        pages = [
            int(r[0])
            for r in conn.execute(f"SELECT pageno FROM dbstat WHERE name IN ({marks})", tables)
        ]
    conn.close()
    rng = random.Random(7)
    with open(db, "r+b") as f:
        for page in pages:
            if page > 1:
                f.seek((page - 1) * size + 16)
                f.write(rng.randbytes(size - 32))


def _digest(db: Path) -> str:
    return hashlib.sha256(db.read_bytes()).hexdigest()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A CTXHUB_HOME with one indexed docs source (embedded with a hashing model)."""
    monkeypatch.chdir(tmp_path)  # no project ctxhub.toml of the checkout is read or written
    set_embedder(EMBEDDER)
    home = tmp_path / "home"
    code, output = _cli(home, "add", str(write_docs(tmp_path / "docs")), "--name", "docs")
    assert code == 0, output
    code, output = _cli(home, "search", "idle watchdog 3")
    assert code == 0 and "Page 3" in output, output
    yield home
    set_embedder(None)
    sqlite_mod.forget_damage()


def _assert_names_the_fix(text: str) -> None:
    assert "damaged" in text
    assert "restore it from a backup" in text
    assert "ctxhub refresh --force" in text
    assert "ctxhub export" in text
    assert "Traceback" not in text


# -- corruption ------------------------------------------------------------------------


def test_search_on_a_corrupt_store_is_an_error_not_no_results(home: Path) -> None:
    _scribble(home / "ctxhub.db")
    code, output = _cli(home, "search", "idle watchdog 3")
    assert code == 1, output
    # the same words as the MCP tool's error, after the CLI's "error: "
    assert output.strip().splitlines()[-1].startswith("error: search failed: the store ")
    _assert_names_the_fix(output)
    assert "no results" not in output.lower()
    code, output = _cli(home, "search", "idle watchdog 3", "--json")
    assert code == 1 and output.startswith("error: search failed: the store "), output


def test_status_and_doctor_on_a_corrupt_store(home: Path) -> None:
    _scribble(home / "ctxhub.db")
    code, output = _cli(home, "status")
    assert code == 1, output
    assert output.startswith("error: the store "), output
    _assert_names_the_fix(output)
    code, output = _cli(home, "status", "--json")
    assert code == 1 and "Traceback" not in output
    code, output = _cli(home, "doctor")
    assert code == 1, output
    [line] = [x for x in output.splitlines() if x.startswith("FAIL integrity")]
    _assert_names_the_fix(line)


def test_no_writes_go_into_a_corrupt_store(home: Path, tmp_path: Path) -> None:
    db = home / "ctxhub.db"
    _scribble(db, ("embeddings",))  # pages a refresh of unchanged files would not read
    before = _digest(db)
    (tmp_path / "docs" / "new.md").write_text("# New\n\nA new page about transports.\n")
    code, output = _cli(home, "refresh")
    assert code == 1, output
    _assert_names_the_fix(output)
    assert _digest(db) == before
    assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0


def test_once_seen_damaged_a_store_refuses_writes_but_keeps_reading(home: Path) -> None:
    db = home / "ctxhub.db"
    _scribble(db, ("chunks_fts_data",))
    with SQLiteStore(db) as store:
        with pytest.raises(StoreCorruptError):
            store.bm25(["watchdog3"], SearchFilters(), None, 10)
        assert store.counts()["docs"]["doc"] >= PAGES  # what is readable stays readable
        with pytest.raises(StoreCorruptError, match="damaged"):
            store.upsert_source(store.sources()[0])
    with SQLiteStore(db) as again, pytest.raises(StoreCorruptError):  # a new connection too
        again.upsert_source(again.sources()[0])


def test_mcp_search_tool_on_a_corrupt_store(home: Path) -> None:
    from ctxhub.server.runtime import ToolRunner
    from ctxhub.tools.specs.search import SEARCH, SearchArgs

    _scribble(home / "ctxhub.db")
    settings = Settings(home=home)
    with HubSession(settings, embedder=EMBEDDER) as hub, pytest.raises(StoreCorruptError) as caught:
        search_tools.search(hub, "idle watchdog 3")
    _assert_names_the_fix(str(caught.value))
    runner = ToolRunner(settings)
    try:
        result = runner.run_sync(SEARCH, SearchArgs(query="idle watchdog 3"))
    finally:
        runner.pool.close()
    assert result.is_error
    text = result.content[0].text  # type: ignore[union-attr]
    assert text.startswith("search failed: the store ")
    _assert_names_the_fix(text)


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    db = tmp_path / "ctxhub.db"
    db.write_bytes(b"this is not sqlite at all" * 200)
    with pytest.raises(StoreCorruptError) as caught:
        SQLiteStore(db)
    assert "file is not a database" in str(caught.value)
    _assert_names_the_fix(str(caught.value))


def test_a_rejected_statement_is_a_query_error_not_corruption(store: SQLiteStore) -> None:
    with pytest.raises(StoreQueryError) as caught:
        store.conn.execute("SELECT * FROM chunks_fts WHERE chunks_fts MATCH ?", ('"corrupt',))
    assert isinstance(caught.value, sqlite3.OperationalError)  # the store's own code sees it
    assert not isinstance(caught.value, StoreCorruptError)
    assert str(caught.value) == "unterminated string"  # SQLite's own words, unchanged


# -- disk full ---------------------------------------------------------------------------


def _fill_up(store: SQLiteStore, spare_pages: int = 4) -> None:
    """SQLITE_FULL once the file grows a few pages: what a full disk does to SQLite."""
    pages = int(store.conn.execute("PRAGMA page_count").fetchone()[0])
    store.conn.execute(f"PRAGMA max_page_count = {pages + spare_pages}")


def test_disk_full_during_refresh_names_it_and_keeps_the_previous_index(
    store: SQLiteStore, tmp_path: Path
) -> None:
    root = write_docs(tmp_path / "docs", 3)
    spec = SourceSpec(name="docs", path=str(root), kind=["docs"])
    refresh(store, [spec], tmp_path / "sources", None)
    before = store.counts()
    write_docs(tmp_path / "docs", PAGES)  # 27 more pages
    (root / "page0.md").write_text("# Page 0\n\nrewritten\n" + "new words " * 3000)
    _fill_up(store)
    with pytest.raises(StoreFullError) as caught:
        refresh(store, [spec], tmp_path / "sources", None)
    message = str(caught.value)
    assert "disk full" in message and "cannot rollback" not in message
    assert caught.value.__cause__ is not None
    assert store.counts()["docs"]["doc"] >= before["docs"]["doc"]
    assert store.bm25(["watchdog1"], SearchFilters(), None, 5)  # still searchable
    assert not store.conn.in_transaction
    [source] = hub_status(store, 30).sources
    assert (source.status, source.error) == ("partial", "interrupted; run ctxhub refresh")


def test_disk_full_through_the_cli(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = SQLiteStore._configure

    def configure(self: SQLiteStore, conn: sqlite3.Connection) -> None:
        real(self, conn)
        pages = int(conn.execute("PRAGMA page_count").fetchone()[0])
        conn.execute(f"PRAGMA max_page_count = {pages + 2}")

    monkeypatch.setattr(SQLiteStore, "_configure", configure)
    for i in range(40):
        (tmp_path / "docs" / f"more{i}.md").write_text(f"# More {i}\n\n" + "text " * 2000)
    code, output = _cli(home, "refresh")
    assert code == 1, output
    last = output.strip().splitlines()[-1]
    assert last.startswith("error: disk full"), output
    assert "cannot rollback" not in output and "Traceback" not in output
    monkeypatch.setattr(SQLiteStore, "_configure", real)
    code, output = _cli(home, "search", "idle watchdog 3")
    assert code == 0 and "Page 3" in output, output
