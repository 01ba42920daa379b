"""serve and install: run the MCP server, and point MCP clients at it."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, cast

import click

from ctxhub.cli.context import Context, pass_ctx
from ctxhub.cli.output import err

if TYPE_CHECKING:
    from ctxhub.clients.mcp_config import Client, Scope

CLIENT_CHOICE = click.Choice(["claude-code", "cursor", "vscode", "zed"])


def _log_level() -> str:
    """The level the global -v flags set (WARNING by default), for the SDK and uvicorn."""
    return logging.getLevelName(logging.getLogger().getEffectiveLevel())


def _load_model_meanwhile(home: Path) -> None:
    """Start loading the embedding model now, beside the SDK's imports: onnxruntime
    builds its session mostly outside the GIL, so the first search waits less."""
    import threading

    def load() -> None:
        from ctxhub.session import default_embedder

        with contextlib.suppress(Exception):  # the warm-up and the tools report it
            default_embedder(home).warm()

    threading.Thread(target=load, name="ctxhub-model", daemon=True).start()


def _leave_while_starting(signum: int, frame: object) -> None:
    os.write(2, b"ctxhub: interrupted while starting\n")
    os._exit(128 + signum)


@click.command()
@click.option("--http", "use_http", is_flag=True, help="Serve streamable HTTP instead of stdio.")
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="HTTP bind address (with --http)."
)
@click.option("--port", type=click.IntRange(1, 65535), help="HTTP port (default 8765).")
@pass_ctx
def serve(ctx: Context, use_http: bool, host: str, port: int | None) -> None:
    """Serve ctxhub over MCP: framework knowledge (docs, API, examples) and solution memory.

    Tools, resources and prompts over stdio by default (logs go to stderr), or streamable
    HTTP with --http.

    \b
    Binding --http to anything but loopback needs a bearer token: set CTXHUB_TOKEN;
    clients send `Authorization: Bearer <token>`.
    """
    if not use_http:
        if port is not None or host != "127.0.0.1":
            raise click.UsageError("--host and --port need --http")
        if sys.stdin.isatty():  # a person started it by hand: say how to leave
            click.echo("ctxhub MCP server on stdio; Ctrl-C or Ctrl-D to stop", err=True)
        # Until the server's own handlers take over, a signal ends the process at once:
        # interrupting the SDK's imports half-way raises in odd places (pydantic wraps it).
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, _leave_while_starting)
        # First, before the SDK loads (~1 s): the front answers the handshake meanwhile.
        from ctxhub.server.stdio_front import start_front

        front = start_front(ctx.settings.home)
        _load_model_meanwhile(ctx.settings.home)
        from ctxhub.server.app import run_stdio

        run_stdio(ctx.settings, _log_level(), front)
        return
    from ctxhub.core.errors import ServeError
    from ctxhub.server.http import DEFAULT_PORT, run_http

    try:
        run_http(ctx.settings, host, port or DEFAULT_PORT, ctx.settings.token, _log_level())
    except ServeError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)


@click.command()
@click.argument("client", required=False, type=CLIENT_CHOICE)
@click.option("--project", "scope", flag_value="project", help="This project's config file.")
@click.option(
    "--user", "scope", flag_value="user", default=True, help="Your user config (default)."
)
@click.option("--print", "print_only", is_flag=True, help="Show the configuration; write nothing.")
@click.option("--name", default="ctxhub", show_default=True, help="Server name in the config.")
@click.option(
    "--hooks",
    is_flag=True,
    help="claude-code only: add the error/fix capture hook to Claude Code's settings.",
)
@click.option("--remove", is_flag=True, help="With --hooks: take the hook out again.")
def install(
    client: str | None, scope: str, print_only: bool, name: str, hooks: bool, remove: bool
) -> None:
    """Configure an MCP client (claude-code, cursor, vscode, zed) to start `ctxhub serve`.

    \b
    --user: the entry points at this interpreter's ctxhub and carries CTXHUB_HOME /
    CTXHUB_DB when they are set, so the client sees the same index.
    --project: the file is committed and shared, so the entry is portable: `ctxhub
    serve` from PATH, no per-user settings. Existing config files are merged into;
    other servers are kept.

    \b
    --hooks (claude-code): instead of the MCP server, add `ctxhub hook post-tool-use`
    on PostToolUse and PostToolUseFailure to ~/.claude/settings.json (or, with
    --project, .claude/settings.json, as the portable `ctxhub hook post-tool-use`), so
    an error followed by its fix is captured as a memory record. Installing twice
    keeps one entry; --remove takes out only ours.
    """
    from ctxhub.clients.mcp_config import CLIENTS, apply_install, describe, plan_install
    from ctxhub.core.errors import InstallError

    if remove and not hooks:
        raise click.UsageError("--remove works with --hooks (MCP entries are removed by hand)")
    if hooks:
        if client != "claude-code":
            raise click.UsageError("--hooks is for claude-code: ctxhub install claude-code --hooks")
        _install_hooks(cast("Scope", scope), print_only, remove)
        return
    if client is None and not print_only:
        raise click.UsageError("name a client (claude-code, cursor, vscode, zed), or use --print")
    chosen = [client] if client else list(CLIENTS)
    for name_of_client in chosen:
        plan = plan_install(cast("Client", name_of_client), cast("Scope", scope), name=name)
        if print_only or plan.path is None:
            click.echo(describe(plan))
            if plan.path is None and not print_only:
                err.print("[dim]run the command above to register ctxhub with Claude Code[/dim]")
            continue
        try:
            err.print(apply_install(plan) + "; restart the client (or reload its MCP servers)")
        except (InstallError, OSError) as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(1)
        for note in plan.notes:
            err.print(f"note: {note}")


def _install_hooks(scope: Scope, print_only: bool, remove: bool) -> None:
    from ctxhub.clients.claude_hooks import apply_hooks, describe_hooks, plan_hooks, remove_hooks
    from ctxhub.core.errors import InstallError

    plan = plan_hooks(scope)
    if print_only and not remove:
        click.echo(describe_hooks(plan))
        return
    if print_only:
        click.echo(f"# would remove the ctxhub hook from {plan.path}")
        return
    try:
        action, report = remove_hooks(plan) if remove else apply_hooks(plan)
    except (InstallError, OSError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    if action in ("added", "updated", "removed"):
        report += "; Claude Code picks it up in a new session (or via /hooks)"
    err.print(report)


COMMANDS = [serve, install]
