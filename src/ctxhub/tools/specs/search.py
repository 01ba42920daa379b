"""The search tools: search, search_docs, search_api, search_examples."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ctxhub.core import limits
from ctxhub.core.calls import CallsVia
from ctxhub.core.knowledge import SearchResponse
from ctxhub.tools.params import (
    ApiChunkType,
    Cursor,
    Hits,
    KnowledgeKind,
    MaxTokens,
    Name,
    Query,
    Sources,
    Tags,
)
from ctxhub.tools.spec import CliSpec, ToolSpec
from ctxhub.tools.specs.base import ToolArgs

RENDER = "ctxhub.tools.render:search_response"
FUNCTIONS = "ctxhub.tools.search_tools"


class SearchArgs(ToolArgs):
    query: Query
    kinds: Annotated[
        KnowledgeKind | list[KnowledgeKind] | None,
        Field(description="Only these kinds of hits (one or a list); default all"),
    ] = None
    source: Sources = None
    limit: Hits = limits.DEFAULT_HITS
    max_tokens: MaxTokens = limits.DEFAULT_TOKENS


class SearchDocsArgs(ToolArgs):
    query: Query
    area: Annotated[
        str | None,
        Field(
            max_length=limits.MAX_PATH,
            description="Only pages under this path prefix, e.g. 'guides/' or 'server'",
        ),
    ] = None
    source: Sources = None
    limit: Hits = limits.DEFAULT_HITS
    max_tokens: MaxTokens = limits.DEFAULT_TOKENS


class SearchApiArgs(ToolArgs):
    query: Annotated[
        str,
        Field(
            max_length=limits.MAX_QUERY,
            description="What the code should do or be called; may be empty when a "
            "structural filter is given",
        ),
    ] = ""
    module: Annotated[Name, Field(description="Dotted module prefix, e.g. 'mypkg.storage'")] = None
    class_name: Annotated[
        Name, Field(description="Class name prefix; methods of matching classes")
    ] = None
    chunk_type: Annotated[
        ApiChunkType | list[ApiChunkType] | None,
        Field(description="Only these definition types (one or a list)"),
    ] = None
    base_class: Annotated[
        Name,
        Field(
            description="Classes deriving directly from this base, by its name "
            "(a dotted name is read by its last part: 'httpx.TimeoutException')"
        ),
    ] = None
    yields: Annotated[
        Name, Field(description="Functions that yield this name (e.g. an event or message class)")
    ] = None
    calls: Annotated[
        Name,
        Field(
            description="Functions that call this name: on self, through super() or a "
            "typed attribute (hits say `match_via`), or as a function. A bare name "
            "('atomic') matches every call of it; a qualified or Class.method name "
            "('pkg.db.Database.atomic', 'Database.atomic') only calls that resolve to that "
            "definition, plus those whose receiver's class is unknown (hits say "
            "`call_unresolved`)"
        ),
    ] = None
    calls_via: Annotated[
        CallsVia,
        Field(
            description="Which calls `calls` counts: 'any'; 'self' (self.x() / cls.x() "
            "only); 'super' (super().x() only); 'attribute' (self.attr.x() with the "
            "attribute's class known); 'local' (x.m() on a local or parameter whose "
            "class the function states)"
        ),
    ] = "any"
    is_dataclass: Annotated[
        bool | None, Field(description="Only dataclasses (true) or only non-dataclasses")
    ] = None
    source: Sources = None
    limit: Annotated[
        int,
        Field(
            ge=1,
            le=limits.MAX_API_PAGE,
            description=f"Hits per page (1-{limits.MAX_API_PAGE})",
        ),
    ] = limits.DEFAULT_HITS
    cursor: Cursor = None
    max_tokens: MaxTokens = limits.DEFAULT_TOKENS


class SearchExamplesArgs(ToolArgs):
    query: Query
    tags: Annotated[
        Tags,
        Field(
            description="Capability tags every hit must have (parts of the framework modules the "
            "example imports), e.g. ['websocket']"
        ),
    ] = None
    execution_mode: Annotated[
        Name, Field(description="How the example runs: 'local', 'cloud', ...")
    ] = None
    language: Annotated[Name, Field(description="Programming language, e.g. 'python'")] = None
    source: Sources = None
    limit: Hits = limits.DEFAULT_HITS
    max_tokens: MaxTokens = limits.DEFAULT_TOKENS


SEARCH = ToolSpec(
    title="Search everything",
    name="search",
    description="""Search everything indexed (docs, API source, examples) with one hybrid
retriever (BM25 + embeddings + exact symbol match). Start here when unsure which kind of
knowledge answers the question. Hits carry id, kind, source:path:lines, symbol, url,
version, score and a snippet; open one with get_doc / get_code_snippet / get_example.""",
    args=SearchArgs,
    output=SearchResponse,
    function=f"{FUNCTIONS}:search",
    render=RENDER,
    fits_hits=True,
    cli=CliSpec("search", positional=("query",), aliases={"kinds": ("--kind",)}),
)

SEARCH_DOCS = ToolSpec(
    title="Search the docs",
    name="search_docs",
    description="""Search the documentation only. `area` narrows to a path prefix of the
docs tree (e.g. "guides/"). Open a hit's whole page (or one section) with
get_doc(doc_id=hit.id).""",
    args=SearchDocsArgs,
    output=SearchResponse,
    function=f"{FUNCTIONS}:search_docs",
    render=RENDER,
    fits_hits=True,
    cli=CliSpec("search-docs", positional=("query",)),
)

SEARCH_API = ToolSpec(
    title="Search the Python API",
    name="search_api",
    description="""Search the Python API: modules, classes, methods and functions, with
signature, bases, calls, yields and imports in each hit's metadata. Structural filters
(module, class_name, chunk_type, base_class, yields, calls, is_dataclass) list the
complete filtered set, ranked by `query` when given, `limit` per page: pass `next_cursor`
back as `cursor` for the next page. `calls` counts super().x() overrides and calls on
typed attributes and locals too (`calls_via` narrows). Then read code with
get_code_snippet.""",
    args=SearchApiArgs,
    output=SearchResponse,
    function=f"{FUNCTIONS}:search_api",
    render=RENDER,
    fits_hits=True,
    cli=CliSpec(
        "search-api",
        positional=("query",),
        aliases={"class_name": ("--class",), "base_class": ("--base",), "chunk_type": ("--type",)},
    ),
)

SEARCH_EXAMPLES = ToolSpec(
    title="Search examples",
    name="search_examples",
    description="""Search runnable examples (and docs pages that are worked examples).
Filter by capability `tags` (all must match), `execution_mode` (local, cloud, ...) or
`language`. Open a whole example, every file, with get_example(example_id=hit.id).""",
    args=SearchExamplesArgs,
    output=SearchResponse,
    function=f"{FUNCTIONS}:search_examples",
    render=RENDER,
    fits_hits=True,
    cli=CliSpec(
        "search-examples",
        positional=("query",),
        aliases={"tags": ("--tag",), "execution_mode": ("--mode",)},
    ),
)

SPECS = (SEARCH, SEARCH_DOCS, SEARCH_API, SEARCH_EXAMPLES)
