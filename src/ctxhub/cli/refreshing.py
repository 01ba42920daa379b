"""The refresh use case at a terminal: progress bars while it runs, the summary table
(or the JSON summary) after. Shared by `refresh`, `add`, `demo` and `eval`."""

from __future__ import annotations

from collections import Counter

from rich.markup import escape

from ctxhub.app.refresh import refresh_index
from ctxhub.cli.context import Context
from ctxhub.cli.output import err, out, print_json
from ctxhub.cli.progress import make_progress
from ctxhub.cli.tables import fitted_table
from ctxhub.ingest.refresh.incremental import RefreshSummary, SourceSummary
from ctxhub.sources.base import SourceSpec
from ctxhub.tools.render_status import version_label

#: Skipped files named per source after the summary table (all of them in --json).
MAX_SKIP_LINES = 20


_HEADERS = ("source", "status", "version", "files", "added", "updated", "removed", "skipped")


def _summary_rows(summary: RefreshSummary) -> list[list[str]]:
    rows = []
    for s in summary.sources:
        version = version_label(s.version, s.commit, s.status != "failed")
        color = {"ok": "", "warning": "yellow"}.get(s.status, "red")
        status = f"[{color}]{s.status}[/{color}]" if color else s.status
        counts = (s.files, s.added, s.updated, s.removed, len(s.skipped))
        rows.append([s.name, status, version, *(str(n) for n in counts)])
    return rows


def files_line(s: SourceSummary) -> str | None:
    """`N files: I indexed, L left out (why, most common first), S skipped`: what became
    of every file the source lists; None for a failed source."""
    if s.status == "failed":
        return None
    reasons = Counter(r for _, r in s.left_out).most_common()
    why = "; ".join(f"{n} {r}" for r, n in reasons[:4])
    if len(reasons) > 4:
        why += f"; {sum(n for _, n in reasons[4:])} other"
    unread = s.files - s.indexed_files - len(s.left_out)  # listed, then unreadable
    parts = [
        f"{s.indexed_files} indexed",
        f"{len(s.left_out)} left out" + (f" ({why})" if why else ""),
    ]
    if unread > 0:
        parts.append(f"{unread} unreadable")
    if s.deprecations:
        parts.append(f"{s.deprecations} deprecation records")
    return f"{s.files} files: " + ", ".join(parts)


def _print_summary(summary: RefreshSummary, as_json: bool) -> None:
    if as_json:
        print_json(summary)
        return
    out.print(fitted_table(out, _HEADERS, _summary_rows(summary)))
    for s in summary.sources:
        if s.error:
            kept = "previous chunks kept" if s.kept_previous else "nothing indexed"
            out.print(f"[red]{s.name} failed:[/red] {s.error} ({kept})")
        line = files_line(s)
        if line is not None and (s.left_out or s.deprecations):
            out.print(f"[dim]{escape(s.name)}: {escape(line)}[/dim]")
        if s.warning:
            out.print(f"[yellow]{s.name}: {s.warning}[/yellow]")
        for advice in s.advice:
            out.print(f"[yellow]{escape(s.name)}: {escape(advice)}[/yellow]")
        for unit, reason in s.skipped[:MAX_SKIP_LINES]:
            out.print(f"[yellow]{s.name}: skipped {unit}[/yellow]: {reason}")
        if len(s.skipped) > MAX_SKIP_LINES:
            more = len(s.skipped) - MAX_SKIP_LINES
            out.print(f"[yellow]{s.name}: {more} more skipped[/yellow] (see `refresh --json`)")
        for page, why in s.refused_includes[:MAX_SKIP_LINES]:
            out.print(f"[yellow]{s.name}: include refused in {page}[/yellow]: {escape(why)}")
        if len(s.refused_includes) > MAX_SKIP_LINES:
            more = len(s.refused_includes) - MAX_SKIP_LINES
            out.print(f"[yellow]{s.name}: {more} more includes refused[/yellow] (`refresh --json`)")
    total = summary.lexical_seconds + summary.embed_seconds
    embedded = f"{summary.embedded} new texts embedded" if summary.embedded else "nothing to embed"
    out.print(
        f"[dim]{total:.1f}s: reading {summary.lexical_seconds:.1f}s, embedding "
        f"{summary.embed_seconds:.1f}s ({embedded})[/dim]"
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
