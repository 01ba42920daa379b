"""`ctxhub show ID`: open any chunk id (or a doc page path) with the tool that fits its
kind, printing that tool's text (or its JSON with --json)."""

from __future__ import annotations

import click

from ctxhub.cli.context import Context, pass_ctx
from ctxhub.core import limits


@click.command()
@click.argument("chunk_id")
@click.option("--section", help="Doc pages: only sections whose heading contains this.")
@click.option(
    "--max-tokens",
    default=limits.DEFAULT_TOKENS,
    show_default=True,
    type=click.IntRange(limits.MIN_TOKENS, limits.MAX_TOKENS),
    help="Token budget of the response.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the tool's JSON output.")
@pass_ctx
def show(ctx: Context, chunk_id: str, section: str | None, max_tokens: int, as_json: bool) -> None:
    """Open any chunk id: a doc page (get_doc), an example (get_example), or code
    (get_code_snippet). A doc page path works too."""
    from ctxhub.cli.tool_cmds import print_answer
    from ctxhub.session import HubSession
    from ctxhub.tools.run import parse_args
    from ctxhub.tools.specs.read import GET_CODE_SNIPPET, GET_DOC, GET_EXAMPLE

    budget = {"max_tokens": max_tokens}
    with HubSession(ctx.settings) as hub:
        found = hub.store.get_chunks([chunk_id])
        kind = found[0].kind if found else None
        if kind is None:  # not an id: perhaps a doc page path
            spec, values = GET_DOC, {"path": chunk_id, "section": section, **budget}
        elif kind == "doc":
            spec, values = GET_DOC, {"doc_id": chunk_id, "section": section, **budget}
        elif kind == "example":
            spec, values = GET_EXAMPLE, {"example_id": chunk_id, **budget}
        else:
            spec, values = GET_CODE_SNIPPET, {"chunk_id": chunk_id, **budget}
        print_answer(spec, hub, parse_args(spec, values), as_json)


COMMANDS = [show]
