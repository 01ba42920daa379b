"""`ctxhub eval`: score a labelled query set on the tools agents call."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.table import Table

from ctxhub.cli.context import Context
from ctxhub.cli.output import err, out, print_json
from ctxhub.cli.refreshing import run_refresh
from ctxhub.evaluation.queries import load_queries
from ctxhub.evaluation.runner import EvalReport, ablation_variants, run
from ctxhub.session import HubSession
from ctxhub.sources.base import SourceSpec


def _roots(values: tuple[str, ...]) -> list[SourceSpec]:
    specs = []
    for value in values:
        name, sep, path = value.partition("=")
        if not sep or not name or not path:
            raise click.BadParameter(f"{value!r}: expected REPO=PATH", param_hint="--root")
        specs.append(SourceSpec(name=name, path=str(Path(path).expanduser().resolve())))
    return specs


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def _table(report: EvalReport) -> Table:
    table = Table(
        "category",
        "n",
        "Recall@5",
        "MRR@10",
        "nDCG@10",
        "set P",
        "set R",
        title=f"variant: {report.variant}",
    )
    for c in [*sorted(report.categories, key=lambda c: c.category), report.overall]:
        table.add_row(
            c.category,
            str(c.n),
            _fmt(c.recall5),
            _fmt(c.mrr10),
            _fmt(c.ndcg10),
            _fmt(c.set_precision),
            _fmt(c.set_recall),
        )
    return table


@click.command("eval")
@click.argument("queries", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--root",
    "roots",
    multiple=True,
    metavar="REPO=PATH",
    help="Index PATH as source REPO (the gold items' `repo`). Repeatable.",
)
@click.option("--ablations", is_flag=True, help="Also run single paths and scorer subsets.")
@click.option("--misses/--no-misses", default=True, help="List queries that missed gold.")
@click.option(
    "--explain",
    "explain_ids",
    multiple=True,
    metavar="ID",
    help="Show where each path ranked each gold item of query ID (repeatable).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the reports as JSON.")
@click.pass_context
def eval_cmd(
    click_ctx: click.Context,
    queries: Path,
    roots: tuple[str, ...],
    ablations: bool,
    misses: bool,
    explain_ids: tuple[str, ...],
    as_json: bool,
) -> None:
    """Score QUERIES (JSONL, shared/eval format) per category: Recall@5, MRR@10, nDCG@10.

    Uses its own store ($CTXHUB_HOME/eval/eval.db) unless --db is given; roots are
    indexed incrementally first, so a second run only re-reads what changed.
    """
    ctx: Context = click_ctx.obj
    if click_ctx.parent is not None and click_ctx.parent.params.get("db") is None:
        ctx.settings.db = str(ctx.settings.home / "eval" / "eval.db")
    items = load_queries(queries)
    specs = _roots(roots)
    if specs:
        summary = run_refresh(ctx, specs, force=False, embed=True, as_json=False)
        if any(s.status != "ok" for s in summary.sources):
            sys.exit(1)
    if explain_ids:
        from ctxhub.evaluation.explain import explain

        wanted = [q for q in items if q.id in explain_ids]
        with HubSession(ctx.settings) as hub:
            for q in wanted:
                out.print(f"[bold]{q.id}[/bold] [{q.category}] {q.query}")
                for g in explain(hub, q):
                    ranks = "  ".join(f"{k} {v if v else '-'}" for k, v in g.ranks.items())
                    out.print(f"  {ranks}   {g.gold}")
        return
    reports: list[EvalReport] = []
    with HubSession(ctx.settings) as hub:
        reports.append(run(hub, items))
        if ablations:
            for variant in ablation_variants():
                err.print(f"[dim]ablation: {variant.name}[/dim]")
                reports.append(run(hub, items, variant))
    if as_json:
        print_json(reports)
        return
    for report in reports:
        out.print(_table(report))
    if misses:
        for r in reports[0].queries:
            if r.recall5 < 1.0 or (r.set_recall is not None and r.set_recall < 1.0):
                out.print(
                    f"[yellow]{r.id}[/yellow] [{r.category}] R@5 {r.recall5:.2f} {r.query[:90]}"
                )
                for m in r.missed:
                    out.print(f"    missed {m}")
                for t in r.top:
                    out.print(f"    got    {t}")
                if r.set_precision is not None:
                    out.print(
                        f"    set P {r.set_precision:.2f} R {r.set_recall:.2f} "
                        f"({r.set_size} returned)"
                    )


COMMANDS = [eval_cmd]
