"""hook: Claude Code hook capture (`ctxhub install claude-code --hooks` sets it up).

`ctxhub hook post-tool-use` is normally run by Claude Code and answered by the fast path
in `ctxhub.cli.entry`, which never loads click; the command here is what `--help`
shows and what `ctxhub -v hook post-tool-use` runs.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ctxhub.cli.context import Context, pass_ctx
from ctxhub.cli.output import err, out, print_json

if TYPE_CHECKING:
    from ctxhub.clients.mcp_config import Scope
    from ctxhub.config import Settings


@click.group()
def hook() -> None:
    """Capture errors and their fixes from Claude Code, as pending memory records.

    \b
    Install:  ctxhub install claude-code --hooks [--project]
    Remove:   ctxhub install claude-code --hooks --remove [--project]
    Pending records are stored (embedded) by `ctxhub serve` at start-up, by the memory
    commands, or by `ctxhub hook drain`.
    """


def _run_hook(event: str) -> None:
    from ctxhub.memory.capture.hooks import run

    run([event], sys.stdin, os.environ)


@hook.command("post-tool-use")
def post_tool_use() -> None:
    """Read one PostToolUse / PostToolUseFailure hook input on stdin (Claude Code runs this).

    Always exits 0 and prints nothing; a failed command that passes after edits becomes
    a pending record in $CTXHUB_HOME/pending/.
    """
    _run_hook("post-tool-use")


@hook.command("post-tool-use-failure", hidden=True)
def post_tool_use_failure() -> None:
    """The same handler, for a PostToolUseFailure-only registration."""
    _run_hook("post-tool-use-failure")


def hook_status(settings: Settings, project: Path | None = None) -> dict[str, Any]:
    """Pending and rejected records, tracked sessions and open failures, installations."""
    from ctxhub.clients.claude_hooks import has_hook, settings_path
    from ctxhub.memory.records.pending import pending_count, rejected_count

    home = settings.home
    sessions = home / "hooks" / "sessions"
    tracked, open_failures = 0, 0
    for path in sessions.glob("*.json") if sessions.is_dir() else []:
        tracked += 1
        try:
            state = json.loads(path.read_text(encoding="utf-8"))
            failures = state.get("failures") if isinstance(state, dict) else None
            open_failures += len(failures) if isinstance(failures, list) else 0
        except (OSError, ValueError):
            continue
    installed: dict[str, str | None] = {}
    scopes: tuple[Scope, ...] = ("user", "project")
    for scope in scopes:
        path = settings_path(scope, project=project)
        installed[scope] = str(path) if has_hook(path) else None
    log = home / "hooks" / "hook.log"
    log_tail = (
        log.read_text(encoding="utf-8", errors="replace").splitlines()[-5:] if log.is_file() else []
    )
    return {
        "pending": pending_count(settings),
        "rejected": rejected_count(settings),
        "sessions": tracked,
        "open_failures": open_failures,
        "installed": installed,
        "log": log_tail,
    }


@hook.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
@pass_ctx
def status(ctx: Context, as_json: bool) -> None:
    """Pending records, tracked sessions, and where the hook is installed."""
    report = hook_status(ctx.settings)
    if as_json:
        print_json(report)
        return
    out.print(f"pending   {report['pending']} (rejected {report['rejected']})")
    out.print(f"sessions  {report['sessions']} tracked, {report['open_failures']} open failures")
    for scope, where in report["installed"].items():
        out.print(f"{scope:<9} {'installed in ' + where if where else 'not installed'}")
    for line in report["log"]:
        out.print(f"[dim]log  {line}[/dim]")


@hook.command("drain")
@click.option(
    "--limit",
    type=click.IntRange(1),
    default=500,
    show_default=True,
    help="Pending records to store in this run (the rest wait for the next).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@pass_ctx
def drain(ctx: Context, limit: int, as_json: bool) -> None:
    """Store (embed) the pending records now."""
    from ctxhub.memory.records.pending import drain_pending
    from ctxhub.session import HubSession

    with HubSession(ctx.settings) as hub:
        summary = drain_pending(hub, limit=limit)
    if as_json:
        print_json(
            {
                "stored": summary.stored,
                "rejected": summary.rejected,
                "failed": summary.failed,
                "skipped": summary.skipped,
                "remaining": summary.remaining,
                "results": summary.results,
                "errors": summary.errors,
            }
        )
    else:
        err.print(summary.message())
        for error in summary.errors:
            err.print(f"[dim]  {error}[/dim]")
    if summary.failed:
        sys.exit(1)


COMMANDS: list[click.Command] = [hook]
