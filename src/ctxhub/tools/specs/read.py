"""The drill-down tools: get_doc, get_code_snippet, trace_calls, get_example,
check_deprecation, get_hub_status."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from ctxhub.core import limits
from ctxhub.core.outputs import (
    CallTrace,
    CodeSnippet,
    DeprecationReport,
    DocPage,
    ExampleBundle,
    HubStatus,
)
from ctxhub.tools.params import ChunkId, Direction, Line, MaxTokens, Name, OneSource, Symbol
from ctxhub.tools.spec import CliSpec, ToolSpec
from ctxhub.tools.specs.base import ToolArgs

RENDER = "ctxhub.tools.render"


class GetDocArgs(ToolArgs):
    doc_id: Annotated[
        str | None, Field(max_length=limits.MAX_ID, description="Id of any chunk of the page")
    ] = None
    path: Annotated[
        str | None,
        Field(
            max_length=limits.MAX_PATH,
            description="Page path, e.g. 'guides/quickstart', 'a/b.mdx' or 'hashing/' (its index)",
        ),
    ] = None
    section: Annotated[
        Name, Field(description="Only sections whose heading breadcrumb contains this text")
    ] = None
    source: OneSource = None
    max_tokens: MaxTokens = limits.DEFAULT_TOKENS


class GetCodeSnippetArgs(ToolArgs):
    symbol: Annotated[
        str | None, Field(max_length=limits.MAX_NAME, description="Qualified or short name")
    ] = None
    chunk_id: Annotated[
        str | None,
        Field(max_length=limits.MAX_ID, description="Id of a hit or of a companion to open"),
    ] = None
    path: Annotated[
        str | None,
        Field(
            max_length=limits.MAX_PATH,
            description="File path as in hits (relative to its source)",
        ),
    ] = None
    line_start: Annotated[Line, Field(description="First line, with path (1-based)")] = None
    line_end: Annotated[
        Line,
        Field(
            description="Last line, with path; default: end of the definition containing line_start"
        ),
    ] = None
    intent: Annotated[
        str | None, Field(max_length=limits.MAX_QUERY, description="What the code does, in words")
    ] = None
    source: OneSource = None
    max_lines: Annotated[
        int | None,
        Field(
            ge=1,
            le=limits.MAX_LINES,
            description=f"Most lines to return; default {limits.DEFAULT_LINES}, or as many as"
            f" max_tokens holds when max_tokens is raised above {limits.DEFAULT_TOKENS}",
        ),
    ] = None
    max_tokens: MaxTokens = limits.DEFAULT_TOKENS


class TraceCallsArgs(ToolArgs):
    symbol: Symbol
    direction: Annotated[
        Direction, Field(description="'callees': what it calls; 'callers': what calls it")
    ] = "callees"
    depth: Annotated[int, Field(ge=1, le=3, description="Levels to follow (1-3)")] = 1
    source: OneSource = None
    max_tokens: MaxTokens = limits.DEFAULT_TOKENS


class GetExampleArgs(ToolArgs):
    example_id: ChunkId
    include_readme: Annotated[bool, Field(description="Include the example's README files")] = True
    max_tokens: MaxTokens = limits.DEFAULT_TOKENS


class SymbolArgs(ToolArgs):
    symbol: Symbol


class CheckDeprecationArgs(ToolArgs):
    symbol: Symbol
    source: OneSource = None


class NoArgs(ToolArgs):
    pass


GET_DOC = ToolSpec(
    title="Read a doc page",
    name="get_doc",
    description="""A documentation page, whole or one section, with title, url, version and the
list of its sections. Give `doc_id` (any doc hit's id) or `path` (as in a hit, with or
without extension).""",
    args=GetDocArgs,
    output=DocPage,
    function="ctxhub.tools.docs_tools:get_doc",
    render=f"{RENDER}:doc_page",
    cli=CliSpec("doc", positional=("path",)),
)

GET_CODE_SNIPPET = ToolSpec(
    title="Read source code",
    name="get_code_snippet",
    description="""Exact source of a definition. Give `symbol` (qualified or short:
'pkg.mod.Class.method', 'Class.method', 'Class' or 'method'; resolved exact -> Class.method
-> class -> method -> semantic), `chunk_id` (a hit's or companion's id), `path` +
`line_start` [+ `line_end`], or `intent` (what the code does). States the full line range
and whether it was truncated; `companions` are the indexed functions it calls, with ids.
Answers with the code that runs, not a `.pyi` stub (`stubs`: its typed signatures).""",
    args=GetCodeSnippetArgs,
    output=CodeSnippet,
    function="ctxhub.tools.code_tools:get_code_snippet",
    render=f"{RENDER}:code_snippet",
    cli=CliSpec(
        "snippet",
        positional=("symbol",),
        aliases={"line_start": ("--line",), "line_end": ("--end",)},
    ),
)

TRACE_CALLS = ToolSpec(
    title="Trace calls",
    name="trace_calls",
    description="""The call graph around a function or method: what it calls (`callees`) or
what calls it (`callers`), up to `depth` levels, each node resolved to an indexed
definition with id and location; calls to code outside the index are listed as not
indexed.""",
    args=TraceCallsArgs,
    output=CallTrace,
    function="ctxhub.tools.trace_tools:trace_calls",
    render=f"{RENDER}:call_trace",
    cli=CliSpec("calls", positional=("symbol",), flags={"direction": {"--callers": "callers"}}),
)

GET_EXAMPLE = ToolSpec(
    title="Open an example",
    name="get_example",
    description=(
        "A whole example: its taxonomy (tags, execution mode, entry point, key files) and "
        "every file's path and content, entry point first, within max_tokens; files that "
        "did not fit are listed in `omitted`. `example_id` is the id of any hit "
        "search_examples returned: a doc page that is a worked example comes back as one "
        "file, the page."
    ),
    args=GetExampleArgs,
    output=ExampleBundle,
    function="ctxhub.tools.example_tools:get_example",
    render=f"{RENDER}:example_bundle",
    cli=CliSpec("example", positional=("example_id",)),
)


def _unknown_symbol(report: BaseModel) -> bool:
    """check_deprecation's `unknown symbol`: nothing indexed defines or mentions it."""
    return isinstance(report, DeprecationReport) and report.unknown


CHECK_DEPRECATION = ToolSpec(
    title="Check for deprecation",
    name="check_deprecation",
    description="""Whether a symbol (qualified or short name) is deprecated in the
version the project runs (the installed one, else the indexed one): since when, the
replacement to use, and where it is stated (code warning, decorator, docstring, alias or
changelog); what a newer release states is told apart. `source` limits it to one indexed source
(the same name can be deprecated in one framework and current in another).""",
    args=CheckDeprecationArgs,
    output=DeprecationReport,
    function="ctxhub.tools.deprecation_tools:check_deprecation",
    render="ctxhub.tools.render_deprecation:deprecation_report",
    cli=CliSpec("deprecated", positional=("symbol",), not_found=_unknown_symbol),
)

GET_HUB_STATUS = ToolSpec(
    title="Index status",
    name="get_hub_status",
    description="""What the index holds: each source with its kinds, version, chunk
counts, refresh age and errors; the embedding model; the store. Use it to learn source
names for the `source` filters or to check that an index is current.""",
    args=NoArgs,
    output=HubStatus,
    function="ctxhub.tools.hub_status:get_hub_status",
    render="ctxhub.tools.render_status:hub_status",
)

SPECS = (GET_DOC, GET_CODE_SNIPPET, TRACE_CALLS, GET_EXAMPLE, CHECK_DEPRECATION, GET_HUB_STATUS)
