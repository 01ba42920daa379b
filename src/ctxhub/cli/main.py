"""`ctxhub`: the command line. One module per command group; this one wires them up."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import click

from ctxhub import __version__
from ctxhub.config import Settings, load_settings
from ctxhub.embed.base import EmbedderError
from ctxhub.manifest import ManifestError
from ctxhub.sources.base import SourceError
from ctxhub.store.base import StoreError


class Context:
    """What every command receives: settings resolved from env and global flags."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings


pass_ctx = click.make_pass_decorator(Context)


class CtxhubGroup(click.Group):
    """Turns known errors into one clear line and exit code 1, never a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except (StoreError, EmbedderError, SourceError, ManifestError) as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(1)


@click.group(cls=CtxhubGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ctxhub")
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar="CTXHUB_DB",
    help="Store file (default: $CTXHUB_HOME/ctxhub.db, home defaults to ~/.ctxhub).",
)
@click.option("-v", "--verbose", count=True, help="More log output on stderr (-vv: debug).")
@click.pass_context
def cli(ctx: click.Context, db: Path | None, verbose: int) -> None:
    """ctxhub: framework knowledge and solution memory for coding agents."""
    level = logging.WARNING - 10 * min(verbose, 2)
    logging.basicConfig(
        level=level, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s"
    )
    ctx.obj = Context(load_settings(db))


def _register() -> None:
    from ctxhub.cli import (
        demo_cmds,
        eval_cmds,
        github_cmds,
        hook_cmds,
        knowledge_cmds,
        memory_cmds,
        mine_cmds,
        search_cmds,
        serve_cmds,
        sources_cmds,
        status_cmds,
    )

    groups = (sources_cmds, status_cmds, search_cmds, eval_cmds, demo_cmds)
    memory = (memory_cmds, github_cmds, mine_cmds, hook_cmds)
    for module in (*groups, knowledge_cmds, *memory, serve_cmds):
        for command in module.COMMANDS:
            cli.add_command(command)


_register()


def main() -> None:
    cli(prog_name="ctxhub")
