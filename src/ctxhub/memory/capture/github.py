"""Import GitHub issues as memory records.

`iter_issue_records` turns issues into records without touching the store;
`import_issues` upserts them under deterministic ids, so a re-import updates a record in
place and never resets its feedback. The issues come through `GitHubClient`
(`github_client.py`: Link pagination, rate-limit backoff).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from pydantic import BaseModel, Field, ValidationError

from ctxhub.core.errors import GitHubError
from ctxhub.core.records import LogAction, LogResult, RecordInput, record_id_for
from ctxhub.memory.capture.github_client import (
    API_VERSION,
    DEFAULT_API_URL,
    GitHubClient,
    IssueState,
)
from ctxhub.memory.capture.github_parse import ResolutionKind, issue_to_record
from ctxhub.memory.records.log import upsert_record

if TYPE_CHECKING:
    from ctxhub.session import HubSession

__all__ = [
    "API_VERSION",
    "DEFAULT_API_URL",
    "GitHubClient",
    "GitHubImportSummary",
    "ImportedIssue",
    "IssueQuery",
    "IssueRecord",
    "IssueState",
    "SkippedIssue",
    "import_issues",
    "iter_issue_records",
    "parse_repository",
]

_OWNER_REPO = re.compile(r"^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))/([A-Za-z0-9._-]{1,100})$")
_GITHUB_URL = re.compile(r"^(?:https?://)?(?:www\.)?github\.com/([^/]+)/([^/#?]+?)(?:\.git)?/?$")


def parse_repository(value: str) -> tuple[str, str]:
    """`owner/repo`, or a github.com URL of it, as (owner, repo); GitHubError otherwise."""
    text = value.strip()
    url = _GITHUB_URL.match(text)
    if url:
        text = f"{url.group(1)}/{url.group(2)}"
    match = _OWNER_REPO.match(text)
    if not match or match.group(2) in (".", ".."):
        raise GitHubError(f"expected OWNER/REPO (e.g. pallets/flask), got {value!r}")
    return match.group(1), match.group(2)


@dataclass(frozen=True)
class IssueQuery:
    """Which issues to import, and the labels their records get."""

    owner: str
    repo: str
    state: IssueState = "closed"
    labels: tuple[str, ...] = ()
    max_issues: int | None = None
    framework: str | None = None  # None: the repository name, lowercased
    language: str | None = None  # None: the repository's main language, if GitHub has one


class IssueRecord(NamedTuple):
    """One issue as a record, with its deterministic id."""

    id: str
    record: RecordInput
    number: int
    resolution: ResolutionKind | None


class SkippedIssue(BaseModel):
    number: int
    reason: str


class ImportedIssue(BaseModel):
    number: int
    id: str
    action: LogAction
    resolved: bool
    resolution: ResolutionKind | None


class GitHubImportSummary(BaseModel):
    """What one `import-github` run did."""

    repository: str
    state: IssueState
    labels: list[str] = Field(default_factory=list)
    fetched: int = 0
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    resolved: int = 0
    skipped: list[SkippedIssue] = Field(default_factory=list)
    requests: int = 0
    waited_seconds: float = 0.0
    seconds: float = 0.0
    issues: list[ImportedIssue] = Field(default_factory=list)


def iter_issue_records(
    client: GitHubClient, query: IssueQuery, skipped: list[SkippedIssue] | None = None
) -> Iterator[IssueRecord]:
    """Fetch issues and their comments and map each to a record; the store is not touched.
    An issue that cannot become a valid record is reported in `skipped` (when given)."""
    q = query
    if q.max_issues is not None and q.max_issues <= 0:
        return
    issues = client.issues(q.owner, q.repo, state=q.state, labels=q.labels)
    language, looked_up = q.language, q.language is not None
    for count, issue in enumerate(issues, start=1):
        if not looked_up:  # after the listing, so a missing repository fails there, clearly
            language, looked_up = client.repository_language(q.owner, q.repo), True
        number = int(issue.get("number", 0))
        comments = client.comments(issue)
        try:
            record, resolution = issue_to_record(
                issue, comments, q.owner, q.repo, framework=q.framework, language=language
            )
        except (ValidationError, ValueError) as exc:
            if skipped is not None:
                first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                skipped.append(SkippedIssue(number=number, reason=first))
        else:
            rid = record_id_for("github", f"{q.owner}/{q.repo}", str(number))
            yield IssueRecord(rid, record, number, resolution.kind if resolution else None)
        if q.max_issues is not None and count >= q.max_issues:
            return


def import_issues(
    hub: HubSession,
    client: GitHubClient,
    query: IssueQuery,
    on_issue: Callable[[IssueRecord, LogResult], None] | None = None,
) -> GitHubImportSummary:
    """Upsert every fetched issue as a record: a re-import updates texts and labels in place
    and keeps ids, dates of first sight, occurrence counts and feedback."""
    started = time.perf_counter()
    summary = GitHubImportSummary(
        repository=f"{query.owner}/{query.repo}", state=query.state, labels=list(query.labels)
    )
    try:
        for item in iter_issue_records(client, query, summary.skipped):
            result = upsert_record(hub, item.id, item.record)
            summary.issues.append(
                ImportedIssue(
                    number=item.number,
                    id=item.id,
                    action=result.action,
                    resolved=item.record.resolved,
                    resolution=item.resolution,
                )
            )
            if on_issue is not None:
                on_issue(item, result)
    except GitHubError as exc:
        if summary.issues:
            done = len(summary.issues)
            raise GitHubError(f"{exc} ({done} issues imported before it)", exc.status) from exc
        raise
    actions = [i.action for i in summary.issues]
    summary.created, summary.unchanged = actions.count("created"), actions.count("unchanged")
    summary.updated = len(actions) - summary.created - summary.unchanged
    summary.resolved = sum(i.resolved for i in summary.issues)
    summary.fetched = len(summary.issues) + len(summary.skipped)
    summary.requests, summary.waited_seconds = client.requests, client.waited
    summary.seconds = time.perf_counter() - started
    return summary
