"""import-github: a repository's issues as memory records."""

from __future__ import annotations

import os

import click
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from ctxhub.cli.context import Context, pass_ctx
from ctxhub.cli.output import err, interactive, out, print_json
from ctxhub.core.errors import GitHubError
from ctxhub.core.records import LogResult
from ctxhub.memory.capture.github import (
    DEFAULT_API_URL,
    GitHubClient,
    GitHubImportSummary,
    IssueQuery,
    IssueRecord,
    IssueState,
    import_issues,
    parse_repository,
)
from ctxhub.session import HubSession


def _token() -> str | None:
    return os.environ.get("GITHUB_TOKEN") or os.environ.get("GH_TOKEN") or None


def _print_summary(summary: GitHubImportSummary) -> None:
    out.print(
        f"{summary.repository}: {summary.fetched} issues ({summary.state}):"
        f" {summary.created} created, {summary.updated} updated, {summary.unchanged} unchanged;"
        f" {summary.resolved} resolved"
    )
    for s in summary.skipped:
        out.print(f"[yellow]skipped #{s.number}[/yellow]: {s.reason}")
    waited = (
        f", {summary.waited_seconds:.0f}s waiting on rate limits" if summary.waited_seconds else ""
    )
    out.print(f"[dim]{summary.requests} requests in {summary.seconds:.1f}s{waited}[/dim]")


@click.command("import-github")
@click.argument("repository", metavar="OWNER/REPO")
@click.option(
    "--label",
    "labels",
    multiple=True,
    help="Only issues with this label (repeat it: an issue must carry every one).",
)
@click.option(
    "--state",
    type=click.Choice(["open", "closed", "all"]),
    default="closed",
    show_default=True,
    help="Which issues to import.",
)
@click.option(
    "--max", "max_issues", type=click.IntRange(min=1), help="At most N issues, newest first."
)
@click.option("--framework", help="Framework of the records (default: the repository name).")
@click.option(
    "--language",
    help="Language of the records, e.g. python (default: the repository's main language).",
)
@click.option(
    "--api-url",
    envvar="GITHUB_API_URL",
    default=DEFAULT_API_URL,
    show_default=True,
    help="REST API root ($GITHUB_API_URL); GitHub Enterprise: https://HOST/api/v3.",
)
@click.option(
    "--max-wait",
    type=click.FloatRange(min=0),
    default=300.0,
    show_default=True,
    help="Longest rate-limit wait, in seconds, before giving up.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@pass_ctx
def import_github(
    ctx: Context,
    repository: str,
    labels: tuple[str, ...],
    state: IssueState,
    max_issues: int | None,
    framework: str | None,
    language: str | None,
    api_url: str,
    max_wait: float,
    as_json: bool,
) -> None:
    """Import OWNER/REPO's issues as problem/solution records.

    The problem is the issue's title and body; the solution is the resolving comment (a
    maintainer's fix, else the last maintainer answer before closing, else the most-reacted
    comment) or the fix it links to. Re-importing updates records in place and keeps their
    feedback. The token comes from $GITHUB_TOKEN (or $GH_TOKEN).

    \b
    ctxhub import-github pallets/flask --label bug --max 200
    ctxhub import-github pipecat-ai/pipecat --state all --language python
    """
    try:
        owner, repo = parse_repository(repository)
    except GitHubError as exc:
        raise click.ClickException(str(exc)) from exc
    bars = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TextColumn("{task.completed:.0f} issues"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not interactive(),
    )
    task = bars.add_task(f"importing {owner}/{repo}", total=max_issues)

    def on_issue(item: IssueRecord, result: LogResult) -> None:
        bars.advance(task)

    def on_wait(seconds: float, reason: str) -> None:
        err.print(f"[yellow]GitHub: {reason}; waiting {seconds:.0f}s[/yellow]")

    query = IssueQuery(owner, repo, state, labels, max_issues, framework, language)
    try:
        client = GitHubClient(_token(), base_url=api_url, max_wait=max_wait, on_wait=on_wait)
        with client, HubSession(ctx.settings) as hub, bars:
            summary = import_issues(hub, client, query, on_issue)
    except GitHubError as exc:
        raise click.ClickException(str(exc)) from exc
    if as_json:
        print_json(summary)
    else:
        _print_summary(summary)


COMMANDS: list[click.Command] = [import_github]
