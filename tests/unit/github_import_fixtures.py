"""A local fake of the GitHub REST API for the import-github tests.

The fake serves the recorded-shaped responses in tests/fixtures/github/ with GitHub's
`Link` pagination (`/repositories/{id}/...?page=N`, as the real API writes it), and can
answer any request once with a rate-limit reply first. Nothing here waits for real:
the client gets a recording `sleep` and a fixed clock.
"""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ctxhub.memory.capture.github import GitHubClient, IssueQuery, iter_issue_records

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


@contextmanager
def fake_github_server() -> Iterator[FakeGitHub]:
    """A FakeGitHub answering on a local port until the block ends (the `github`
    fixture of each test file)."""
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
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()


#: The real sleep, for threads a test did not start (see Sleeps).
_REAL_SLEEP = time.sleep


class Sleeps(list[float]):
    """A sleep that records instead of waiting. Patched over `time.sleep` for a command,
    it records only the test's own thread: a daemon thread an earlier test left running
    (a serve loop sleeping 5 s between polls) keeps its real sleep, so it neither spins
    nor shows up in the list (it did, 4,211 times, on a busy machine)."""

    def __call__(self, seconds: float) -> None:
        if threading.current_thread() is not threading.main_thread():
            _REAL_SLEEP(seconds)
            return
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
