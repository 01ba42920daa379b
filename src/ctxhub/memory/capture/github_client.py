"""A small GitHub REST client for the issue import (`github.py`).

`GitHubClient` pages through `GET /repos/{owner}/{repo}/issues` and each issue's
comments by the `Link: rel="next"` header, and waits out rate limits (`Retry-After`, or
`X-RateLimit-Remaining: 0` until `X-RateLimit-Reset`) with a bounded backoff.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Literal

import httpx

from ctxhub import __version__
from ctxhub.core.errors import GitHubError
from ctxhub.memory.capture.github_parse import Json

# Under the import's name: the CLI shows it on each log line.
log = logging.getLogger("ctxhub.memory.capture.github")

DEFAULT_API_URL = "https://api.github.com"
API_VERSION = "2022-11-28"
IssueState = Literal["open", "closed", "all"]


class GitHubClient:
    """A small GitHub REST client: JSON pages, Link pagination, rate-limit backoff.

    `sleep` and `clock` (default: `time.sleep`, `time.time`) are injectable, so tests
    neither wait nor depend on the time;
    a wait longer than `max_wait` seconds, or more than `max_retries` retries of one
    request, ends in a GitHubError instead of hanging.
    """

    def __init__(
        self,
        token: str | None = None,
        *,
        base_url: str = DEFAULT_API_URL,
        sleep: Callable[[float], None] | None = None,
        clock: Callable[[], float] | None = None,
        max_retries: int = 3,
        max_wait: float = 300.0,
        timeout: float = 30.0,
        on_wait: Callable[[float, str], None] | None = None,
    ) -> None:
        headers = {
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": API_VERSION,
            "User-Agent": f"ctxhub/{__version__}",
        }
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.base_url = base_url.rstrip("/")
        self._host = _api_host(self.base_url)
        self.authenticated = bool(token)
        self._http = httpx.Client(headers=headers, timeout=timeout, follow_redirects=True)
        self._sleep = time.sleep if sleep is None else sleep
        self._clock = time.time if clock is None else clock
        self._on_wait = on_wait
        self.max_retries = max_retries
        self.max_wait = max_wait
        self.requests = 0
        self.waited = 0.0

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> GitHubClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get(self, url: str, params: dict[str, str] | None = None) -> httpx.Response:
        """One GET, retried through rate limits, 5xx answers and network errors; a URL
        that cannot be requested at all (no http(s) scheme, a bad port) fails at once."""
        try:
            host = httpx.URL(url).host
        except httpx.InvalidURL as exc:
            raise GitHubError(f"invalid URL {url!r}: {exc}") from exc
        if host != self._host:
            raise GitHubError(f"refusing to follow {url}: it is not on {self._host}")
        attempt = 0
        while True:
            try:
                response = self._http.get(url, params=params)
            except (httpx.UnsupportedProtocol, httpx.InvalidURL) as exc:
                raise GitHubError(f"invalid URL {url!r}: {exc}") from exc
            except httpx.TransportError as exc:
                if attempt >= self.max_retries:
                    host = httpx.URL(url).host
                    why = str(exc) or type(exc).__name__
                    raise GitHubError(f"cannot reach {host}: {why}") from exc
                self._wait(min(2.0**attempt, self.max_wait), f"network error ({exc})")
                attempt += 1
                continue
            self.requests += 1
            if response.status_code < 400:
                return response
            wait = self._rate_limit_wait(response, attempt)
            if wait is None:
                if response.status_code < 500 or attempt >= self.max_retries:
                    raise self._error(response)
                wait, reason = min(2.0**attempt, self.max_wait), f"HTTP {response.status_code}"
            else:
                reason = "rate limited"
                if wait > self.max_wait:
                    raise GitHubError(self._limit_message(wait), response.status_code)
                if attempt >= self.max_retries:
                    raise GitHubError(
                        f"still rate limited after {attempt} retries; try again later"
                        + ("" if self.authenticated else " or set GITHUB_TOKEN"),
                        response.status_code,
                    )
            self._wait(wait, reason)
            attempt += 1

    def paginate(self, url: str, params: dict[str, str] | None = None) -> Iterator[Json]:
        """Every item of a list endpoint, page after page by the `Link: rel="next"` header."""
        next_url: str | None = url
        while next_url:
            response = self.get(next_url, params)
            params = None  # the next link carries the query
            try:
                page = response.json()
            except ValueError as exc:
                raise GitHubError(f"{next_url} answered something that is not JSON") from exc
            if not isinstance(page, list):
                raise GitHubError(f"{next_url} answered {type(page).__name__}, not a list")
            yield from (item for item in page if isinstance(item, dict))
            next_url = response.links.get("next", {}).get("url")

    def issues(
        self, owner: str, repo: str, *, state: IssueState = "closed", labels: Sequence[str] = ()
    ) -> Iterator[Json]:
        """The repository's issues, newest first, pull requests left out."""
        params = {"state": state, "per_page": "100", "sort": "created", "direction": "desc"}
        if labels:
            params["labels"] = ",".join(labels)
        url = f"{self.base_url}/repos/{owner}/{repo}/issues"
        try:
            for item in self.paginate(url, params):
                if "pull_request" not in item:
                    yield item
        except GitHubError as exc:
            if exc.status == 404:
                hint = "" if self.authenticated else "; set GITHUB_TOKEN if it is private"
                raise GitHubError(f"repository {owner}/{repo} not found{hint}", 404) from exc
            if exc.status == 410:
                raise GitHubError(f"issues are disabled for {owner}/{repo}", 410) from exc
            raise

    def repository_language(self, owner: str, repo: str) -> str | None:
        """The repository's main language as GitHub reports it ("Python"), or None when it
        reports none or the lookup fails: the label is optional, so a refused or failed
        lookup (after retries) leaves records unlabelled rather than stopping the import."""
        try:
            data = self.get(f"{self.base_url}/repos/{owner}/{repo}").json()
        except (GitHubError, ValueError):
            return None
        language = data.get("language") if isinstance(data, dict) else None
        return language if isinstance(language, str) and language.strip() else None

    def comments(self, issue: Json) -> list[Json]:
        """An issue's comments, oldest first (none fetched when it has none)."""
        url = issue.get("comments_url")
        if not url or not issue.get("comments"):
            return []
        return list(self.paginate(str(url), {"per_page": "100"}))

    def _rate_limit_wait(self, response: httpx.Response, attempt: int) -> float | None:
        """Seconds to wait before retrying a rate-limited answer; None when it is not one."""
        if response.status_code not in (403, 429):
            return None
        retry_after = _retry_after(response.headers.get("retry-after"), self._clock())
        if retry_after is not None:
            return retry_after
        reset = _number(response.headers.get("x-ratelimit-reset"))
        if response.headers.get("x-ratelimit-remaining") == "0" and reset is not None:
            return max(0.0, reset - self._clock()) + 1.0
        if response.status_code == 429 or "rate limit" in _message(response).lower():
            return 60.0 * 2.0**attempt  # a secondary limit without headers: a minute, then more
        return None

    def _limit_message(self, wait: float) -> str:
        at = datetime.fromtimestamp(self._clock() + wait).strftime("%H:%M:%S")
        hint = "" if self.authenticated else "; set GITHUB_TOKEN for 5,000 requests an hour"
        return (
            f"GitHub rate limit exceeded: it resets in {wait:.0f}s (at {at}),"
            f" longer than the {self.max_wait:.0f}s this import waits{hint}"
        )

    def _wait(self, seconds: float, reason: str) -> None:
        if self._on_wait is not None:
            self._on_wait(seconds, reason)
        else:
            log.warning("GitHub: %s; waiting %.0fs", reason, seconds)
        self._sleep(seconds)
        self.waited += seconds

    def _error(self, response: httpx.Response) -> GitHubError:
        status = response.status_code
        message = _message(response)
        path = response.request.url.path
        if status == 401:
            text = f"GitHub rejected the token (401 {message}); check GITHUB_TOKEN"
        elif status == 404:
            text = f"not found: {path}"
        else:
            text = f"GitHub answered {status} for {path}" + (f": {message}" if message else "")
        return GitHubError(text, status)


def _api_host(base_url: str) -> str:
    """The host of an API root; GitHubError unless it is an http(s) URL with a host."""
    example = "expected http(s)://HOST[/PATH], e.g. https://api.github.com"
    try:
        url = httpx.URL(base_url)
    except httpx.InvalidURL as exc:
        raise GitHubError(f"invalid API URL {base_url!r} ({exc}): {example}") from exc
    if url.scheme not in ("http", "https") or not url.host:
        raise GitHubError(f"invalid API URL {base_url!r}: {example}")
    return url.host


def _number(value: str | None) -> float | None:
    """A finite number header; None when it is absent or not a number."""
    if value is None:
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def _retry_after(value: str | None, now: float) -> float | None:
    """`Retry-After` in seconds, at least 0: delay seconds or an HTTP-date (from `now`);
    None when absent or unparsable, so the caller falls back to its own backoff."""
    if value is None:
        return None
    seconds = _number(value)
    if seconds is None:
        try:
            when = parsedate_to_datetime(value.strip())
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:  # "-0000": UTC, by RFC 5322
            when = when.replace(tzinfo=timezone.utc)
        seconds = when.timestamp() - now
    return max(0.0, seconds)


def _message(response: httpx.Response) -> str:
    try:
        data = response.json()
    except ValueError:
        return response.text[:200].strip()
    return " ".join(str(data.get("message", "")).split()) if isinstance(data, dict) else ""
