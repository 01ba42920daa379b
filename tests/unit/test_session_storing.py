"""Storing mined sessions idempotently, and `ctxhub mine`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from ctxhub.cli.main import cli
from ctxhub.config import Settings
from ctxhub.core.records import MemoryFilters
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.memory.capture.sessions import MineSummary, mine_sessions
from ctxhub.memory.records.log import upsert_record
from ctxhub.session import HubSession, set_embedder
from tests.unit.session_transcripts import FIXTURES, SECRETS


@pytest.fixture(scope="module")
def mined() -> MineSummary:
    return mine_sessions(FIXTURES)


# --- storing ------------------------------------------------------------------------------


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    h = HubSession(Settings(home=tmp_path), embedder=HashingEmbedder(dim=256))
    yield h
    h.close()


def test_mining_twice_into_the_store_updates_in_place(hub: HubSession, mined: MineSummary) -> None:
    first = [upsert_record(hub, m.id, m.record).action for m in mined.records]
    again = mine_sessions(FIXTURES)
    second = [upsert_record(hub, m.id, m.record).action for m in again.records]
    assert first == ["created"] * 3 and second == ["unchanged"] * 3
    stored, total = hub.store.list_records(MemoryFilters(), 10)
    assert total == 3
    assert {r.id for r in stored} == {m.id for m in mined.records}
    blob = "\n".join(r.model_dump_json() for r in hub.store.iter_records())
    for secret in SECRETS:
        assert secret not in blob
    assert all(r.source == "session" and r.session_id for r in stored)


@pytest.fixture
def cli_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path / "hub"
    monkeypatch.setenv("CTXHUB_HOME", str(home))
    monkeypatch.delenv("CTXHUB_DB", raising=False)
    set_embedder(HashingEmbedder(dim=256))
    yield home
    set_embedder(None)


def _count(home: Path) -> int:
    with HubSession(Settings(home=home), embedder=HashingEmbedder(dim=256)) as h:
        return h.store.list_records(MemoryFilters(), 1)[1]


def test_cli_mine_stores_once_and_reports(cli_home: Path) -> None:
    runner = CliRunner()
    first = runner.invoke(cli, ["mine", str(FIXTURES), "--json"])
    assert first.exit_code == 0, first.output
    data = json.loads(first.output)
    assert (data["created"], data["updated"], data["unchanged"]) == (3, 0, 0)
    assert data["lines_skipped"] == 3 and data["dry_run"] is False
    second = json.loads(runner.invoke(cli, ["mine", str(FIXTURES), "--json"]).output)
    assert (second["created"], second["unchanged"]) == (0, 3)
    assert {r["id"] for r in second["records"]} == {r["id"] for r in data["records"]}
    assert _count(cli_home) == 3
    human = runner.invoke(cli, ["mine", str(FIXTURES), "--project", "weather-bot"])
    assert human.exit_code == 0, human.output
    assert "1 fixed and verified" in human.output and "0 created" in human.output


def test_cli_dry_run_stores_nothing(cli_home: Path) -> None:
    result = CliRunner().invoke(cli, ["mine", str(FIXTURES), "--dry-run"])
    assert result.exit_code == 0, result.output
    assert "ERR_REQUIRE_ESM" in result.output and "dry run: nothing stored" in result.output
    assert "[REDACTED:password]" in result.output and SECRETS[0] not in result.output
    as_json = json.loads(
        CliRunner().invoke(cli, ["mine", str(FIXTURES), "--dry-run", "--json"]).output
    )
    assert len(as_json["records"]) == 3 and as_json["records"][0]["record"]["source"] == "session"
    assert not (cli_home / "ctxhub.db").exists() or _count(cli_home) == 0


def test_cli_bad_input_never_crashes(cli_home: Path, tmp_path: Path) -> None:
    missing = CliRunner().invoke(cli, ["mine", str(tmp_path / "nope")])
    assert missing.exit_code == 1 and "does not exist" in missing.output
    bad = tmp_path / "projects" / "-x"
    bad.mkdir(parents=True)
    (bad / "a.jsonl").write_bytes(b"\x00\x01garbage\n{}\n[]\n")
    (bad / "b.jsonl").mkdir()  # a directory named like a transcript
    result = CliRunner().invoke(cli, ["mine", str(tmp_path / "projects"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["files"], data["lines_skipped"], data["records"]) == (1, 2, [])
