"""The drill-down tools: get_doc, get_code_snippet, trace_calls, get_example,
check_deprecation, get_hub_status."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult
from pydantic import Field

from ctxhub.core.outputs import (
    CallTrace,
    CodeSnippet,
    DeprecationReport,
    DocPage,
    ExampleBundle,
    HubStatus,
)
from ctxhub.server import render
from ctxhub.server.runtime import DEFAULT_TOKENS, ToolRunner
from ctxhub.server.schema import READ_ONLY, ChunkId, Direction, Line, MaxTokens, Name
from ctxhub.session import Hub
from ctxhub.tools import code_tools, docs_tools, example_tools, status_tools

GET_DOC = """A documentation page, whole or one section, with title, url, version and the
list of its sections. Give `doc_id` (any doc hit's id) or `path` (as in a hit, with or
without extension)."""

GET_CODE_SNIPPET = """Exact source of a definition. Give `symbol` (qualified or short:
'pkg.mod.Class.method', 'Class.method', 'Class' or 'method'; resolved exact -> Class.method
-> class -> method -> semantic), `chunk_id` (a hit's or companion's id), `path` +
`line_start` [+ `line_end`], or `intent` (what the code does). States the full line range
and whether it was truncated; `companions` are the indexed functions it calls, with ids."""

TRACE_CALLS = """The call graph around a function or method: what it calls (`callees`) or
what calls it (`callers`), up to `depth` levels, each node resolved to an indexed
definition with id and location; calls to code outside the index are listed as not
indexed."""

GET_EXAMPLE = """A whole example: its taxonomy (tags, execution mode, entry point, key
files) and every file's path and content, entry point first, within max_tokens; files that
did not fit are listed in `omitted`. `example_id` is the id of any example hit."""

CHECK_DEPRECATION = """Whether a symbol (qualified or short name) is deprecated in the
indexed version: since when, the replacement to use, and where it is stated (code warning,
decorator, docstring, alias or changelog)."""

GET_HUB_STATUS = """What the index holds: each source with its kinds, version, chunk
counts, refresh age and errors; the embedding model; the store. Use it to learn source
names for the `source` filters or to check that an index is current."""

Symbol = Annotated[
    str,
    Field(
        min_length=1,
        max_length=500,
        description="Qualified or short name: 'pkg.mod.Class.method', 'Class.method', 'method'",
    ),
]
OneSource = Annotated[str | None, Field(max_length=200, description="Only look in this source")]


def register(server: MCPServer[Any], runner: ToolRunner) -> None:
    @server.tool(name="get_doc", description=GET_DOC, annotations=READ_ONLY)
    async def get_doc(
        doc_id: Annotated[
            str | None, Field(max_length=200, description="Id of any chunk of the page")
        ] = None,
        path: Annotated[
            str | None,
            Field(max_length=1000, description="Page path, e.g. 'guides/quickstart' or 'a/b.mdx'"),
        ] = None,
        section: Annotated[
            Name, Field(description="Only sections whose heading breadcrumb contains this text")
        ] = None,
        source: OneSource = None,
        max_tokens: MaxTokens = DEFAULT_TOKENS,
    ) -> Annotated[CallToolResult, DocPage]:
        def work(hub: Hub) -> DocPage:
            return docs_tools.get_doc(
                hub,
                doc_id=doc_id,
                path=path,
                section=section,
                source=source,
                max_tokens=max_tokens,
            )

        return await runner.run("get_doc", work, render.doc_page, max_tokens)

    @server.tool(name="get_code_snippet", description=GET_CODE_SNIPPET, annotations=READ_ONLY)
    async def get_code_snippet(
        symbol: Annotated[
            str | None, Field(max_length=500, description="Qualified or short symbol name")
        ] = None,
        chunk_id: Annotated[
            str | None, Field(max_length=200, description="Id of a hit or of a companion to open")
        ] = None,
        path: Annotated[
            str | None,
            Field(max_length=1000, description="File path as in hits (relative to its source)"),
        ] = None,
        line_start: Annotated[Line, Field(description="First line, with path (1-based)")] = None,
        line_end: Annotated[
            Line,
            Field(
                description="Last line, with path; default: end of the "
                "definition containing line_start"
            ),
        ] = None,
        intent: Annotated[
            str | None, Field(max_length=2000, description="What the code does, in words")
        ] = None,
        source: OneSource = None,
        max_lines: Annotated[
            int, Field(ge=1, le=code_tools.MAX_LINES_CAP, description="Most lines to return")
        ] = 100,
        max_tokens: MaxTokens = DEFAULT_TOKENS,
    ) -> Annotated[CallToolResult, CodeSnippet]:
        def work(hub: Hub) -> CodeSnippet:
            return code_tools.get_code_snippet(
                hub,
                symbol=symbol,
                path=path,
                line_start=line_start,
                line_end=line_end,
                intent=intent,
                source=source,
                max_lines=max_lines,
                chunk_id=chunk_id,
                max_tokens=max_tokens,
            )

        return await runner.run("get_code_snippet", work, render.code_snippet, max_tokens)

    @server.tool(name="trace_calls", description=TRACE_CALLS, annotations=READ_ONLY)
    async def trace_calls(
        symbol: Symbol,
        direction: Annotated[
            Direction, Field(description="'callees': what it calls; 'callers': what calls it")
        ] = "callees",
        depth: Annotated[int, Field(ge=1, le=3, description="Levels to follow (1-3)")] = 1,
        source: OneSource = None,
        max_tokens: MaxTokens = DEFAULT_TOKENS,
    ) -> Annotated[CallToolResult, CallTrace]:
        def work(hub: Hub) -> CallTrace:
            return code_tools.trace_calls(
                hub,
                symbol,
                direction=direction,
                depth=depth,
                source=source,
                max_tokens=max_tokens,
            )

        return await runner.run("trace_calls", work, render.call_trace, max_tokens)

    @server.tool(name="get_example", description=GET_EXAMPLE, annotations=READ_ONLY)
    async def get_example(
        example_id: ChunkId,
        include_readme: Annotated[
            bool, Field(description="Include the example's README files")
        ] = True,
        max_tokens: MaxTokens = DEFAULT_TOKENS,
    ) -> Annotated[CallToolResult, ExampleBundle]:
        def work(hub: Hub) -> ExampleBundle:
            return example_tools.get_example(
                hub, example_id, include_readme=include_readme, max_tokens=max_tokens
            )

        return await runner.run("get_example", work, render.example_bundle, max_tokens)

    @server.tool(name="check_deprecation", description=CHECK_DEPRECATION, annotations=READ_ONLY)
    async def check_deprecation(symbol: Symbol) -> Annotated[CallToolResult, DeprecationReport]:
        def work(hub: Hub) -> DeprecationReport:
            return status_tools.check_deprecation(hub, symbol)

        return await runner.run("check_deprecation", work, render.deprecation_report)

    @server.tool(name="get_hub_status", description=GET_HUB_STATUS, annotations=READ_ONLY)
    async def get_hub_status() -> Annotated[CallToolResult, HubStatus]:
        return await runner.run("get_hub_status", status_tools.get_hub_status, render.hub_status)
