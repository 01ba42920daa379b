"""Memory commands: log, recall, rate, browse, digest, export, import.

Each mirrors an MCP memory tool (same function underneath), prints the same text the
tool returns, or the structured response with --json."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ctxhub.cli.context import Context, pass_ctx
from ctxhub.cli.output import err, print_json

if TYPE_CHECKING:  # loaded by the command that runs, so `--help` stays instant
    from ctxhub.session import Hub

M = TypeVar("M")


def _run(ctx: Context, work: Callable[[Hub], M], render: Callable[[M], str], as_json: bool) -> None:
    from pydantic import ValidationError

    from ctxhub.core.errors import InputError, NotFoundError
    from ctxhub.session import Hub

    with Hub(ctx.settings) as hub:
        try:
            result = work(hub)
        except InputError as exc:
            raise click.BadParameter(str(exc)) from exc
        except ValidationError as exc:
            from ctxhub.server.runtime import describe_validation

            raise click.BadParameter(describe_validation(exc)) from exc
        except NotFoundError as exc:
            click.echo(f"error: not found: {exc}", err=True)
            sys.exit(1)
    if as_json:
        print_json(result)
    else:
        click.echo(render(result))


def _read_arg(value: str | None, option: str) -> str | None:
    """`-` reads the text from stdin (a pasted stack trace), `@FILE` from a file."""
    if value == "-":
        return sys.stdin.read()
    if value and value.startswith("@") and len(value) > 1:
        try:
            return Path(value[1:]).read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise click.BadParameter(
                f"cannot read {value[1:]}: {exc.strerror or exc}", param_hint=option
            ) from None
    return value


JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")


@click.command(name="log")
@click.option("--problem", required=True, help="The problem, as you would search for it.")
@click.option("--solution", default="", help="What fixed it.")
@click.option("--error-type", help="e.g. ModuleNotFoundError, ERR_REQUIRE_ESM, E0463.")
@click.option("--stack-trace", help="The trace ('-' reads stdin, '@FILE' a file).")
@click.option("--code", "code_snippet", help="The fixed code ('-' stdin, '@FILE').")
@click.option("--diff", "code_diff", help="The change as a diff ('-' stdin, '@FILE').")
@click.option("--language")
@click.option("--framework")
@click.option("--library", "libraries", multiple=True, help="Repeatable.")
@click.option("--tag", "tags", multiple=True, help="Repeatable.")
@click.option("--file", "file_path", help="The file the fix was in.")
@click.option("--confidence", type=click.FloatRange(0, 1), default=0.7, show_default=True)
@click.option("--unresolved", is_flag=True, help="Seen, not solved yet.")
@JSON_OPTION
@pass_ctx
def log_cmd(ctx: Context, /, as_json: bool, unresolved: bool, **fields: Any) -> None:
    """Record a problem and its solution (the MCP `log_solution`)."""
    from ctxhub.server import render_memory
    from ctxhub.tools import memory_tools

    for key, option in (
        ("stack_trace", "--stack-trace"),
        ("code_snippet", "--code"),
        ("code_diff", "--diff"),
    ):
        fields[key] = _read_arg(fields[key], option)
    fields["libraries"] = list(fields["libraries"])
    fields["tags"] = list(fields["tags"])
    fields["agent"] = "cli"
    fields["resolved"] = not unresolved
    _run(
        ctx,
        lambda hub: memory_tools.log_solution(hub, **fields),
        render_memory.log_result,
        as_json,
    )


@click.command()
@click.argument("query")
@click.option("--code", "code_context", help="The code involved ('-' stdin, '@FILE').")
@click.option("--language")
@click.option("--framework")
@click.option("--tag", "tags", multiple=True, help="Every tag must match (repeatable).")
@click.option("--error-type")
@click.option("--approach", is_flag=True, help="QUERY describes the fix (search_by_approach).")
@click.option("--limit", default=5, show_default=True, type=click.IntRange(1, 50))
@JSON_OPTION
@pass_ctx
def recall(
    ctx: Context,
    query: str,
    code_context: str | None,
    language: str | None,
    framework: str | None,
    tags: tuple[str, ...],
    error_type: str | None,
    approach: bool,
    limit: int,
    as_json: bool,
) -> None:
    """Search solution memory (the MCP `search_solutions`, or `search_by_approach`)."""
    from ctxhub.server import render_memory
    from ctxhub.tools import memory_tools

    if approach and (code_context or framework or tags or error_type):
        raise click.UsageError("--approach takes only --language and --limit")
    context = _read_arg(code_context, "--code")

    def work(hub: Hub) -> Any:
        if approach:
            return memory_tools.search_by_approach(hub, query, language=language, limit=limit)
        return memory_tools.search_solutions(
            hub,
            query,
            code_context=context,
            language=language,
            framework=framework,
            tags=list(tags) or None,
            error_type=error_type,
            limit=limit,
        )

    _run(ctx, work, render_memory.solution_response, as_json)


@click.command()
@click.argument("record_id")
@click.argument("verdict", type=click.Choice(["worked", "failed", "useful", "not-useful"]))
@click.option("--note")
@click.option("--query", help="For a knowledge hit: the query it answered.")
@JSON_OPTION
@pass_ctx
def rate(
    ctx: Context,
    record_id: str,
    verdict: str,
    note: str | None,
    query: str | None,
    as_json: bool,
) -> None:
    """Rate a record (worked / failed) or a knowledge hit (useful / not-useful)."""
    from ctxhub.memory.feedback import rate as rate_record
    from ctxhub.server import render_memory

    worked = verdict in ("worked", "useful")
    _run(
        ctx,
        lambda hub: rate_record(hub, record_id, worked, note=note, agent="cli", query=query),
        render_memory.rate_result,
        as_json,
    )


@click.command()
@click.option("--language")
@click.option("--framework")
@click.option("--tag")
@click.option("--error-type")
@click.option("--source", help="local, session, hook, import, github:OWNER/REPO, or 'github:'.")
@click.option("--limit", default=20, show_default=True, type=click.IntRange(1, 100))
@click.option("--cursor", help="next_cursor of the previous page.")
@JSON_OPTION
@pass_ctx
def browse(ctx: Context, /, as_json: bool, **filters: Any) -> None:
    """List solution records, most recently seen first (the MCP `browse_solutions`)."""
    from ctxhub.server import render_memory
    from ctxhub.tools import memory_tools

    _run(
        ctx,
        lambda hub: memory_tools.browse_solutions(hub, **filters),
        render_memory.browse_response,
        as_json,
    )


@click.command()
@click.option("--language", "languages", multiple=True, required=True, help="Repeatable.")
@click.option("--framework", "frameworks", multiple=True, help="Repeatable.")
@click.option("--limit", default=30, show_default=True, type=click.IntRange(1, 200))
@JSON_OPTION
@pass_ctx
def digest(
    ctx: Context,
    languages: tuple[str, ...],
    frameworks: tuple[str, ...],
    limit: int,
    as_json: bool,
) -> None:
    """Known problems and fixes as Markdown for AGENTS.md / CLAUDE.md (`ecosystem_digest`)."""
    from ctxhub.server import render_memory
    from ctxhub.tools import memory_tools

    _run(
        ctx,
        lambda hub: memory_tools.ecosystem_digest(
            hub, list(languages), list(frameworks) or None, limit
        ),
        render_memory.digest,
        as_json,
    )


@click.command(name="export")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path))
@click.option("--vectors", is_flag=True, help="Include the vectors (skip re-embedding on import).")
@pass_ctx
def export_cmd(ctx: Context, file: Path, vectors: bool) -> None:
    """Write every memory record to FILE as JSON Lines ('-' for stdout)."""
    from ctxhub.memory.transfer import export_records
    from ctxhub.session import Hub

    with Hub(ctx.settings) as hub:
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
    from ctxhub.memory.transfer import import_records
    from ctxhub.session import Hub

    with Hub(ctx.settings) as hub:
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
    from ctxhub.session import Hub

    with Hub(ctx.settings) as hub:
        found = hub.store.get_records([record_id])
        if not found:
            click.echo(f"error: not found: no record {record_id!r}", err=True)
            sys.exit(1)
        if not yes:
            click.confirm(f"delete {record_id}: {found[0].problem[:80]!r}?", abort=True)
        hub.store.delete_record(record_id)
    err.print(f"deleted {record_id}")


COMMANDS = [log_cmd, recall, rate, browse, digest, export_cmd, import_cmd, forget]
