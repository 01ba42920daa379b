"""The knowledge tools on the command line: snippet, show, calls, deprecated and the
search-docs / search-api / search-examples mirrors. `--json` prints exactly the tool's
structured output (what an MCP client receives as structuredContent)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

import click
from pydantic import BaseModel
from rich.markup import escape
from rich.syntax import Syntax
from rich.tree import Tree

from ctxhub.cli.context import Context, pass_ctx
from ctxhub.cli.output import out, print_json
from ctxhub.cli.render import render_response
from ctxhub.core.errors import InputError, NotFoundError
from ctxhub.core.knowledge import SearchResponse
from ctxhub.core.outputs import CallTrace, CodeSnippet, DeprecationReport, DocPage, ExampleBundle
from ctxhub.session import Hub
from ctxhub.tools import code_tools, docs_tools, example_tools, search_tools, status_tools

M = TypeVar("M", bound=BaseModel)

json_option = click.option("--json", "as_json", is_flag=True, help="Print the tool's JSON output.")
source_option = click.option("--source", help="Only this source.")
tokens_option = click.option(
    "--max-tokens",
    default=8000,
    show_default=True,
    type=click.IntRange(200, 25000),
    help="Token budget of the response.",
)


def _call(ctx: Context, work: Callable[[Hub], M]) -> M:
    """Run a tool function; its input and not-found errors become one line and exit 1."""
    try:
        with Hub(ctx.settings) as hub:
            return work(hub)
    except InputError as exc:
        raise click.UsageError(str(exc)) from None
    except NotFoundError as exc:
        click.echo(f"not found: {exc}", err=True)
        sys.exit(1)


def _lexer(path: str) -> str:
    return "python" if path.endswith((".py", ".pyi")) else Syntax.guess_lexer(path)


def render_snippet(s: CodeSnippet) -> None:
    span = f"{s.line_start}-{s.line_end}"
    if s.truncated:
        span += f" of {s.full_line_start}-{s.full_line_end} [red](truncated)[/red]"
    out.print(
        f"[bold]{escape(s.symbol or s.path)}[/bold] [dim]({s.resolution})[/dim]  "
        f"[green]{escape(s.source)}:{escape(s.path)}[/green] lines {span}  [dim]id {s.id}[/dim]"
    )
    out.print(Syntax(s.code, _lexer(s.path), line_numbers=True, start_line=s.line_start))
    for c in s.companions:
        out.print(f"  [dim]calls[/dim] {escape(c.symbol)}  [dim]{escape(c.path)} id {c.id}[/dim]")
    if s.alternatives:
        out.print("[dim]other matches:[/dim] " + escape(", ".join(s.alternatives)))


def render_doc(page: DocPage) -> None:
    out.print(f"[bold]{escape(page.title or page.path)}[/bold]  [dim]id {page.id}[/dim]")
    out.print(f"[green]{escape(page.source)}:{escape(page.path)}[/green]  {page.url or ''}")
    out.print(escape(page.content), markup=False)
    if page.truncated:
        out.print("[yellow](trimmed to --max-tokens; pass --section for one section)[/yellow]")


def render_example(bundle: ExampleBundle) -> None:
    out.print(f"[bold]example {escape(bundle.name)}[/bold]  [dim]id {bundle.id}[/dim]")
    out.print(f"[green]{escape(bundle.source)}:{escape(bundle.path)}[/green]")
    if bundle.summary:
        out.print(escape(bundle.summary))
    facts = [f"tags: {', '.join(bundle.tags)}"] if bundle.tags else []
    facts += [
        f"{k}: {v}" for k, v in (("mode", bundle.execution_mode), ("lang", bundle.language)) if v
    ]
    if facts:
        out.print("[dim]" + escape(" · ".join(facts)) + "[/dim]")
    for f in bundle.files:
        out.rule(escape(f.path) + (" (truncated)" if f.truncated else ""))
        out.print(Syntax(f.content, _lexer(f.path), line_numbers=True))
    if bundle.omitted:
        out.print(
            "[yellow]left out to fit the budget:[/yellow] " + escape(", ".join(bundle.omitted))
        )


def render_trace(trace: CallTrace) -> None:
    verb = "calls" if trace.direction == "callees" else "is called by"
    tree = Tree(f"[bold]{escape(trace.symbol)}[/bold] {verb}  [dim]id {trace.id}[/dim]")
    branches: dict[str, Tree] = {trace.symbol: tree}
    for node in trace.nodes:
        parent = branches.get(node.via, tree)
        label = (
            f"{escape(node.symbol)}  [dim]{escape(node.path)}:{node.line_start} id {node.id}[/dim]"
        )
        branches.setdefault(node.symbol, parent.add(label))
    out.print(tree)
    if trace.unresolved:
        out.print("[dim]not indexed:[/dim] " + escape(", ".join(trace.unresolved)))
    if trace.truncated:
        out.print("[yellow](more nodes left out)[/yellow]")


def render_deprecation(r: DeprecationReport) -> None:
    if not r.deprecated:
        out.print(f"[green]{escape(r.symbol)}: not deprecated[/green] (nothing recorded)")
        return
    line = f"[red]{escape(r.symbol)}: deprecated[/red]"
    line += f" since {escape(r.since)}" if r.since else ""
    line += f"; use [bold]{escape(r.replacement)}[/bold]" if r.replacement else ""
    out.print(line)
    if r.note:
        out.print(f"  {escape(r.note)}")
    if r.location:
        out.print(f"  [green]{escape(r.location)}[/green]")


def _emit(model: M, as_json: bool, render: Callable[[M], None]) -> None:
    if as_json:
        print_json(model)
    else:
        render(model)


@click.command()
@click.argument("symbol", required=False)
@click.option("--path", help="A file path (with --line).")
@click.option("--line", "line_start", type=click.IntRange(1), help="First line (with --path).")
@click.option("--end", "line_end", type=click.IntRange(1), help="Last line (with --path).")
@click.option("--intent", help="Describe the code instead of naming it.")
@click.option("--max-lines", default=100, show_default=True, type=click.IntRange(1, 2000))
@source_option
@tokens_option
@json_option
@pass_ctx
def snippet(
    ctx: Context,
    symbol: str | None,
    path: str | None,
    line_start: int | None,
    line_end: int | None,
    intent: str | None,
    max_lines: int,
    source: str | None,
    max_tokens: int,
    as_json: bool,
) -> None:
    """Exact source of SYMBOL (qualified or short), or of --path/--line, or --intent."""
    result = _call(
        ctx,
        lambda hub: code_tools.get_code_snippet(
            hub,
            symbol=symbol,
            path=path,
            line_start=line_start,
            line_end=line_end,
            intent=intent,
            source=source,
            max_lines=max_lines,
            max_tokens=max_tokens,
        ),
    )
    _emit(result, as_json, render_snippet)


@click.command()
@click.argument("chunk_id")
@click.option("--section", help="Doc pages: only sections whose heading contains this.")
@tokens_option
@json_option
@pass_ctx
def show(ctx: Context, chunk_id: str, section: str | None, max_tokens: int, as_json: bool) -> None:
    """Open any chunk id: a doc page (get_doc), an example (get_example), or code
    (get_code_snippet). A doc page path works too."""

    def work(hub: Hub) -> BaseModel:
        found = hub.store.get_chunks([chunk_id])
        if not found:  # not an id: perhaps a doc page path
            return docs_tools.get_doc(hub, path=chunk_id, section=section, max_tokens=max_tokens)
        kind = found[0].kind
        if kind == "doc":
            return docs_tools.get_doc(hub, doc_id=chunk_id, section=section, max_tokens=max_tokens)
        if kind == "example":
            return example_tools.get_example(hub, chunk_id, max_tokens=max_tokens)
        return code_tools.get_code_snippet(hub, chunk_id=chunk_id, max_tokens=max_tokens)

    result = _call(ctx, work)
    if as_json:
        print_json(result)
    elif isinstance(result, DocPage):
        render_doc(result)
    elif isinstance(result, ExampleBundle):
        render_example(result)
    elif isinstance(result, CodeSnippet):
        render_snippet(result)


@click.command()
@click.argument("symbol")
@click.option("--callers", is_flag=True, help="What calls SYMBOL (default: what it calls).")
@click.option("--depth", default=1, show_default=True, type=click.IntRange(1, 3))
@source_option
@tokens_option
@json_option
@pass_ctx
def calls(
    ctx: Context,
    symbol: str,
    callers: bool,
    depth: int,
    source: str | None,
    max_tokens: int,
    as_json: bool,
) -> None:
    """The call graph around SYMBOL, resolved to indexed definitions."""
    direction = "callers" if callers else "callees"
    result = _call(
        ctx,
        lambda hub: code_tools.trace_calls(
            hub, symbol, direction=direction, depth=depth, source=source, max_tokens=max_tokens
        ),
    )
    _emit(result, as_json, render_trace)


@click.command()
@click.argument("symbol")
@json_option
@pass_ctx
def deprecated(ctx: Context, symbol: str, as_json: bool) -> None:
    """Whether SYMBOL is deprecated, since when, and what replaces it."""
    result = _call(ctx, lambda hub: status_tools.check_deprecation(hub, symbol))
    _emit(result, as_json, render_deprecation)


def _render_search(response: SearchResponse) -> None:
    render_response(out, response)
    if response.total is not None:
        out.print(f"[dim]{response.total} match the filters[/dim]")
    if response.next_cursor:
        out.print(f"[dim]next page: --cursor {response.next_cursor}[/dim]")


@click.command("search-docs")
@click.argument("query")
@click.option("--area", help="Only pages under this path prefix.")
@source_option
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 50))
@tokens_option
@json_option
@pass_ctx
def search_docs(
    ctx: Context,
    query: str,
    area: str | None,
    source: str | None,
    limit: int,
    max_tokens: int,
    as_json: bool,
) -> None:
    """Search the documentation (the search_docs tool)."""
    result = _call(
        ctx,
        lambda hub: search_tools.search_docs(
            hub, query, area=area, source=source, limit=limit, max_tokens=max_tokens
        ),
    )
    _emit(result, as_json, _render_search)


@click.command("search-api")
@click.argument("query", default="")
@click.option("--module", help="Dotted module prefix.")
@click.option("--class", "class_name", help="Class name prefix.")
@click.option(
    "--type",
    "chunk_type",
    multiple=True,
    type=click.Choice(["module", "class", "method", "function"]),
)
@click.option("--base", "base_class", help="Classes deriving from this base.")
@click.option("--yields", help="Functions yielding this.")
@click.option("--calls", "calls_name", help="Functions calling this.")
@click.option("--dataclass/--no-dataclass", "is_dataclass", default=None)
@click.option("--cursor", help="next_cursor of the previous page.")
@source_option
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 100))
@tokens_option
@json_option
@pass_ctx
def search_api(
    ctx: Context,
    query: str,
    module: str | None,
    class_name: str | None,
    chunk_type: tuple[str, ...],
    base_class: str | None,
    yields: str | None,
    calls_name: str | None,
    is_dataclass: bool | None,
    cursor: str | None,
    source: str | None,
    limit: int,
    max_tokens: int,
    as_json: bool,
) -> None:
    """Search the Python API; structural filters list the whole filtered set (search_api)."""
    result = _call(
        ctx,
        lambda hub: search_tools.search_api(
            hub,
            query,
            module=module,
            class_name=class_name,
            chunk_type=list(chunk_type) or None,
            base_class=base_class,
            yields=yields,
            calls=calls_name,
            is_dataclass=is_dataclass,
            source=source,
            limit=limit,
            cursor=cursor,
            max_tokens=max_tokens,
        ),
    )
    _emit(result, as_json, _render_search)


@click.command("search-examples")
@click.argument("query")
@click.option("--tag", "tags", multiple=True, help="Capability tag (repeatable; all must match).")
@click.option("--mode", "execution_mode", help="Execution mode: local, cloud, ...")
@click.option("--language", help="Programming language.")
@source_option
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 50))
@tokens_option
@json_option
@pass_ctx
def search_examples(
    ctx: Context,
    query: str,
    tags: tuple[str, ...],
    execution_mode: str | None,
    language: str | None,
    source: str | None,
    limit: int,
    max_tokens: int,
    as_json: bool,
) -> None:
    """Search runnable examples (the search_examples tool)."""
    result = _call(
        ctx,
        lambda hub: search_tools.search_examples(
            hub,
            query,
            tags=list(tags) or None,
            execution_mode=execution_mode,
            language=language,
            source=source,
            limit=limit,
            max_tokens=max_tokens,
        ),
    )
    _emit(result, as_json, _render_search)


COMMANDS = [snippet, show, calls, deprecated, search_docs, search_api, search_examples]
