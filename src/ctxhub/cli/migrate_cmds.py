"""`ctxhub migrate`: copy the hub to another store, or from one, without re-embedding."""

from __future__ import annotations

import click

from ctxhub.cli.context import Context, pass_ctx
from ctxhub.cli.output import err, out


@click.command()
@click.option(
    "--to",
    "to_location",
    metavar="LOCATION",
    help="Copy this hub into LOCATION (postgresql://... or a SQLite file path).",
)
@click.option(
    "--from",
    "from_location",
    metavar="LOCATION",
    help="Copy the hub at LOCATION into this one (e.g. back to a file).",
)
@pass_ctx
def migrate(ctx: Context, to_location: str | None, from_location: str | None) -> None:
    """Copy a whole hub between stores (SQLite <-> PostgreSQL): sources, chunks, file
    states, deprecations, vectors, memory records with their vectors, counters and
    aliases, knowledge ratings. Nothing is re-embedded. The store of this command
    (--db / CTXHUB_DB) is the other end.

    \b
    ctxhub migrate --to postgresql://me@db.example/ctxhub   # share this hub with a team
    ctxhub migrate --from postgresql://me@db.example/ctxhub # a file copy of the team hub
    """
    from ctxhub.app.migrate import migrate as copy_hub
    from ctxhub.store.factory import open_store

    if (to_location is None) == (from_location is None):
        raise click.UsageError("give exactly one of --to LOCATION or --from LOCATION")
    here = str(ctx.settings.store_location)
    source, target = (here, to_location) if to_location else (from_location, here)
    assert source is not None and target is not None
    if str(source) == str(target):
        raise click.UsageError("the source and the destination are the same store")
    with open_store(source, read_only=True) as src, open_store(target) as dst:
        summary = copy_hub(src, dst, say=err.print)
        shown = (src.location, dst.location)  # each store's own, without a password
    out.print(
        f"copied {summary.sources} sources ({summary.units} units, {summary.chunks} chunks, "
        f"{summary.vectors} vectors), {summary.records} memory records and "
        f"{summary.knowledge_ratings} knowledge ratings from {shown[0]} to {shown[1]}"
    )
    if summary.unembedded:
        out.print(
            f"{summary.unembedded} chunk texts had no vector in the source: "
            "`ctxhub refresh` embeds them"
        )


COMMANDS = [migrate]
