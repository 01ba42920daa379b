"""`ctxhub demo`: the demo use case (app/demo.py) at a terminal."""

from __future__ import annotations

import sys

import click
from rich.markup import escape

from ctxhub.app.demo import PACKAGE, demo_steps, fetch_sdist
from ctxhub.cli.context import Context, pass_ctx
from ctxhub.cli.output import err, out
from ctxhub.cli.refreshing import run_refresh
from ctxhub.session import HubSession
from ctxhub.sources.base import SourceSpec
from ctxhub.sources.manifest import writable_manifest


@click.command()
@pass_ctx
def demo(ctx: Context) -> None:
    """Index pipecat-ai-flows 1.4.0 (fetched from PyPI), run three searches, then log a
    solution and find it again (and see memory say when it knows nothing)."""
    root = fetch_sdist(ctx.settings.home / "demo", say=err.print)
    spec = SourceSpec(name=PACKAGE, path=str(root))
    manifest = writable_manifest(ctx.settings.home)
    manifest.add(spec, replace=True)
    manifest.save()
    summary = run_refresh(ctx, [spec], force=False, embed=True, as_json=False)
    if any(s.status != "ok" for s in summary.sources):
        sys.exit(1)
    with HubSession(ctx.settings) as hub:
        for title, text in demo_steps(hub):
            out.rule(title)
            out.print(escape(text))
    out.print(
        f"\n[bold]ready.[/bold] `ctxhub search QUERY`, or `ctxhub serve` for agents "
        f"(store: {ctx.settings.store_location}, manifest: {manifest.path})"
    )


COMMANDS = [demo]
