"""mine: error -> fix -> passing-run sequences from Claude Code transcripts as records."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click
from rich.markup import escape

from ctxhub.cli.context import Context, pass_ctx
from ctxhub.cli.output import err, out, print_json
from ctxhub.cli.progress import make_progress
from ctxhub.memory.capture.sessions import MinedRecord, MineSummary, mine_sessions
from ctxhub.memory.records.log import upsert_record
from ctxhub.session import HubSession


def default_projects_dir() -> Path:
    return Path.home() / ".claude" / "projects"


def _first_line(text: str, limit: int = 110) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _counts(summary: MineSummary) -> str:
    skipped = f", {summary.lines_skipped} malformed lines skipped" if summary.lines_skipped else ""
    failed = f", {summary.files_failed} files unreadable" if summary.files_failed else ""
    return (
        f"{summary.files} transcripts ({summary.sessions} sessions): {summary.failures} failing"
        f" runs, {len(summary.records)} fixed and verified, {summary.unresolved} never fixed"
        f"{skipped}{failed}; {summary.redactions} secrets redacted"
    )


def _print_dry_run(summary: MineSummary) -> None:
    out.print(_counts(summary))
    for mined in summary.records:
        r = mined.record
        details = f"{mined.project}  session {r.session_id}  {r.error_type or '-'}"
        details += f"  {r.file_path or '-'}  confidence {r.confidence:.2f}"
        out.print(f"\n[bold]{mined.id}[/bold]  {escape(details)}")
        out.print(f"  problem:  {_first_line(r.problem)}", markup=False)
        out.print(f"  solution: {_first_line(r.solution)}", markup=False)
    out.print("\n[dim]dry run: nothing stored[/dim]")


def _json(directory: Path, summary: MineSummary, actions: dict[str, str] | None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "directory": str(directory),
        "dry_run": actions is None,
        **summary.model_dump(mode="json", exclude={"records"}),
    }
    if actions is not None:
        for action in ("created", "updated", "unchanged"):
            data[action] = sum(1 for a in actions.values() if a == action)
    rows: list[dict[str, Any]] = []
    for mined in summary.records:
        row: dict[str, Any] = {"id": mined.id, "project": mined.project, "path": mined.path}
        if actions is None:
            row["record"] = mined.record.model_dump(mode="json")
        else:
            row["action"] = actions.get(mined.id)
            row["session_id"] = mined.record.session_id
            row["error_type"] = mined.record.error_type
            row["problem"] = _first_line(mined.record.problem, 300)
        rows.append(row)
    data["records"] = rows
    return data


def _store(ctx: Context, records: list[MinedRecord]) -> dict[str, str]:
    actions: dict[str, str] = {}
    progress, bars = make_progress()
    try:
        with HubSession(ctx.settings) as hub:
            progress.start("storing records", len(records))
            for mined in records:
                actions[mined.id] = upsert_record(hub, mined.id, mined.record).action
                progress.advance(1)
            progress.done()
    finally:
        if bars is not None:
            bars.close()
    return actions


@click.command()
@click.argument(
    "directory",
    metavar="[DIR]",
    required=False,
    type=click.Path(file_okay=True, dir_okay=True, path_type=Path),
)
@click.option(
    "--project",
    help="Only this project folder: its name, or the end of the encoded path (myapp).",
)
@click.option(
    "--since",
    "since_days",
    type=click.FloatRange(min=0),
    help="Only transcripts (and sequences) from the last DAYS days.",
    metavar="DAYS",
)
@click.option("--dry-run", is_flag=True, help="Print what would be stored; store nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@pass_ctx
def mine(
    ctx: Context,
    directory: Path | None,
    project: str | None,
    since_days: float | None,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Mine Claude Code transcripts for error -> fix -> passing-run sequences.

    DIR defaults to ~/.claude/projects (one folder per project, one .jsonl per session);
    a project folder or a single transcript works too. Each failing command that the
    agent fixed (edits or installs) and then saw pass becomes a memory record with the
    session id. Secrets are redacted before anything is stored; mining again updates the
    same records instead of adding new ones.

    \b
    ctxhub mine --dry-run
    ctxhub mine --project myapp --since 7
    """
    root = (directory or default_projects_dir()).expanduser()
    if not root.exists():
        raise click.ClickException(f"{root} does not exist (no Claude Code transcripts there)")
    since = time.time() - since_days * 86_400 if since_days is not None else None
    progress, bars = make_progress()
    try:
        summary = mine_sessions(root, project=project, since=since, progress=progress)
    finally:
        if bars is not None:
            bars.close()
    if project is not None and summary.files == 0 and not as_json:
        err.print(f"[yellow]no transcripts for project {project!r} under {root}[/yellow]")
    if dry_run:
        if as_json:
            print_json(_json(root, summary, None))
        else:
            _print_dry_run(summary)
        return
    actions = _store(ctx, summary.records) if summary.records else {}
    if as_json:
        print_json(_json(root, summary, actions))
        return
    created = sum(1 for a in actions.values() if a == "created")
    updated = sum(1 for a in actions.values() if a == "updated")
    unchanged = len(actions) - created - updated
    out.print(_counts(summary))
    out.print(f"records: {created} created, {updated} updated, {unchanged} unchanged")


COMMANDS: list[click.Command] = [mine]
