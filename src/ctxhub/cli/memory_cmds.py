"""Memory commands that are no MCP tool: export, import, forget. (log, recall, rate,
browse, digest and approach are generated from the tool specs: cli/tool_cmds.py.)"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ctxhub.cli.context import Context, pass_ctx
from ctxhub.cli.output import err, print_json

JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")


@click.command(name="export")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path))
@click.option("--vectors", is_flag=True, help="Include the vectors (skip re-embedding on import).")
@pass_ctx
def export_cmd(ctx: Context, file: Path, vectors: bool) -> None:
    """Write every memory record to FILE as JSON Lines ('-' for stdout)."""
    from ctxhub.memory.records.transfer import export_records
    from ctxhub.session import HubSession

    with HubSession(ctx.settings) as hub:
        if str(file) == "-":
            n = export_records(hub, sys.stdout, vectors)
        else:
            tmp = file.with_name(file.name + ".tmp")
            try:
                with tmp.open("w", encoding="utf-8") as handle:
                    n = export_records(hub, handle, vectors)
                tmp.replace(file)
            except OSError as exc:
                tmp.unlink(missing_ok=True)
                raise click.ClickException(f"cannot write {file}: {exc.strerror or exc}") from None
    err.print(f"exported {n} records" + (" with vectors" if vectors else ""))


@click.command(name="import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@JSON_OPTION
@pass_ctx
def import_cmd(ctx: Context, file: Path, as_json: bool) -> None:
    """Read records from a `ctxhub export` file; re-embeds when the model differs."""
    from ctxhub.memory.records.transfer import import_records
    from ctxhub.session import HubSession

    with HubSession(ctx.settings) as hub:
        try:
            summary = import_records(hub, file)
        except ValueError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(1)
    if as_json:
        print_json(summary)
        return
    click.echo(
        f"imported {file}: {summary.created} new, {summary.updated} updated, "
        f"{summary.reembedded} embedded here, {len(summary.skipped)} skipped"
    )
    for reason in summary.skipped[:20]:
        err.print(f"[yellow]skipped[/yellow] {reason}")


@click.command()
@click.argument("record_id")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@pass_ctx
def forget(ctx: Context, record_id: str, yes: bool) -> None:
    """Delete a record (a wrong fix, or one that leaked a secret), with its ratings."""
    from ctxhub.session import HubSession
    from ctxhub.store.ids import resolve_id

    with HubSession(ctx.settings) as hub:
        resolved = resolve_id(hub.store, record_id)
        if resolved is None or resolved[0] != "record":
            click.echo(f"error: not found: no record {record_id!r}", err=True)
            sys.exit(1)
        record_id = resolved[1]
        found = hub.store.get_records([record_id])
        if not yes:
            click.confirm(f"delete {record_id}: {found[0].problem[:80]!r}?", abort=True)
        hub.store.delete_record(record_id)
    err.print(f"deleted {record_id}")


COMMANDS = [export_cmd, import_cmd, forget]
