"""The refresh use case at a terminal: progress bars while it runs, the summary table
(or the JSON summary) after. Shared by `refresh`, `add`, `demo` and `eval`."""

from __future__ import annotations

from rich.table import Table

from ctxhub.app.refresh import refresh_index
from ctxhub.cli.context import Context
from ctxhub.cli.output import err, out, print_json
from ctxhub.cli.progress import make_progress
from ctxhub.ingest.refresh.incremental import RefreshSummary
from ctxhub.sources.base import SourceSpec

#: Skipped files named per source after the summary table (all of them in --json).
MAX_SKIP_LINES = 20


def _summary_table(summary: RefreshSummary) -> Table:
    table = Table(
        "source", "status", "version", "files", "added", "updated", "removed", "skipped", "seconds"
    )
    for s in summary.sources:
        version = s.version or (s.commit[:10] if s.commit else "-")
        status = s.status if s.status == "ok" else f"[red]{s.status}[/red]"
        table.add_row(
            s.name,
            status,
            version,
            str(s.files),
            str(s.added),
            str(s.updated),
            str(s.removed),
            str(len(s.skipped)),
            f"{s.seconds:.1f}",
        )
    return table


def _print_summary(summary: RefreshSummary, as_json: bool) -> None:
    if as_json:
        print_json(summary)
        return
    out.print(_summary_table(summary))
    for s in summary.sources:
        if s.error:
            kept = "previous chunks kept" if s.kept_previous else "nothing indexed"
            out.print(f"[red]{s.name} failed:[/red] {s.error} ({kept})")
        if s.warning:
            out.print(f"[yellow]{s.name}: {s.warning}[/yellow]")
        for unit, reason in s.skipped[:MAX_SKIP_LINES]:
            out.print(f"[yellow]{s.name}: skipped {unit}[/yellow]: {reason}")
        if len(s.skipped) > MAX_SKIP_LINES:
            more = len(s.skipped) - MAX_SKIP_LINES
            out.print(f"[yellow]{s.name}: {more} more skipped[/yellow] (see `refresh --json`)")
    out.print(
        f"[dim]lexical {summary.lexical_seconds:.1f}s, embeddings {summary.embed_seconds:.1f}s"
        f" ({summary.embedded} texts embedded, the rest from cache)[/dim]"
    )


def run_refresh(
    ctx: Context,
    specs: list[SourceSpec],
    *,
    force: bool,
    embed: bool,
    as_json: bool,
    reembed: bool = False,
) -> RefreshSummary:
    progress, bars = make_progress()
    try:
        summary = refresh_index(
            ctx.settings,
            specs,
            force=force,
            embed=embed,
            reembed=reembed,
            progress=progress,
            say=(lambda _: None) if as_json else err.print,
        )
    finally:
        if bars is not None:
            bars.close()
    _print_summary(summary, as_json)
    return summary
