"""`ctxhub`: the command line. One module per command group; this one wires them up.

Commands load lazily: the group knows only which module holds each command, so
`ctxhub --version`, `ctxhub rate` or `ctxhub rate --help` import click and the one module
they run, not every command's dependencies (the model runtime, the MCP SDK).
"""

from __future__ import annotations

import functools
import importlib
import logging
import sys
from collections.abc import Sequence
from typing import Any

import click

from ctxhub import __version__
from ctxhub.cli.context import Context

#: Every command, by the module (under ctxhub.cli) that defines it, in help order.
COMMAND_MODULES: dict[str, str] = {
    "init": "sources_cmds",
    "add": "sources_cmds",
    "remove": "sources_cmds",
    "sources": "sources_cmds",
    "refresh": "sources_cmds",
    "status": "status_cmds",
    "doctor": "status_cmds",
    "search": "tool_cmds",
    "search-docs": "tool_cmds",
    "search-api": "tool_cmds",
    "search-examples": "tool_cmds",
    "snippet": "tool_cmds",
    "doc": "tool_cmds",
    "example": "tool_cmds",
    "show": "knowledge_cmds",
    "calls": "tool_cmds",
    "deprecated": "tool_cmds",
    "log": "tool_cmds",
    "recall": "tool_cmds",
    "approach": "tool_cmds",
    "rate": "tool_cmds",
    "browse": "tool_cmds",
    "digest": "tool_cmds",
    "forget": "memory_cmds",
    "export": "memory_cmds",
    "import": "memory_cmds",
    "import-github": "github_cmds",
    "mine": "mine_cmds",
    "hook": "hook_cmds",
    "serve": "serve_cmds",
    "install": "serve_cmds",
    "dashboard": "dashboard_cmds",
    "migrate": "migrate_cmds",
    "token": "token_cmds",
    "eval": "eval_cmds",
    "demo": "demo_cmds",
}


def known_error(exc: BaseException) -> bool:
    """Errors whose message is the whole story (no traceback): every CtxhubError."""
    if not type(exc).__module__.startswith("ctxhub."):
        return False  # click's own exits and usage errors, or a bug: not ours to word
    from ctxhub.core.errors import CtxhubError

    return isinstance(exc, CtxhubError)


class CtxhubGroup(click.Group):
    """Loads each command on demand; turns known errors into one clear line and exit
    code 1, never a traceback."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Word every error one way: `error: <message>` on stderr (click's own "Error:"
        included), exit 2 for a bad command line, 1 otherwise."""
        run = functools.partial(super().main, args, prog_name, complete_var, False, **extra)
        if not standalone_mode:
            return run()
        try:
            code: object = run()
        except click.exceptions.Abort:
            click.echo("ctxhub: aborted", err=True)
            sys.exit(1)
        except click.UsageError as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # bare `ctxhub`: the help is it
                exc.show()
                sys.exit(exc.exit_code)
            if exc.ctx is not None:
                click.echo(exc.ctx.get_usage(), err=True)
                click.echo(f"Try '{exc.ctx.command_path} --help' for help.", err=True)
            click.echo(f"error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(f"error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        sys.exit(code if isinstance(code, int) else 0)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMAND_MODULES)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module_name = COMMAND_MODULES.get(cmd_name)
        if module_name is None:
            from ctxhub.cli.aliases import command_for

            # an MCP tool's name runs the command that calls it: `trace_calls` is `calls`
            command = command_for(cmd_name, COMMAND_MODULES)
            return self.get_command(ctx, command) if command else None
        module = importlib.import_module(f"ctxhub.cli.{module_name}")
        commands: list[click.Command] = module.COMMANDS
        return next(c for c in commands if c.name == cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            name = args[0] if args else ""
            if not name or name.startswith("-"):
                raise
            from ctxhub.cli.aliases import suggestions

            meant = suggestions(name, COMMAND_MODULES)
            if not meant:
                raise
            said = " or ".join(repr(m) for m in meant)
            raise click.UsageError(
                f"No such command {name!r}. Did you mean {said}?", exc.ctx
            ) from None

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:  # Ctrl-C: one line and the shell's code for it
            click.echo("ctxhub: interrupted", err=True)
            sys.exit(130)
        except Exception as exc:
            if not known_error(exc):
                raise
            from ctxhub.core.errors import InputError, NotFoundError, describe

            # bad arguments and missing things are worded as the tools word them; any
            # other error's message already says what failed and the fix
            if isinstance(exc, InputError | NotFoundError):
                message = describe(exc, ctx.invoked_subcommand or "ctxhub")
            else:
                message = str(exc)
            click.echo(f"error: {message}", err=True)
            sys.exit(int(getattr(exc, "exit_code", 1)))


@click.group(cls=CtxhubGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ctxhub")
@click.option(
    "--db",
    envvar="CTXHUB_DB",
    help="Store: a file path or a URL (default: $CTXHUB_HOME/ctxhub.db, home ~/.ctxhub).",
)
@click.option("-v", "--verbose", count=True, help="More log output on stderr (-vv: debug).")
@click.pass_context
def cli(ctx: click.Context, db: str | None, verbose: int) -> None:
    """ctxhub: framework knowledge and solution memory for coding agents."""
    level = logging.WARNING - 10 * min(verbose, 2)
    logging.basicConfig(
        level=level, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s"
    )
    ctx.obj = Context(db)


def main() -> None:
    cli(prog_name="ctxhub")
