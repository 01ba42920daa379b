"""import-github against a local fake of the GitHub REST API.

The fake serves the recorded-shaped responses in tests/fixtures/github/ with GitHub's
`Link` pagination (`/repositories/{id}/...?page=N`, as the real API writes it), and can
answer any request once with a rate-limit reply first. Nothing here waits for real:
the client gets a recording `sleep` and a fixed clock.
"""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from dataclasses import replace
from email.utils import formatdate
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from click.testing import CliRunner

from ctxhub.cli.main import cli
from ctxhub.config import Settings
from ctxhub.core.errors import GitHubError
from ctxhub.core.records import record_id_for
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.memory.capture.github import (
    GitHubClient,
    GitHubImportSummary,
    IssueQuery,
    import_issues,
    iter_issue_records,
    parse_repository,
)
from ctxhub.memory.capture.github_client import _retry_after as retry_after
from ctxhub.memory.capture.github_parse import (
    choose_resolution,
    extract_error_type,
    extract_traceback,
    first_code_block,
    issue_to_record,
    linked_fix_url,
    trim_markdown,
)
from ctxhub.memory.records.feedback import rate
from ctxhub.session import HubSession, set_embedder

FIXTURES = Path(__file__).parent.parent / "fixtures" / "github"
REPO_ID = 123456
NOW = 1_700_000_000.0
WIDGETS = IssueQuery("acme", "widgets")
ALL = IssueQuery("acme", "widgets", state="all")


def load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


class FakeGitHub:
    """Pages per resource, one-shot faults, and a log of every request."""

    def __init__(self) -> None:
        self.pages: dict[str, list[list[Any]]] = {
            "issues": [load(f"issues_page{i}.json") for i in (1, 2, 3)],
        }
        for path in sorted(FIXTURES.glob("comments_*_page1.json")):
            number = path.name.split("_")[1]
            files = sorted(FIXTURES.glob(f"comments_{number}_page*.json"))
            self.pages[f"issues/{number}/comments"] = [load(f.name) for f in files]
        #: (resource, page) -> replies to give, in order, before the real page
        self.faults: dict[tuple[str, int], list[tuple[int, dict[str, str], Any]]] = {}
        self.log: list[tuple[str, dict[str, str], dict[str, str]]] = []
        self.base = ""
        self.language: str | None = "Python"  # what GET /repos/acme/widgets reports

    def issue(self, number: int) -> dict[str, Any]:
        for page in self.pages["issues"]:
            for item in page:
                if item["number"] == number:
                    return item  # type: ignore[no-any-return]
        raise KeyError(number)

    def rate_limit(self, resource: str, page: int, headers: dict[str, str], status: int) -> None:
        self.faults.setdefault((resource, page), []).append(
            (status, headers, load("rate_limited.json"))
        )

    def handle(self, path: str, query: dict[str, str]) -> tuple[int, dict[str, str], Any]:
        parts = path.strip("/").split("/")
        if parts[:3] == ["repos", "acme", "widgets"]:
            resource = "/".join(parts[3:])
        elif parts[:2] == ["repositories", str(REPO_ID)]:
            resource = "/".join(parts[2:])
        else:
            return 404, {}, load("not_found.json")
        if resource == "" and parts[0] == "repos":
            faults = self.faults.get(("", 1))
            if faults:
                return faults.pop(0)
            return 200, {}, {"full_name": "acme/widgets", "language": self.language}
        if resource not in self.pages:
            return 404, {}, load("not_found.json")
        page = int(query.get("page", "1"))
        faults = self.faults.get((resource, page))
        if faults:
            return faults.pop(0)
        pages = self.pages[resource]
        headers = {"X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "42"}
        links = []
        if page < len(pages):
            links.append(
                f'<{self.base}/repositories/{REPO_ID}/{resource}?page={page + 1}>; rel="next"'
            )
            links.append(
                f'<{self.base}/repositories/{REPO_ID}/{resource}?page={len(pages)}>; rel="last"'
            )
        if links:
            headers["Link"] = ", ".join(links)
        return 200, headers, pages[page - 1]


@pytest.fixture
def github() -> Iterator[FakeGitHub]:
    fake = FakeGitHub()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            url = urlsplit(self.path)
            query = {k: v[-1] for k, v in parse_qs(url.query).items()}
            fake.log.append((url.path, query, dict(self.headers.items())))
            status, headers, data = fake.handle(url.path, query)
            body = json.dumps(data).replace("https://api.github.com", fake.base).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            for key, value in headers.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    fake.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield fake
    server.shutdown()
    server.server_close()


class Sleeps(list[float]):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def client_for(fake: FakeGitHub, sleeps: Sleeps | None = None, **kw: Any) -> GitHubClient:
    return GitHubClient(
        kw.pop("token", None),
        base_url=fake.base,
        sleep=Sleeps() if sleeps is None else sleeps,
        clock=lambda: NOW,
        **kw,
    )


def records(fake: FakeGitHub, **kw: Any) -> dict[int, Any]:
    with client_for(fake) as client:
        return {
            r.number: r for r in iter_issue_records(client, IssueQuery("acme", "widgets", **kw))
        }


# --- the REST client ---------------------------------------------------------------


def test_paginates_issues_and_comments_and_skips_pull_requests(github: FakeGitHub) -> None:
    got = records(github, state="all", labels=("bug", "packaging"))
    assert sorted(got) == [101, 107, 108, 109, 110, 111]  # 112 is a pull request
    paths = [p for p, _, _ in github.log]
    assert paths[0] == "/repos/acme/widgets/issues"
    assert f"/repositories/{REPO_ID}/issues" in paths  # followed the Link header
    first_query = github.log[0][1]
    assert first_query["state"] == "all" and first_query["labels"] == "bug,packaging"
    assert first_query["per_page"] == "100"
    # #101's comments span two pages; all three are read, the maintainer's fix is on page 2
    assert paths.count(f"/repositories/{REPO_ID}/issues/101/comments") == 1
    assert "Fixed in #104" in got[101].record.solution
    # an issue with no comments costs no comments request
    assert not any("/issues/112/" in p for p in paths)


def test_sends_api_headers_and_the_token_only_when_set(github: FakeGitHub) -> None:
    with client_for(github, token="ghp_secret") as client:
        client.get(f"{github.base}/repos/acme/widgets/issues")
    with client_for(github) as client:
        client.get(f"{github.base}/repos/acme/widgets/issues")
    (_, _, with_token), (_, _, without) = github.log
    assert with_token["Authorization"] == "Bearer ghp_secret"
    assert with_token["Accept"] == "application/vnd.github+json"
    assert with_token["X-GitHub-Api-Version"] == "2022-11-28"
    assert "Authorization" not in without


def test_never_follows_a_link_off_the_api_host(github: FakeGitHub) -> None:
    github.issue(101)["comments_url"] = "https://elsewhere.example/steal"
    with client_for(github, token="ghp_secret") as client, pytest.raises(GitHubError) as info:
        list(iter_issue_records(client, WIDGETS))
    assert "refusing to follow https://elsewhere.example/steal" in str(info.value)


def test_max_stops_without_fetching_further_pages(github: FakeGitHub) -> None:
    got = records(github, max_issues=2)
    assert sorted(got) == [110, 111]
    issue_pages = [q.get("page") for path, q, _ in github.log if path.endswith("/issues")]
    assert issue_pages == [None]  # the first page held both: page 2 was never asked for


def test_waits_out_a_primary_rate_limit_until_reset(github: FakeGitHub) -> None:
    reset = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(NOW) + 30)}
    github.rate_limit("issues", 2, reset, 403)
    sleeps = Sleeps()
    with client_for(github, sleeps) as client:
        got = list(iter_issue_records(client, WIDGETS))
        assert client.waited == 31.0
    assert sleeps == [31.0]  # until the reset, plus a second
    assert len(got) == 6


def test_honours_retry_after_on_429(github: FakeGitHub) -> None:
    github.rate_limit("issues/108/comments", 1, {"Retry-After": "3"}, 429)
    sleeps = Sleeps()
    with client_for(github, sleeps) as client:
        got = {r.number: r for r in iter_issue_records(client, WIDGETS)}
    assert sleeps == [3.0]
    assert "await import" in got[108].record.solution


def test_honours_retry_after_as_an_http_date(github: FakeGitHub) -> None:
    when = formatdate(NOW + 42, usegmt=True)  # "Tue, 14 Nov 2023 22:14:02 GMT"
    github.rate_limit("issues/108/comments", 1, {"Retry-After": when}, 429)
    sleeps = Sleeps()
    with client_for(github, sleeps) as client:
        got = {r.number: r for r in iter_issue_records(client, WIDGETS)}
    assert sleeps == [42.0]  # seconds from now, not a made-up minute
    assert "await import" in got[108].record.solution


def test_an_unparsable_retry_after_falls_back_to_the_reset(github: FakeGitHub) -> None:
    headers = {
        "Retry-After": "soon",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": str(int(NOW) + 10),
    }
    github.rate_limit("issues", 1, headers, 403)
    sleeps = Sleeps()
    with client_for(github, sleeps) as client:
        assert len(list(iter_issue_records(client, WIDGETS))) == 6
    assert sleeps == [11.0]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, None),
        ("3", 3.0),
        ("2.5", 2.5),
        ("-4", 0.0),
        (formatdate(NOW + 90, usegmt=True), 90.0),
        (formatdate(NOW + 90), 90.0),  # "-0000": UTC
        (formatdate(NOW - 90, usegmt=True), 0.0),  # already past: no wait
        ("soon", None),
        ("", None),
        ("nan", None),
        ("inf", None),
        ("Tue, 99 Foo 2023 99:99:99 GMT", None),
    ],
)
def test_retry_after_values(value: str | None, expected: float | None) -> None:
    assert retry_after(value, NOW) == expected


@pytest.mark.parametrize(
    "bad", ["api.github.com", "github.example.com/api/v3", "ftp://example.com", "http://h:port"]
)
def test_an_invalid_api_url_fails_at_once(bad: str) -> None:
    sleeps = Sleeps()
    with pytest.raises(GitHubError, match="invalid API URL") as info:
        GitHubClient(base_url=bad, sleep=sleeps).issues("acme", "widgets")
    assert sleeps == []
    assert "https://api.github.com" in str(info.value)  # says what it expected
    assert "\n" not in str(info.value)


def test_an_unsupported_link_fails_at_once(github: FakeGitHub) -> None:
    sleeps = Sleeps()
    host = github.base.removeprefix("http://")
    with client_for(github, sleeps) as client, pytest.raises(GitHubError, match="invalid URL"):
        client.get(f"ftp://{host}/repos/acme/widgets/issues")
    assert sleeps == [] and github.log == []


def test_gives_up_when_the_reset_is_too_far_away(github: FakeGitHub) -> None:
    far = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(NOW) + 3600)}
    github.rate_limit("issues", 1, far, 403)
    sleeps = Sleeps()
    with client_for(github, sleeps, max_wait=300) as client, pytest.raises(GitHubError) as info:
        list(iter_issue_records(client, WIDGETS))
    assert sleeps == []
    assert "rate limit exceeded" in str(info.value) and "GITHUB_TOKEN" in str(info.value)


def test_gives_up_after_a_few_retries(github: FakeGitHub) -> None:
    for _ in range(10):
        github.rate_limit("issues", 1, {"Retry-After": "2"}, 429)
    sleeps = Sleeps()
    with client_for(github, sleeps, max_retries=3) as client, pytest.raises(GitHubError) as info:
        list(iter_issue_records(client, WIDGETS))
    assert sleeps == [2.0, 2.0, 2.0]
    assert "still rate limited after 3 retries" in str(info.value)


def test_a_plain_403_is_an_error_not_a_retry(github: FakeGitHub) -> None:
    github.faults[("issues", 1)] = [
        (403, {}, {"message": "Resource not accessible by integration"})
    ]
    sleeps = Sleeps()
    with client_for(github, sleeps) as client, pytest.raises(GitHubError) as info:
        list(client.issues("acme", "widgets"))
    assert sleeps == [] and info.value.status == 403
    assert "Resource not accessible by integration" in str(info.value)


def test_a_server_error_is_retried_with_backoff(github: FakeGitHub) -> None:
    github.faults[("issues", 1)] = [(502, {}, {"message": "Server Error"})] * 2
    sleeps = Sleeps()
    with client_for(github, sleeps) as client:
        assert len(list(client.issues("acme", "widgets"))) == 6
    assert sleeps == [1.0, 2.0]


def test_missing_repository_and_unreachable_host_are_clear_errors(github: FakeGitHub) -> None:
    with client_for(github) as client, pytest.raises(GitHubError, match="acme/nope not found"):
        list(client.issues("acme", "nope"))
    sleeps = Sleeps()
    dead = GitHubClient(base_url="http://127.0.0.1:9", sleep=sleeps, max_retries=1)
    with dead, pytest.raises(GitHubError, match=r"cannot reach 127\.0\.0\.1"):
        list(dead.issues("acme", "widgets"))
    assert sleeps == [1.0]


def test_parse_repository() -> None:
    assert parse_repository("pallets/flask") == ("pallets", "flask")
    assert parse_repository("https://github.com/pipecat-ai/pipecat.git") == (
        "pipecat-ai",
        "pipecat",
    )
    for bad in ("flask", "a/b/c", "-x/y", "o/..", "o/r r", ""):
        with pytest.raises(GitHubError, match="expected OWNER/REPO"):
            parse_repository(bad)


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
