"""import-github's REST client against the local fake of the GitHub API: pagination,
headers, rate limits and retries, and the errors it gives up with."""

from __future__ import annotations

from collections.abc import Iterator
from email.utils import formatdate

import pytest

from ctxhub.core.errors import GitHubError
from ctxhub.memory.capture.github import GitHubClient, iter_issue_records, parse_repository
from ctxhub.memory.capture.github_client import _retry_after as retry_after
from tests.unit.github_import_fixtures import (
    NOW,
    REPO_ID,
    WIDGETS,
    FakeGitHub,
    Sleeps,
    client_for,
    fake_github_server,
    records,
)


@pytest.fixture
def github() -> Iterator[FakeGitHub]:
    with fake_github_server() as fake:
        yield fake


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
