"""status and doctor: what the hub holds, and whether it can work."""

from __future__ import annotations

import sys
import time

import click
from rich.markup import escape

from ctxhub.cli.context import Context, pass_ctx
from ctxhub.cli.output import out, print_json
from ctxhub.cli.tables import fitted_table
from ctxhub.memory.records.pending import pending_count
from ctxhub.sources.base import ADD_COMMAND, SOURCE_FORMS
from ctxhub.store.factory import open_store
from ctxhub.tools.hub_status import environment_note, hub_status
from ctxhub.tools.render_status import memory_line, version_label, version_note


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024:
            return f"{n:.0f} {unit}"
        n //= 1024
    return f"{n} TB"


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
@pass_ctx
def status(ctx: Context, as_json: bool) -> None:
    """Sources, versions, chunk counts, model and store."""
    with open_store(ctx.settings.store_location) as store:
        report = hub_status(store, ctx.settings.stale_days, pending_count(ctx.settings))
    if as_json:
        print_json(report)
        return
    mode = ", read-only: searches work, writes fail" if report.read_only else ""
    out.print(f"store   {report.store_path} ({_size(report.store_bytes)}{mode})")
    out.print(f"model   {report.model or '-'} (dim {report.dim or '-'})")
    looked = f", {report.lookup_only} lookup-only" if report.lookup_only else ""
    out.print(f"chunks  {report.chunks} ({report.embedded} embedded{looked})")
    rows = []
    for s in report.sources:
        version = version_label(s.version, s.commit, s.status != "failed" or bool(s.chunks))
        chunks = ", ".join(f"{k} {n}" for k, n in sorted(s.chunks.items())) or "0"
        age = "-" if s.age_days is None else f"{s.age_days:.1f}" + (" stale" if s.stale else "")
        # an error or warning is shown whole: the table wraps a long cell, never cuts it
        if s.status == "partial":
            state = f"partial ({escape(s.error or '')})"
        else:
            state = s.status if not s.error else f"{s.status}: {escape(s.error)}"
            if s.warning and not s.error:
                state = f"{s.status}: {escape(s.warning)}"
            if note := version_note(s.version, s.installed_version, s.not_installed):
                state += f" [yellow]({escape(note)})[/yellow]"
        skipped = str(s.skipped_files)
        if s.left_out_files:
            skipped += f" (+{s.left_out_files} left out)"
        rows.append([s.name, ",".join(s.kinds), version, state, age, chunks, skipped])
    headers = ("source", "kinds", "version", "status", "age (days)", "chunks", "skipped")
    if rows:
        out.print(fitted_table(out, headers, rows))
    else:
        out.print(f"no sources yet: {ADD_COMMAND} ({SOURCE_FORMS})")
    out.print(memory_line(report))
    for query, n in report.memory.unhelpful_queries[:5]:
        out.print(f"  rated not useful ({n}x): {query[:120]}")


@click.command()
@pass_ctx
def doctor(ctx: Context) -> None:
    """Check that the model loads, the store opens, FTS5 exists and the schema is current."""
    from ctxhub.embed import load_default_embedder

    failures = 0

    def check(name: str, ok: bool, detail: str) -> None:
        nonlocal failures
        failures += 0 if ok else 1
        mark = "[green]ok[/green]  " if ok else "[red]FAIL[/red]"
        out.print(f"{mark} {name}: {detail}", soft_wrap=True)  # one line, however long

    try:
        with open_store(ctx.settings.store_location) as store:
            for name, ok, detail in store.health():
                check(name, ok, detail)
            model = store.model
            states = store.sources()
            if not states:  # not a failure: a fresh hub is empty
                out.print(
                    "[yellow]note[/yellow] content: the store is empty; index a source "
                    f"with `{ADD_COMMAND}` ({SOURCE_FORMS})",
                    soft_wrap=True,
                )
            for state in states:  # not failures either: the last index still answers
                if note := environment_note(state.origin, state.version):
                    out.print(
                        f"[yellow]note[/yellow] version: {state.name} {escape(note)}; "
                        f"run `ctxhub refresh {state.name}`",
                        soft_wrap=True,
                    )
    except Exception as exc:
        check("store", False, str(exc))
        model = None
    try:
        started = time.perf_counter()
        embedder = load_default_embedder(ctx.settings.home)
        vec = embedder.embed(["doctor check"])
        ms = (time.perf_counter() - started) * 1000
        check(
            "model",
            vec.shape == (1, embedder.dim),
            f"{embedder.id} loads and embeds (dim {embedder.dim}, {ms:.0f} ms)",
        )
        if model is not None:
            check(
                "model match",
                model == (embedder.id, embedder.dim),
                f"store has {model[0]}; run `ctxhub refresh --reembed` if they differ",
            )
    except Exception as exc:
        check("model", False, str(exc))
    if failures:
        sys.exit(1)


COMMANDS = [status, doctor]
