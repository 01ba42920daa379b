"""import-github's reading of an issue: the recorded issues mapped to records (with
their secrets redacted), and the parsing helpers that pick the error, the traceback,
the code and the resolution."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ctxhub.config import Settings
from ctxhub.core.records import record_id_for
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.memory.capture.github import GitHubImportSummary, import_issues
from ctxhub.memory.capture.github_parse import (
    choose_resolution,
    extract_error_type,
    extract_traceback,
    first_code_block,
    issue_to_record,
    linked_fix_url,
    trim_markdown,
)
from ctxhub.session import HubSession
from tests.unit.github_import_fixtures import (
    ALL,
    FakeGitHub,
    client_for,
    fake_github_server,
    records,
)


@pytest.fixture
def github() -> Iterator[FakeGitHub]:
    with fake_github_server() as fake:
        yield fake


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    with HubSession(Settings(home=tmp_path), embedder=HashingEmbedder(dim=256)) as h:
        yield h


# --- issue -> record, on the recorded issues ---------------------------------------


def test_maps_issues_to_records(github: FakeGitHub) -> None:
    got = records(github, state="all")
    r101 = got[101]
    assert r101.id == record_id_for("github", "acme/widgets", "101")
    assert r101.resolution == "maintainer-fix"
    rec = r101.record
    assert rec.problem.startswith("ModuleNotFoundError: No module named 'widgets.transports'")
    assert "<!--" not in rec.problem and "\r" not in rec.problem
    assert rec.error_type == "ModuleNotFoundError"
    assert rec.stack_trace is not None
    assert rec.stack_trace.startswith("Traceback (most recent call last):")
    assert rec.stack_trace.endswith("No module named 'widgets.transports'")
    assert rec.code_snippet == "pip install -U 'widgets>=1.4.1'"
    assert rec.resolved and rec.confidence == 0.75
    assert rec.source == "github:acme/widgets"
    assert rec.url == "https://github.com/acme/widgets/issues/101"
    assert rec.tags == ["bug", "packaging"] and rec.framework == "widgets"
    assert rec.created_at == 1704878100.0  # 2024-01-10T09:15:00Z
    assert rec.last_seen == 1705077600.0  # 2024-01-12T16:40:00Z
    assert rec.agent is None and rec.language == "python"  # the repository's language

    # the last maintainer answer before closing; the owner's "Locking ..." after it is noise
    assert got[107].resolution == "maintainer-last"
    assert got[107].record.error_type == "E0463"
    assert got[107].record.code_snippet == "rustup target add wasm32-unknown-unknown"
    assert got[107].record.confidence == 0.75
    # no maintainer: the most-reacted answer, not the "Same here, any update?"
    assert got[108].resolution == "most-reacted"
    assert got[108].record.error_type == "ERR_REQUIRE_ESM"
    assert got[108].record.code_snippet == "const { Widget } = await import('widgets-js');"
    assert got[108].record.resolved and got[108].record.confidence == 0.6
    # only "Fixed by #113": the linked fix
    assert got[109].resolution == "linked-fix"
    assert got[109].record.solution == "Fixed by https://github.com/acme/widgets/issues/113"
    assert got[109].record.error_type == "TypeError"
    # no code in the resolution: the body's first code block
    assert got[109].record.code_snippet == (
        "TypeError: expected str, bytes or os.PathLike object, not NoneType"
    )
    # closed as not planned by the stale bot; open with only a "+1"
    for number in (110, 111):
        assert got[number].resolution is None and not got[number].record.resolved
        assert got[number].record.solution == "" and got[number].record.confidence == 0.5


def test_framework_and_language_options(github: FakeGitHub) -> None:
    got = records(github, max_issues=1, framework="Widgets-SDK", language="Python")
    (item,) = got.values()
    assert item.record.framework == "widgets-sdk" and item.record.language == "python"


def test_secrets_in_issues_and_comments_are_redacted(github: FakeGitHub, hub: HubSession) -> None:
    # The fake secrets are built from fragments: this file holds none.
    token = "ghp" + "_" + "A1b2C3d4E5" * 4
    password = "hunter" + "2"
    dsn = "postgres" + "://u:" + password + "@h/db"
    other = "S3cr3t" + "-value9"  # in a comment that is not the solution
    issue = github.issue(101)
    issue["body"] += f"\r\n\r\nRun with `GITHUB_TOKEN={token}` against {dsn}; {other} did not help."
    [fix] = github.pages["issues/101/comments"][1]
    fix["body"] += f"\r\n\r\nI reproduced it with {dsn} and the token {token}."
    github.pages["issues/101/comments"][0][1]["body"] += f" DB_PASSWORD={other}"

    def check(rec: Any) -> None:
        dumped = rec.model_dump_json()
        for secret in (token, password, other):
            assert secret not in dumped
        for text in (rec.problem, rec.solution):
            assert "[REDACTED:github_token]" in text
            assert "postgres://u:[REDACTED:password]@h/db" in text
        assert "Fixed in #104" in rec.solution  # the rest of the text stays

    rec = records(github, state="all")[101].record
    check(rec)
    assert "[REDACTED:secret] did not help" in rec.problem
    with client_for(github) as client:
        summary = import_issues(hub, client, ALL)
    assert isinstance(summary, GitHubImportSummary)
    [stored] = hub.store.get_records([i.id for i in summary.issues if i.number == 101])
    check(stored)


# --- the parsing helpers ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ModuleNotFoundError: No module named 'x'", "ModuleNotFoundError"),
        ("raises requests.exceptions.ConnectionError on retry", "ConnectionError"),
        ("Exception in thread main java.lang.NullPointerException", "NullPointerException"),
        ("Error [ERR_REQUIRE_ESM]: require() of ES Module", "ERR_REQUIRE_ESM"),
        ("error[E0463]: can't find crate for `core`", "E0463"),
        ("src/a.ts(3,1): error TS2307: Cannot find module 'x'", "TS2307"),
        ("Error: listen EADDRINUSE: address already in use :::3000", "EADDRINUSE"),
        ("got a TypeError, then a ValueError", "TypeError"),
        ("Error handling is confusing; Exception safety too", None),
        ("the E2E tests and SHA256 hashes", None),
    ],
)
def test_extract_error_type(text: str, expected: str | None) -> None:
    assert extract_error_type(text) == expected


def test_traceback_keeps_chained_exceptions_and_stops_at_prose() -> None:
    body = (
        "I see this:\n\n"
        "    Traceback (most recent call last):\n"
        '      File "a.py", line 2, in <module>\n'
        "        int('x')\n"
        "    ValueError: invalid literal\n"
        "\n"
        "    During handling of the above exception, another exception occurred:\n"
        "\n"
        "    Traceback (most recent call last):\n"
        '      File "a.py", line 4, in <module>\n'
        "    RuntimeError: wrapped\n"
        "\n"
        "Any idea?"
    )
    trace = extract_traceback(body)
    assert trace is not None
    assert trace.startswith("Traceback (most recent call last):\n  File")
    assert trace.endswith("RuntimeError: wrapped") and "ValueError" in trace
    assert "Any idea" not in trace
    assert extract_traceback("no trace here") is None
    fenced = "```\nTraceback (most recent call last):\nKeyError: 'a'\n```\n\n```python\nd['a']\n```"
    record, _ = issue_to_record(issue_json(body=fenced), [], "o", "r")
    assert record.stack_trace == "Traceback (most recent call last):\nKeyError: 'a'"
    assert record.code_snippet == "d['a']"  # the traceback block is not the snippet
    assert record.error_type == "KeyError"
    issue = issue_json(body=body)
    assert issue_to_record(issue, [], "o", "r")[0].error_type == "RuntimeError"


def test_first_code_block_and_trimming() -> None:
    text = "intro\n\n~~~\n\n~~~\n\n```python\nprint('hi')\n```\n\n```\nsecond\n```"
    assert first_code_block(text) == "print('hi')"  # the empty block is passed over
    assert first_code_block("no code, just `inline`") is None
    assert first_code_block("open:\n```sh\npip install x\n") == "pip install x"
    assert first_code_block("```\na\n````\nb\n```") == "a"  # a longer closing fence
    long = "para\n\n```python\n" + "\n".join(f"x = {i}" for i in range(500)) + "\n```\n"
    cut = trim_markdown(long, 400)
    assert len(cut) < 450 and cut.endswith("[... truncated]")
    assert cut.count("```") == 2  # the block the cut opened is closed again
    assert trim_markdown("short", 400) == "short"


def test_linked_fix_url() -> None:
    assert linked_fix_url("Fixed by #456", "o", "r") == "https://github.com/o/r/issues/456"
    assert linked_fix_url("closed via up/stream#7", "o", "r") == (
        "https://github.com/up/stream/issues/7"
    )
    assert linked_fix_url("resolved in 1a2b3c4d", "o", "r") == (
        "https://github.com/o/r/commit/1a2b3c4d"
    )
    url = "https://github.com/o/r/pull/9"
    assert linked_fix_url(f"fixed with {url}", "o", "r") == url
    assert linked_fix_url("This fixes #12.", "o", "r") == "https://github.com/o/r/issues/12"
    assert linked_fix_url("see #456 for context", "o", "r") is None
    assert linked_fix_url("fixed in version 2", "o", "r") is None


def issue_json(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "number": 1,
        "title": "Crash",
        "body": "It crashes.",
        "state": "closed",
        "state_reason": "completed",
        "user": {"login": "alice", "type": "User"},
        "created_at": "2024-01-01T00:00:00Z",
        "updated_at": "2024-01-03T00:00:00Z",
        "closed_at": "2024-01-02T00:00:00Z",
        "html_url": "https://github.com/o/r/issues/1",
        "labels": [],
    }
    return {**base, **kw}


def comment_json(login: str, assoc: str, body: str, at: str, **reactions: int) -> dict[str, Any]:
    return {
        "user": {"login": login, "type": "User"},
        "author_association": assoc,
        "body": body,
        "created_at": at,
        "html_url": f"https://github.com/o/r/issues/1#issuecomment-{abs(hash(body))}",
        "reactions": {"total_count": sum(reactions.values()), **reactions},
    }


def test_resolution_preferences() -> None:
    early = "2024-01-01T12:00:00Z"
    late = "2024-01-05T00:00:00Z"
    fix = comment_json("m", "MEMBER", "Resolved by 3f2a9c1, upgrade to 2.1 please", early)
    chat = comment_json("m2", "COLLABORATOR", "I can reproduce this on Linux with 2.0.", early)
    popular = comment_json(
        "u", "NONE", "Setting WIDGETS_POOL=0 avoids it for me.", early, **{"+1": 5}
    )
    after = comment_json("m3", "OWNER", "Thinking about it more, this is a docs issue.", late)
    own = comment_json("alice", "NONE", "Solved: I had two versions installed.", early)

    def kind(issue: dict[str, Any], comments: list[dict[str, Any]]) -> str | None:
        res = choose_resolution(issue, comments, "o", "r")
        return res.kind if res else None

    closed = issue_json()
    assert kind(closed, [chat, fix, popular]) == "maintainer-fix"
    last = choose_resolution(closed, [chat, popular, after], "o", "r")
    assert last is not None and last.kind == "maintainer-last"
    assert last.text == chat["body"]  # `after` came days after the close
    assert kind(closed, [popular, own]) == "author"
    assert kind(closed, [popular]) == "most-reacted"
    me_too = comment_json("v", "NONE", "+1", early, **{"+1": 9})
    assert kind(closed, [me_too]) is None  # a "+1" is never the answer, however liked
    same = "Same here. " + "The fix for me was to pin widgets to 1.3 and clear the cache. " * 2
    assert kind(closed, [comment_json("v", "NONE", same, early, heart=1)]) == "most-reacted"
    opened = issue_json(state="open", state_reason=None, closed_at=None)
    assert kind(opened, [chat, popular]) == "most-reacted"  # no "before closing" on open ones
    assert kind(opened, [chat]) is None
    record, _ = issue_to_record(opened, [chat, fix], "o", "r")
    assert record.solution.startswith("Resolved by") and not record.resolved  # still open
    not_planned = issue_json(state_reason="not_planned")
    assert not issue_to_record(not_planned, [popular], "o", "r")[0].resolved
    assert issue_to_record(not_planned, [fix], "o", "r")[0].resolved  # a maintainer answered
