"""Symlinks and size caps inside a source (issue 11, items 4 and 10): a loop, a dangling
link, a directory link or an oversized file is one counted skip with a reason, never a
failed source or a traceback, and the rest of the source indexes."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from ctxhub.cli.main import cli
from ctxhub.core.knowledge import SearchFilters
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.ingest.refresh.plan import plan_units
from ctxhub.sources.base import SourceSpec
from ctxhub.sources.local import MAX_FILE_BYTES, snapshot_dir
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools.hub_status import hub_status


def _docs(root: Path) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "guide.md").write_text("# Guide\n\nRun the pipeline with a watchdog.\n")
    (root / "docs" / "other.md").write_text("# Other\n\nThe transport reconnects.\n")
    return root


def _refresh(store: SQLiteStore, root: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    spec = SourceSpec(name="src", path=str(root), kind=["docs"])
    [summary] = refresh(store, [spec], tmp_path / "sources", None).sources
    return summary


def _reasons(skipped: list[tuple[str, str]]) -> dict[str, str]:
    return dict(skipped)


def test_symlink_loop_is_a_counted_skip_and_the_rest_indexes(
    store: SQLiteStore, tmp_path: Path
) -> None:
    root = _docs(tmp_path / "repo")
    os.symlink("b.md", root / "docs" / "a.md")
    os.symlink("a.md", root / "docs" / "b.md")
    os.symlink("self.md", root / "docs" / "self.md")
    for _ in range(2):  # and every later refresh too
        summary = _refresh(store, root, tmp_path)
        assert summary.status == "ok", summary.error
        reasons = _reasons(summary.skipped)
        assert reasons["docs/a.md"] == reasons["docs/b.md"] == "symlink loop"
        assert reasons["docs/self.md"] == "symlink loop"
        assert summary.files == 2
    assert store.counts()["src"]["doc"] >= 2
    assert store.bm25(["watchdog"], SearchFilters(), None, 5)


def test_dangling_symlink_is_a_counted_skip_not_a_failed_source(
    store: SQLiteStore, tmp_path: Path
) -> None:
    root = _docs(tmp_path / "repo")
    os.symlink("gone.md", root / "docs" / "missing.md")
    os.symlink(tmp_path / "nowhere" / "x.md", root / "docs" / "abs.md")
    summary = _refresh(store, root, tmp_path)
    assert summary.status == "ok", summary.error
    assert summary.files == 2
    reasons = _reasons(summary.skipped)
    assert reasons["docs/missing.md"] == "dangling symlink"
    assert reasons["docs/abs.md"] == "dangling symlink"
    assert store.counts()["src"]["doc"] >= 2


def test_directory_symlinks_are_not_followed_even_when_they_loop(tmp_path: Path) -> None:
    root = _docs(tmp_path / "repo")
    os.symlink("..", root / "docs" / "up")  # a directory loop, were it followed
    os.symlink(root / "docs", root / "mirror")
    snap = snapshot_dir(root)
    assert snap.files == ["docs/guide.md", "docs/other.md"]
    reasons = _reasons(snap.skipped)
    assert reasons["docs/up"] == reasons["mirror"] == "symlinked directory, not followed"


def test_file_turned_into_a_loop_after_the_walk_is_skipped_at_read(tmp_path: Path) -> None:
    root = _docs(tmp_path / "repo")
    snap = snapshot_dir(root)
    (root / "docs" / "other.md").unlink()
    os.symlink("other.md", root / "docs" / "other.md")
    with pytest.raises(OSError, match="symlink loop"):
        snap.read("docs/other.md")
    (root / "docs" / "other.md").unlink()
    os.symlink("gone.md", root / "docs" / "other.md")
    with pytest.raises(OSError, match="dangling symlink"):
        snap.read("docs/other.md")
    plan = plan_units(snap, ["docs"])
    assert [u.key for u in plan.units] == ["docs/guide.md"]
    assert plan.skipped == [("docs/other.md", "dangling symlink")]


def test_oversized_and_escaping_files_are_counted_in_summary_and_status(
    store: SQLiteStore, tmp_path: Path
) -> None:
    root = _docs(tmp_path / "repo")
    (root / "docs" / "huge.md").write_text("# Huge\n" + "x" * (MAX_FILE_BYTES + 10))
    (tmp_path / "secret.md").write_text("# Secret\n")
    os.symlink(tmp_path / "secret.md", root / "docs" / "escape.md")
    summary = _refresh(store, root, tmp_path)
    reasons = _reasons(summary.skipped)
    assert "over the 1000000-byte cap" in reasons["docs/huge.md"]
    assert reasons["docs/escape.md"] == "symlink outside the source"
    [source] = hub_status(store, 30).sources
    assert source.skipped_files == 2
    assert _reasons(source.skipped) == reasons


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.chdir(tmp_path)  # no project ctxhub.toml of the checkout is read or written
    yield tmp_path / "home"


def _cli(home: Path, *args: str) -> tuple[int, str]:
    # a wide console: these tests read the table form (80 columns stacks the rows)
    result = CliRunner().invoke(cli, list(args), env={"CTXHUB_HOME": str(home), "COLUMNS": "200"})
    return result.exit_code, result.output


def test_cli_refresh_and_status_count_symlink_and_cap_skips(home: Path, tmp_path: Path) -> None:
    root = _docs(tmp_path / "repo")
    os.symlink("loop.md", root / "docs" / "loop.md")
    os.symlink("gone.md", root / "docs" / "dangling.md")
    (root / "docs" / "huge.md").write_text("x" * (MAX_FILE_BYTES + 1))
    code, output = _cli(home, "add", str(root), "--name", "repo", "--kind", "docs", "--no-refresh")
    assert code == 0, output
    code, output = _cli(home, "refresh", "--no-embed")
    assert code == 0, output
    assert "Traceback" not in output and "RuntimeError" not in output
    row = next(line for line in output.splitlines() if "repo" in line and "ok" in line)
    assert row.split("│")[8].strip() == "3"  # the skipped column
    assert "symlink loop" in output and "dangling symlink" in output
    code, output = _cli(home, "refresh", "--no-embed", "--json")
    assert code == 0, output
    [src] = json.loads(output)["sources"]
    assert len(src["skipped"]) == 3
    code, output = _cli(home, "status", "--json")
    assert code == 0, output
    [status] = json.loads(output)["sources"]
    assert status["skipped_files"] == 3
    assert {tuple(s) for s in status["skipped"]} == {
        ("docs/loop.md", "symlink loop"),
        ("docs/dangling.md", "dangling symlink"),
        ("docs/huge.md", f"{MAX_FILE_BYTES + 1} bytes is over the {MAX_FILE_BYTES}-byte cap"),
    }


def test_example_member_gone_bad_after_the_walk_leaves_the_rest_of_the_example(
    tmp_path: Path,
) -> None:
    root = tmp_path / "repo"
    (root / "examples" / "bot").mkdir(parents=True)
    (root / "examples" / "bot" / "README.md").write_text("# Bot\n\nA bot.\n")
    (root / "examples" / "bot" / "bot.py").write_text("def main():\n    print('hi')\n")
    (root / "examples" / "bot" / "helper.py").write_text("def helper():\n    return 1\n")
    snap = snapshot_dir(root)
    (root / "examples" / "bot" / "helper.py").unlink()
    os.symlink("helper.py", root / "examples" / "bot" / "helper.py")
    plan = plan_units(snap, ["examples"])
    [unit] = plan.units
    assert unit.example is not None
    assert "examples/bot/helper.py" not in unit.members + list(unit.example.files)
    assert "examples/bot/bot.py" in unit.members
    assert plan.skipped == [("examples/bot/helper.py", "symlink loop")]
