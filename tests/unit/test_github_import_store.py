"""import-github into the store (a re-import updates in place and keeps feedback; the
language defaults to the repository's) and the `ctxhub import-github` command."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ctxhub.cli.main import cli
from ctxhub.config import Settings
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.memory.capture.github import import_issues, iter_issue_records
from ctxhub.memory.records.feedback import rate
from ctxhub.session import HubSession, set_embedder
from tests.unit.github_import_fixtures import (
    ALL,
    FakeGitHub,
    Sleeps,
    client_for,
    fake_github_server,
    load,
)


@pytest.fixture
def github() -> Iterator[FakeGitHub]:
    with fake_github_server() as fake:
        yield fake


# --- into the store: re-import updates in place and keeps feedback ------------------


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    with HubSession(Settings(home=tmp_path), embedder=HashingEmbedder(dim=256)) as h:
        yield h


def test_reimport_updates_in_place_and_keeps_feedback(github: FakeGitHub, hub: HubSession) -> None:
    with client_for(github) as client:
        first = import_issues(hub, client, ALL)
    assert (first.fetched, first.created, first.updated, first.unchanged) == (6, 6, 0, 0)
    assert first.resolved == 4 and first.requests > 0
    ids = {i.number: i.id for i in first.issues}
    assert len(set(ids.values())) == 6

    rate(hub, ids[101], worked=True)
    rate(hub, ids[101], worked=True)
    rate(hub, ids[107], worked=False)

    with client_for(github) as client:
        again = import_issues(hub, client, ALL)
    assert (again.created, again.updated, again.unchanged) == (0, 0, 6)
    assert {i.number: i.id for i in again.issues} == ids

    issue = github.issue(101)
    issue["body"] += "\r\n\r\nEdit: also happens on Python 3.11."
    issue["updated_at"] = "2024-01-13T08:00:00Z"
    with client_for(github) as client:
        third = import_issues(hub, client, ALL)
    assert [i.number for i in third.issues if i.action == "updated"] == [101]
    assert third.unchanged == 5

    stored = {r.id: r for r in hub.store.get_records(list(ids.values()))}
    assert len(stored) == 6
    r101 = stored[ids[101]]
    assert "Python 3.11" in r101.problem
    assert (r101.worked, r101.not_worked) == (2, 0)
    assert r101.created_at == 1704878100.0 and r101.occurrences == 1
    assert (stored[ids[107]].worked, stored[ids[107]].not_worked) == (0, 1)


def test_language_defaults_to_the_repository_s_and_a_given_one_wins(
    github: FakeGitHub, hub: HubSession
) -> None:
    with client_for(github) as client:
        summary = import_issues(hub, client, ALL)
    records = hub.store.get_records([i.id for i in summary.issues])
    assert {r.language for r in records} == {"python"}  # normalised like any label
    assert sum(p == "/repos/acme/widgets" for p, _, _ in github.log) == 1  # looked up once

    github.faults[("", 1)] = [(403, {}, load("not_found.json"))]  # the lookup is refused
    with client_for(github) as client:
        refused = list(iter_issue_records(client, replace(ALL, max_issues=1)))
    assert refused[0].record.language is None  # unlabelled, and the import went on

    github.language = None  # GitHub knows no language: records stay unlabelled
    with client_for(github) as client:
        bare = list(iter_issue_records(client, replace(ALL, max_issues=1)))
    assert bare[0].record.language is None
    with client_for(github) as client:
        given = list(iter_issue_records(client, replace(ALL, max_issues=1, language="Rust")))
    assert given[0].record.language == "rust"


# --- the command --------------------------------------------------------------------


def invoke(tmp_path: Path, *args: str) -> Any:
    env = {"CTXHUB_HOME": str(tmp_path), "GITHUB_TOKEN": None, "GH_TOKEN": None}
    return CliRunner().invoke(cli, list(args), env=env)


@pytest.fixture
def hashing_embedder() -> Iterator[None]:
    set_embedder(HashingEmbedder(dim=256))
    yield
    set_embedder(None)


def test_command_imports_and_prints_json(
    github: FakeGitHub, tmp_path: Path, hashing_embedder: None
) -> None:
    args = ["import-github", "acme/widgets", "--api-url", github.base, "--state", "all", "--json"]
    result = invoke(tmp_path, *args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["repository"] == "acme/widgets" and summary["created"] == 6
    assert {i["number"] for i in summary["issues"]} == {101, 107, 108, 109, 110, 111}
    again = json.loads(invoke(tmp_path, *args).stdout)
    assert again["created"] == 0 and again["unchanged"] == 6

    human = invoke(
        tmp_path, "import-github", "acme/widgets", "--api-url", github.base, "--max", "2"
    )
    assert human.exit_code == 0
    assert "acme/widgets: 2 issues (closed)" in human.stdout


def test_command_errors_are_one_line(
    github: FakeGitHub, tmp_path: Path, hashing_embedder: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    sleeps = Sleeps()
    monkeypatch.setattr("time.sleep", sleeps)
    bad = invoke(tmp_path, "import-github", "not-a-repo")
    assert bad.exit_code == 1
    assert bad.output.strip() == "error: expected OWNER/REPO (e.g. pallets/flask), got 'not-a-repo'"
    missing = invoke(tmp_path, "import-github", "acme/nope", "--api-url", github.base)
    assert missing.exit_code == 1
    assert missing.output.strip().splitlines() == [
        "error: repository acme/nope not found; set GITHUB_TOKEN if it is private"
    ]
    down = invoke(tmp_path, "import-github", "acme/widgets", "--api-url", "http://127.0.0.1:9")
    assert down.exit_code == 1 and "Traceback" not in down.output
    assert down.output.strip().splitlines()[-1].startswith("error: cannot reach 127.0.0.1")
    assert sleeps == [1.0, 2.0, 4.0]  # backed off between the retries, then gave up


def test_command_refuses_an_api_url_without_a_scheme(
    tmp_path: Path, hashing_embedder: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    sleeps = Sleeps()
    monkeypatch.setattr("time.sleep", sleeps)
    done = invoke(tmp_path, "import-github", "acme/widgets", "--api-url", "ghe.example.com")
    assert done.exit_code == 1 and sleeps == []
    assert done.output.strip().splitlines() == [
        "error: invalid API URL 'ghe.example.com':"
        " expected http(s)://HOST[/PATH], e.g. https://api.github.com"
    ]
