"""Query commands: search."""

from __future__ import annotations

import click

from ctxhub.cli.context import Context, pass_ctx
from ctxhub.cli.output import out, print_json
from ctxhub.cli.render import render_response
from ctxhub.core.errors import InputError
from ctxhub.session import Hub
from ctxhub.tools import search_tools

KIND_CHOICE = click.Choice(["doc", "api", "example", "memory"])


@click.command()
@click.argument("query")
@click.option("--kind", "kinds", multiple=True, type=KIND_CHOICE, help="Only these kinds.")
@click.option("--source", "sources", multiple=True, help="Only these sources (repeatable).")
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 200))
@click.option(
    "--max-tokens",
    default=8000,
    show_default=True,
    type=click.IntRange(200, 25000),
    help="Token budget of the response (snippets are trimmed to fit).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the response as JSON.")
@pass_ctx
def search(
    ctx: Context,
    query: str,
    kinds: tuple[str, ...],
    sources: tuple[str, ...],
    limit: int,
    max_tokens: int,
    as_json: bool,
) -> None:
    """Hybrid search (BM25 + dense + symbol) over everything indexed: the MCP `search`."""
    with Hub(ctx.settings) as hub:
        try:
            response = search_tools.search(
                hub,
                query,
                kinds=list(kinds) or None,  # type: ignore[arg-type]
                source=list(sources) or None,
                limit=limit,
                max_tokens=max_tokens,
            )
        except InputError as exc:
            raise click.BadParameter(str(exc)) from exc
    if as_json:
        print_json(response)
    else:
        render_response(out, response)


COMMANDS = [search]
