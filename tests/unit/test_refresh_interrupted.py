"""An interrupted refresh (issue 11, item 9): kill -9 in the middle of the lexical phase
of a first index leaves searchable chunks; status, sources and the hub status model call
that source "partial (interrupted; run ctxhub refresh)", and the next refresh heals it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

import ctxhub.ingest.refresh.incremental as refresh_mod
from ctxhub.cli.main import cli
from ctxhub.core.knowledge import SearchFilters
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools.hub_status import hub_status

#: Runs a first refresh and SIGKILLs itself when the fourth unit is about to be extracted.
KILLER = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    import ctxhub.ingest.refresh.incremental as r
    from ctxhub.sources.base import SourceSpec
    from ctxhub.store.sqlite.store import SQLiteStore

    real, done = r.extract_unit, []

    def extract(unit, snapshot, ctx):
        if len(done) == 3:
            os.kill(os.getpid(), signal.SIGKILL)  # kill -9, nothing runs after this
        done.append(unit.key)
        return real(unit, snapshot, ctx)

    r.extract_unit = extract
    store = SQLiteStore(sys.argv[1])
    spec = SourceSpec(name="docs", path=sys.argv[2], kind=["docs"])
    r.refresh(store, [spec], Path(sys.argv[3]), None)
    """
)


def _pages(root: Path, n: int = 8) -> Path:
    (root / "pages").mkdir(parents=True)
    for i in range(n):
        (root / "pages" / f"p{i}.md").write_text(f"# Page {i}\n\nThe watchdog number {i}.\n")
    return root


@pytest.fixture
def killed(tmp_path: Path) -> tuple[Path, Path]:
    """(home, docs root) after a first refresh was killed with SIGKILL mid-way."""
    home, root = tmp_path / "home", _pages(tmp_path / "docs")
    home.mkdir()
    db = home / "ctxhub.db"
    done = subprocess.run(
        [sys.executable, "-c", KILLER, str(db), str(root), str(home / "sources")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == -9, done.stderr
    (home / "ctxhub.toml").write_text(
        f'[[sources]]\nname = "docs"\nkind = ["docs"]\npath = "{root}"\n'
    )
    return home, root


def _cli(home: Path, *args: str) -> tuple[int, str]:
    # a wide console: these tests read the table form (80 columns stacks the rows)
    result = CliRunner().invoke(cli, list(args), env={"CTXHUB_HOME": str(home), "COLUMNS": "200"})
    return result.exit_code, result.output


def _column(table: str, header: str) -> str:
    """The text of one column of a Rich table, its wrapped lines joined."""
    lines = [line for line in table.splitlines() if line.startswith(("┃", "│"))]
    heads = [c.strip() for c in lines[0].strip("┃").split("┃")]
    at = heads.index(header)
    cells = [line.strip("│").split("│")[at].strip() for line in lines[1:]]
    return " ".join(c for c in cells if c)


def test_killed_first_refresh_is_reported_partial_everywhere(
    killed: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    home, _ = killed
    with SQLiteStore(home / "ctxhub.db") as store:
        assert store.counts()["docs"]["doc"] == 3  # three units committed before the kill
        assert store.bm25(["watchdog"], SearchFilters(), None, 10)
        [source] = hub_status(store, 30).sources  # what MCP get_hub_status returns
    assert source.name == "docs" and source.status == "partial"
    assert source.error == "interrupted; run ctxhub refresh"
    assert source.chunks == {"doc": 3}

    code, output = _cli(home, "sources")
    assert code == 0, output
    assert _column(output, "status") == "partial (interrupted; run ctxhub refresh)"
    assert "not indexed" not in output
    code, output = _cli(home, "sources", "--json")
    assert json.loads(output)[0]["status"] == "partial"
    code, output = _cli(home, "status")
    assert code == 0, output
    assert _column(output, "status") == "partial (interrupted; run ctxhub refresh)"

    code, output = _cli(home, "refresh", "--no-embed")
    assert code == 0, output
    with SQLiteStore(home / "ctxhub.db") as store:
        [source] = hub_status(store, 30).sources
        assert source.status == "ok" and source.error is None
        assert store.counts()["docs"]["doc"] == 8


def test_chunks_without_any_source_row_are_a_partial_source(store: SQLiteStore) -> None:
    """A store left by an older ctxhub killed mid-refresh: chunks, no source row."""
    from tests.conftest import make_chunk

    store.replace_file("orphan", "a.md", [make_chunk(source="orphan", path="a.md", kind="doc")])
    [source] = hub_status(store, 30).sources
    assert (source.name, source.status) == ("orphan", "partial")
    assert source.error == "interrupted; run ctxhub refresh"
    assert source.chunks == {"doc": 1}


def test_a_running_refresh_is_indexing_not_partial(
    store: SQLiteStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _pages(tmp_path / "docs", 3)
    seen: list[tuple[str, str | None]] = []
    real = refresh_mod.extract_unit

    def extract(unit, snapshot, ctx):  # type: ignore[no-untyped-def]
        [source] = hub_status(store, 30).sources
        seen.append((source.status, source.error))
        return real(unit, snapshot, ctx)

    monkeypatch.setattr(refresh_mod, "extract_unit", extract)
    refresh(store, [SourceSpec(name="docs", path=str(root), kind=["docs"])], tmp_path, None)
    assert seen and all(s == ("indexing", None) for s in seen)
    assert hub_status(store, 30).sources[0].status == "ok"


def test_an_exception_mid_refresh_leaves_the_source_partial(
    store: SQLiteStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _pages(tmp_path / "docs", 4)
    spec = SourceSpec(name="docs", path=str(root), kind=["docs"])
    refresh(store, [spec], tmp_path, None)
    (root / "pages" / "p0.md").write_text("# Page 0\n\nchanged\n")
    (root / "pages" / "p1.md").write_text("# Page 1\n\nchanged\n")
    real, calls = refresh_mod.extract_unit, []

    def extract(unit, snapshot, ctx):  # type: ignore[no-untyped-def]
        calls.append(unit.key)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(unit, snapshot, ctx)

    monkeypatch.setattr(refresh_mod, "extract_unit", extract)
    with pytest.raises(KeyboardInterrupt):
        refresh(store, [spec], tmp_path, None)
    [source] = hub_status(store, 30).sources
    assert (source.status, source.error) == ("partial", "interrupted; run ctxhub refresh")
    assert os.getpid()  # the live process did not keep the source "indexing"
