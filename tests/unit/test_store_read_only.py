"""A read-only store (issue 11, item 7): a file or folder the user cannot write, or a
read-only mount, still reads; a write is one clear error naming the store."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.core.errors import StoreReadOnlyError
from ctxhub.core.knowledge import SearchFilters
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore
from tests.unit.store_docs import EMBEDDER, write_docs

# -- read-only ---------------------------------------------------------------------------

#: Opens the store as the current (or, given a uid, another) user; prints what happened.
READER = textwrap.dedent(
    """
    import os, sys
    from ctxhub.core.knowledge import SearchFilters
    from ctxhub.core.errors import StoreReadOnlyError
    from ctxhub.store.sqlite.store import SQLiteStore

    db, uid = sys.argv[1], int(sys.argv[2])
    if uid >= 0:
        os.setgid(uid)
        os.setuid(uid)  # everything is imported: only the store is touched from here on
    store = SQLiteStore(db)
    print("read_only", store.read_only, store.why_read_only)
    print("hits", len(store.bm25(["watchdog3"], SearchFilters(), None, 5)))
    # the retriever counts query words first (temp tables): a read-only store allows it
    print("terms", store.term_frequencies(["watchdog3"])[0])
    print("sources", [s.name for s in store.sources()])
    try:
        store.upsert_source(store.sources()[0])
        print("wrote")
    except StoreReadOnlyError as exc:
        print("refused", exc)
    """
)


#: The ctxhub command line, as the console script runs it.
CLI = "import sys; from ctxhub.cli.entry import main; sys.argv[0] = 'ctxhub'; main()"


def _read(db: Path, uid: int = -1) -> str:
    done = subprocess.run(
        [sys.executable, "-c", READER, str(db), str(uid)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _indexed(folder: Path, tmp_path: Path) -> Path:
    db = folder / "ctxhub.db"
    with SQLiteStore(db) as store:
        spec = SourceSpec(name="docs", path=str(write_docs(tmp_path / "docs", 5)), kind=["docs"])
        refresh(store, [spec], tmp_path / "sources", None)
    assert not Path(f"{db}-wal").exists()  # a clean close checkpoints the WAL away
    return db


@pytest.fixture
def shared(tmp_path: Path) -> Iterator[Path]:
    """A folder another user can enter (pytest's tmp_path is private to its owner)."""
    folder = Path(tempfile.mkdtemp(prefix="ctxhub-ro-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("what", ["both", "file", "folder"])
def test_a_store_the_user_cannot_write(shared: Path, tmp_path: Path, what: str) -> None:
    """`both`: neither the file nor its folder is writable; `file`: only the file is not;
    `folder`: the file is, but no -wal/-shm file can be created next to it. Root ignores
    file modes, so as root the reader drops to uid `nobody` (65534) after its imports."""
    db = _indexed(shared, tmp_path)
    if os.geteuid() == 0:
        uid = 65534
        if what == "file":
            os.chown(shared, uid, uid)
        if what == "folder":
            os.chown(db, uid, uid)
    else:
        uid = -1
        if what != "folder":
            db.chmod(0o444)
        if what != "file":
            shared.chmod(0o555)
    try:
        output = _read(db, uid)
    finally:
        shared.chmod(0o755)
    assert "read_only True" in output
    assert "hits 1" in output and "sources ['docs']" in output
    assert f"refused the store {db} is read-only" in output
    assert "wrote" not in output


def _can_mount() -> bool:
    return (
        os.geteuid() == 0
        and shutil.which("unshare") is not None
        and (
            subprocess.run(
                ["unshare", "-m", "--propagation", "private", "true"], capture_output=True
            ).returncode
            == 0
        )
    )


@pytest.mark.skipif(not _can_mount(), reason="needs root and unshare for a read-only bind mount")
def test_a_store_on_a_read_only_mount(shared: Path, tmp_path: Path) -> None:
    db = _indexed(shared, tmp_path)
    mount = tmp_path / "ro"
    mount.mkdir()
    script = (
        f"mount --bind {shared} {mount} && mount -o remount,ro,bind {mount} && "
        f'{sys.executable} -c "$READER" {mount / db.name} -1'
    )
    done = subprocess.run(  # a private mount namespace: the bind mount dies with it
        ["unshare", "-m", "--propagation", "private", "sh", "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "READER": READER},
    )
    assert done.returncode == 0, done.stderr
    assert "read_only True" in done.stdout and "hits 1" in done.stdout
    assert "terms {'watchdog3': 1}" in done.stdout
    assert f"refused the store {mount / db.name} is read-only" in done.stdout

    # and the CLI on it: status reads, a write is one error line, exit 1
    home = tmp_path / "home"
    home.mkdir()
    script = (
        f"mount --bind {shared} {mount} && mount -o remount,ro,bind {mount} && "
        f'{sys.executable} -c "$CLI" --db {mount / db.name} status; echo rc=$?; '
        f'{sys.executable} -c "$CLI" --db {mount / db.name} remove docs; echo rc=$?'
    )
    done = subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "CLI": CLI, "CTXHUB_HOME": str(home)},
    )
    out = done.stdout + done.stderr
    assert "rc=0" in done.stdout and "docs" in done.stdout, out
    assert f"error: the store {mount / db.name} is read-only (on a read-only file system)" in out
    assert "rc=1" in done.stdout and "Traceback" not in out


def test_read_only_refusal_names_the_store(tmp_path: Path) -> None:
    db = _indexed(tmp_path, tmp_path)
    with SQLiteStore(db, read_only=True) as store:
        assert store.bm25(["watchdog3"], SearchFilters(), None, 5)
        with pytest.raises(StoreReadOnlyError, match=f"the store {db} is read-only"):
            store.delete_source("docs")
        store.bind_model(EMBEDDER.id, EMBEDDER.dim)  # a read needs no write to bind


def test_a_read_only_store_with_an_older_schema_says_so(tmp_path: Path) -> None:
    db = _indexed(tmp_path, tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
    conn.close()
    with pytest.raises(StoreReadOnlyError, match="schema 3 is older"):
        SQLiteStore(db, read_only=True)
