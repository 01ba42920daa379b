"""The search tools: search, search_docs, search_api, search_examples."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult
from pydantic import Field

from ctxhub.core.knowledge import SearchResponse
from ctxhub.server import render
from ctxhub.server.runtime import DEFAULT_TOKENS, ToolRunner, fit_search
from ctxhub.server.schema import (
    READ_ONLY,
    ApiChunkType,
    KnowledgeKind,
    Limit,
    MaxTokens,
    Name,
    Query,
    Source,
)
from ctxhub.session import Hub
from ctxhub.tools import search_tools

SearchResult = Annotated[CallToolResult, SearchResponse]

SEARCH = """Search everything indexed (docs, API source, examples) with one hybrid
retriever (BM25 + embeddings + exact symbol match). Start here when unsure which kind of
knowledge answers the question. Hits carry id, kind, source:path:lines, symbol, url,
version, score and a snippet; open one with get_doc / get_code_snippet / get_example."""

SEARCH_DOCS = """Search the documentation only. `area` narrows to a path prefix of the
docs tree (e.g. "server/services"). Open a hit's whole page (or one section) with
get_doc(doc_id=hit.id)."""

SEARCH_API = """Search the Python API: modules, classes, methods and functions, with
signature, bases, calls, yields and imports in each hit's metadata. Structural filters
(module, class_name, chunk_type, base_class, yields, calls, is_dataclass) list the
complete filtered set, ranked by `query` when given, `limit` per page: pass `next_cursor`
back as `cursor` for the next page. Then read code with get_code_snippet."""

SEARCH_EXAMPLES = """Search runnable examples (and docs pages that are worked examples).
Filter by capability `tags` (all must match), `execution_mode` (local, cloud, ...) or
`language`. Open a whole example, every file, with get_example(example_id=hit.id)."""


def register(server: MCPServer[Any], runner: ToolRunner) -> None:
    @server.tool(name="search", description=SEARCH, annotations=READ_ONLY)
    async def search(
        query: Query,
        kinds: Annotated[
            list[KnowledgeKind] | None,
            Field(description="Only these kinds of hits; default all"),
        ] = None,
        source: Source = None,
        limit: Limit = 10,
        max_tokens: MaxTokens = DEFAULT_TOKENS,
    ) -> SearchResult:
        def work(hub: Hub) -> SearchResponse:
            return fit_search(
                lambda n: search_tools.search(
                    hub,
                    query,
                    kinds=list(kinds) if kinds else None,
                    source=source,
                    limit=n,
                    max_tokens=max_tokens,
                ),
                limit,
                max_tokens,
            )

        return await runner.run("search", work, render.search_response, max_tokens)

    @server.tool(name="search_docs", description=SEARCH_DOCS, annotations=READ_ONLY)
    async def search_docs(
        query: Query,
        area: Annotated[
            str | None,
            Field(
                max_length=1000,
                description="Only pages under this path prefix, e.g. 'guides/' or 'server'",
            ),
        ] = None,
        source: Source = None,
        limit: Limit = 10,
        max_tokens: MaxTokens = DEFAULT_TOKENS,
    ) -> SearchResult:
        def work(hub: Hub) -> SearchResponse:
            return fit_search(
                lambda n: search_tools.search_docs(
                    hub, query, area=area, source=source, limit=n, max_tokens=max_tokens
                ),
                limit,
                max_tokens,
            )

        return await runner.run("search_docs", work, render.search_response, max_tokens)

    @server.tool(name="search_api", description=SEARCH_API, annotations=READ_ONLY)
    async def search_api(
        query: Annotated[
            str,
            Field(
                max_length=2000,
                description="What the code should do or be called; may be empty when a "
                "structural filter is given",
            ),
        ] = "",
        module: Annotated[
            Name, Field(description="Dotted module prefix, e.g. 'pkg.services'")
        ] = None,
        class_name: Annotated[
            Name, Field(description="Class name prefix; methods of matching classes")
        ] = None,
        chunk_type: Annotated[
            list[ApiChunkType] | None, Field(description="Only these definition types")
        ] = None,
        base_class: Annotated[
            Name, Field(description="Classes deriving directly from this base (last dotted part)")
        ] = None,
        yields: Annotated[
            Name, Field(description="Functions that yield this (e.g. a frame class)")
        ] = None,
        calls: Annotated[
            Name, Field(description="Functions that call this name (last dotted part)")
        ] = None,
        is_dataclass: Annotated[
            bool | None, Field(description="Only dataclasses (true) or only non-dataclasses")
        ] = None,
        source: Source = None,
        limit: Annotated[int, Field(ge=1, le=100, description="Hits per page (1-100)")] = 10,
        cursor: Annotated[
            str | None,
            Field(
                max_length=200,
                description="next_cursor of the previous page, with the same query and filters",
            ),
        ] = None,
        max_tokens: MaxTokens = DEFAULT_TOKENS,
    ) -> SearchResult:
        def work(hub: Hub) -> SearchResponse:
            return fit_search(
                lambda n: search_tools.search_api(
                    hub,
                    query,
                    module=module,
                    class_name=class_name,
                    chunk_type=list(chunk_type) if chunk_type else None,
                    base_class=base_class,
                    yields=yields,
                    calls=calls,
                    is_dataclass=is_dataclass,
                    source=source,
                    limit=n,
                    cursor=cursor,
                    max_tokens=max_tokens,
                ),
                limit,
                max_tokens,
            )

        return await runner.run("search_api", work, render.search_response, max_tokens)

    @server.tool(name="search_examples", description=SEARCH_EXAMPLES, annotations=READ_ONLY)
    async def search_examples(
        query: Query,
        tags: Annotated[
            list[Annotated[str, Field(max_length=100)]] | None,
            Field(
                max_length=50,
                description="Capability tags every hit must have, e.g. ['tts', 'phone']",
            ),
        ] = None,
        execution_mode: Annotated[
            Name, Field(description="How the example runs: 'local', 'cloud', ...")
        ] = None,
        language: Annotated[Name, Field(description="Programming language, e.g. 'python'")] = None,
        source: Source = None,
        limit: Limit = 10,
        max_tokens: MaxTokens = DEFAULT_TOKENS,
    ) -> SearchResult:
        def work(hub: Hub) -> SearchResponse:
            return fit_search(
                lambda n: search_tools.search_examples(
                    hub,
                    query,
                    tags=tags,
                    execution_mode=execution_mode,
                    language=language,
                    source=source,
                    limit=n,
                    max_tokens=max_tokens,
                ),
                limit,
                max_tokens,
            )

        return await runner.run("search_examples", work, render.search_response, max_tokens)
