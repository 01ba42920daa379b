"""`ctxhub show ID`: open any id a search or digest printed (a chunk, a memory record,
whole or a unique prefix) or a doc page path, with the tool that fits its kind, printing
that tool's text (or its JSON with --json)."""

from __future__ import annotations

import re

import click

from ctxhub.cli.context import Context, pass_ctx
from ctxhub.core import limits
from ctxhub.core.errors import InputError, NotFoundError, shown

#: Chunk ids are 16 hex digits, record ids uuids: anything else may be a page path.
_ID = re.compile(r"[0-9a-f]{4,16}|[0-9a-f]{8}-[0-9a-f-]{0,27}")


@click.command()
@click.argument("chunk_id", metavar="ID")
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
    """Open any id: a doc page (get_doc), an example (get_example), code
    (get_code_snippet) or a memory record. A unique prefix of an id works, and so does
    a doc page path."""
    from ctxhub.cli.output import print_json
    from ctxhub.cli.tool_cmds import print_answer
    from ctxhub.session import HubSession
    from ctxhub.store.ids import MIN_PREFIX, resolve_id
    from ctxhub.tools.docs_tools import find_page
    from ctxhub.tools.render_memory import record_text
    from ctxhub.tools.run import parse_args
    from ctxhub.tools.specs.read import GET_CODE_SNIPPET, GET_DOC, GET_EXAMPLE

    budget = {"max_tokens": max_tokens}
    with HubSession(ctx.settings) as hub:
        resolved = resolve_id(hub.store, chunk_id)
        if resolved is not None and resolved[0] == "record":
            (record,) = hub.store.get_records([resolved[1]])
            if as_json:
                print_json(record)
            else:
                click.echo(record_text(record, hub.store.ratings_by(record.id)))
            return
        if resolved is not None:
            chunk_id = resolved[1]
        elif _ID.fullmatch(chunk_id):  # shaped like an id, not a page path
            raise NotFoundError(
                f"no chunk or record with id {chunk_id!r} (ids come from search hits, "
                "digests and `browse`)"
            )
        found = hub.store.get_chunks([chunk_id])
        kind = found[0].kind if found else None
        if kind is None:  # not an id: perhaps a doc page path
            try:
                find_page(hub, chunk_id, None)
            except NotFoundError:
                if len(chunk_id) < MIN_PREFIX and hub.store.chunk_ids_with_prefix(chunk_id, 1):
                    raise InputError(
                        f"{chunk_id!r} is too short to name one id: give at least "
                        f"{MIN_PREFIX} characters"
                    ) from None
                raise NotFoundError(
                    f"nothing has the id {shown(chunk_id)}: it is no chunk id, record id (or "
                    "unique prefix of one) or doc page path (ids come from search hits, "
                    "digests and `browse`; page paths from search_docs)"
                ) from None
            spec, values = GET_DOC, {"path": chunk_id, "section": section, **budget}
        elif kind == "doc":
            # a doc chunk's id opens its own section, exactly (--section: others)
            own = section or found[0].section or found[0].title or None
            spec, values = GET_DOC, {"doc_id": chunk_id, "section": own, **budget}
        elif kind == "example":
            spec, values = GET_EXAMPLE, {"example_id": chunk_id, **budget}
        else:
            spec, values = GET_CODE_SNIPPET, {"chunk_id": chunk_id, **budget}
        print_answer(spec, hub, parse_args(spec, values), as_json)


COMMANDS = [show]
