"""Memory commands given bad input: one clear line and a non-zero exit, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ctxhub.cli.main import cli
from ctxhub.config import Settings
from ctxhub.core.records import RecordInput
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.memory.records.log import log_solution
from ctxhub.session import HubSession


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CTXHUB_HOME", str(tmp_path))
    monkeypatch.delenv("CTXHUB_DB", raising=False)
    return tmp_path


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.output


def test_unreadable_at_file_is_a_usage_error(home: Path) -> None:
    code, output = invoke("log", "--problem", "p", "--code", f"@{home / 'missing.py'}")
    assert code == 2 and "cannot read" in output and "--code" in output
    code, output = invoke("recall", "q", "--code", "@/nonexistent/trace.txt")
    assert code == 2 and "cannot read" in output


def test_approach_search_refuses_options_it_would_ignore(home: Path) -> None:
    code, output = invoke("approach", "pin the version", "--framework", "x")
    assert code == 2 and "No such option" in output and "--framework" in output


def test_export_to_a_missing_folder_fails_cleanly(home: Path) -> None:
    code, output = invoke("export", str(home / "no" / "such" / "dir" / "out.jsonl"))
    assert code == 1 and "cannot write" in output
    assert not list(home.rglob("*.tmp"))


def test_forget_deletes_and_reports_unknown_ids(home: Path) -> None:
    with HubSession(Settings(home=home), embedder=HashingEmbedder(dim=256)) as hub:
        rid = log_solution(hub, RecordInput(problem="a problem", solution="a fix")).id
    assert invoke("forget", "nope", "--yes")[0] == 1
    assert invoke("forget", rid, "--yes")[0] == 0
    with HubSession(Settings(home=home), embedder=HashingEmbedder(dim=256)) as hub:
        assert hub.store.get_records([rid]) == []
