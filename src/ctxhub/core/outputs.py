"""Structured outputs of the knowledge tools (each becomes an MCP output schema)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from ctxhub.core.knowledge import Deprecation, Hit


class DocPage(BaseModel):
    """A documentation page (or one of its sections), rebuilt from its chunks."""

    id: str = Field(description="Id of the page's first chunk; any chunk id of the page opens it")
    source: str
    path: str = Field(description="Page path relative to the docs source root")
    title: str
    url: str | None = None
    version: str | None = None
    sections: list[str] = Field(
        default_factory=list,
        description="The page's heading breadcrumbs, in order (the first ones when "
        "sections_left_out says the rest did not fit beside the content)",
    )
    sections_left_out: int = Field(
        default=0, description="Headings not listed in sections, to fit max_tokens"
    )
    section: str | None = Field(
        default=None,
        description="The section returned: the one asked for, or the hit's when a page "
        "opened by doc_id is too long to fit",
    )
    content: str
    truncated: bool = Field(default=False, description="Content was cut to fit max_tokens")
    other_sources: list[str] = Field(
        default_factory=list,
        description="Other sources with a page of this path (a lookup by path; another "
        "indexed version or package): the source whose version is installed answers; "
        "pass source=NAME for another",
    )
    included: str | None = Field(
        default=None,
        description="The file asked for, which this page includes (`HISTORY.md` shown "
        "through `docs/history.md`): its text is part of this page",
    )


class Companion(BaseModel):
    """An indexed function the snippet calls, resolved to its chunk."""

    name: str = Field(description="The called name as the code writes it")
    symbol: str
    id: str = Field(description="Chunk id: pass to get_code_snippet(chunk_id=...)")
    path: str
    line_start: int | None = None
    through: str | None = Field(
        default=None,
        description="The call's receiver when it is not the function's own: 'super()' "
        "(the base's method), or 'self.<attr>' (an attribute whose class the class states)",
    )


class TypedStub(BaseModel):
    """A type stub of the snippet's definition (a `.pyi` definition or an `@overload`)."""

    symbol: str
    id: str = Field(description="Chunk id: pass to get_code_snippet(chunk_id=...)")
    path: str
    line_start: int | None = None
    signature: str | None = Field(default=None, description="The stub's typed signature")


class CallCopy(BaseModel):
    """The same definition as a call node's, in the same version of its package, held by
    another source (the installed wheel beside the release's sdist)."""

    source: str
    version: str | None = None
    id: str


class CodeSnippet(BaseModel):
    """Source of one definition (or a line range of a file)."""

    id: str
    source: str
    path: str
    symbol: str | None = None
    kind: str
    resolution: str = Field(
        description="How it was found: id | exact | constant | re-export | ambiguous "
        "re-export | class.method | partial path | inherited | class | function | method | "
        "alias | instance | path | semantic"
    )
    line_start: int = Field(description="First line returned")
    line_end: int = Field(description="Last line returned")
    full_line_start: int = Field(description="First line of the whole definition")
    full_line_end: int = Field(description="Last line of the whole definition")
    truncated: bool = Field(description="Fewer lines than the definition has (max_lines or budget)")
    code: str
    signature: str | None = None
    public_path: str | None = Field(
        default=None,
        description="The shortest public dotted name of this definition when it is defined "
        "under another (anyio.fail_after for anyio._core._tasks.fail_after): import it so",
    )
    version: str | None = None
    alias: str | None = Field(
        default=None,
        description="The name asked for stands for this definition: its assignment, as "
        "'path:line: frozen = partial(define, frozen=True)' (a partial's arguments are set)",
    )
    metadata: dict[str, Any] = Field(default_factory=dict)
    companions: list[Companion] = Field(
        default_factory=list, description="Indexed functions this code calls"
    )
    alternatives: list[str] = Field(
        default_factory=list,
        description="Other symbols that matched the name; 'SYMBOL (source NAME)' is the "
        "same symbol in another source (another indexed version): pass source=NAME",
    )
    also_in: list[CallCopy] = Field(
        default_factory=list,
        description="The same definition (same known version, same text) in other "
        "sources (the wheel and the sdist): this answer, listed once",
    )
    other_sources: list[str] = Field(
        default_factory=list,
        description="Other sources that hold the same path (a path lookup; another indexed "
        "version or package): the source whose version is installed answers; pass "
        "source=NAME for another",
    )
    stubs: list[TypedStub] = Field(
        default_factory=list,
        description="Type stubs of this definition (.pyi, @overload): its typed signatures; "
        "the code shown is the definition that runs",
    )
    typing_stub: bool = Field(
        default=False,
        description="The code shown is a declaration for type checkers only (a def under "
        "`if TYPE_CHECKING:`, body `...`): it never runs",
    )
    implementations: list[TypedStub] = Field(
        default_factory=list,
        description="For a typing stub: the definitions registered under its name by a "
        "decorator call (`@Operations.register_operation('add_column')`): the code that runs",
    )
    source_notes: list[str] = Field(
        default_factory=list,
        description="The source's installed version changed since it was indexed: this code "
        "is the indexed version's (run `ctxhub refresh NAME`)",
    )


class CallNode(BaseModel):
    symbol: str
    id: str
    path: str
    line_start: int | None = None
    depth: int = Field(description="1 = called directly by (or calling) the root")
    via: str = Field(description="The caller (callees) or callee (callers) it was reached from")
    name: str = Field(description="The called name as the code writes it")
    through: str | None = Field(
        default=None,
        description="The call's receiver when it is not the function's own: 'super()' "
        "(the base's method), or 'self.<attr>' (an attribute whose class the class states)",
    )
    nested: str | None = Field(
        default=None,
        description="The nested def of the calling function the call is made in "
        "(`do_it` inside `define`): its calls count as the enclosing function's",
    )
    call_line: int | None = Field(
        default=None,
        description="Callers: the line of the call itself in the caller's file "
        "(line_start is the caller's def), when the index recorded it",
    )
    also_in: list[CallCopy] = Field(
        default_factory=list,
        description="The same definition (same known version, same text) from other "
        "sources: listed once, here",
    )


class CallTrace(BaseModel):
    """The call graph around one function, resolved to indexed definitions."""

    symbol: str
    id: str
    path: str = ""
    line_start: int | None = None
    direction: str
    depth: int
    nodes: list[CallNode]
    unresolved: list[str] = Field(
        default_factory=list,
        description="Callees (depth 1) whose name an indexed definition has, but the graph "
        "could not place the call (its receiver's class is not known there)",
    )
    not_indexed: list[str] = Field(
        default_factory=list,
        description="Callees (depth 1) whose name nothing indexed defines",
    )
    untyped_calls: list[str] = Field(
        default_factory=list,
        description="Callees: calls on objects of unknown type (`handler.emit`, the "
        "handler an untyped local), as written: the graph does not trace them",
    )
    untyped_calls_count: int = Field(
        default=0, description="How many such calls (the list may stop short)"
    )
    truncated: bool = Field(default=False, description="Nodes were left out (cap or max_tokens)")
    other_sources: list[str] = Field(
        default_factory=list,
        description="Other sources that define the root's symbol too (another indexed "
        "version): pass source=NAME to trace there",
    )
    also_in: list[CallCopy] = Field(
        default_factory=list,
        description="The root's same definition (same known version, same text) in other "
        "sources: the same graph, listed once",
    )
    untyped_callers: bool = Field(
        default=False,
        description="Callers of a method: calls on objects of unknown type (`obj.name()`) "
        "are not traced, so more callers may exist than are listed",
    )
    alternatives: list[str] = Field(
        default_factory=list,
        description="The name asked is ambiguous: the other definitions it names "
        "(qualified), to pass as symbol to trace one of them",
    )
    chosen_because: str | None = Field(
        default=None,
        description="Why the traced definition was chosen among several of the name "
        "(public, not deprecated, shortest public path, documented)",
    )
    alias: str | None = Field(
        default=None,
        description="The name asked is an alias (`name = Definition`): its qualified "
        "name; the trace is the definition's, and callers through the alias count too",
    )
    source_notes: list[str] = Field(
        default_factory=list,
        description="The traced sources whose installed version changed since they were "
        "indexed: the graph is the indexed version's (run `ctxhub refresh NAME`)",
    )


class ExampleFile(BaseModel):
    path: str
    content: str
    truncated: bool = False


class ExampleBundle(BaseModel):
    """A whole example: its taxonomy and its files, within the token budget."""

    id: str
    source: str
    name: str
    path: str
    summary: str | None = None
    tags: list[str] = Field(default_factory=list)
    language: str | None = None
    execution_mode: str | None = None
    taxonomy: dict[str, Any] = Field(default_factory=dict)
    files: list[ExampleFile]
    omitted: list[str] = Field(default_factory=list, description="Files left out to fit max_tokens")


class RunningVersion(BaseModel):
    """The release a deprecation answer holds for: the installed copy of the package,
    else the one indexed version of it (tools/deprecation_versions.py)."""

    source: str
    #: the distribution's name for an installed `pypi:` source, else the source's name
    package: str
    version: str
    #: the version installed in the project (not only one indexed beside it)
    installed: bool = False
    #: the version indexed, when the one installed changed since (a refresh is due):
    #: `version` is the installed one
    indexed: str | None = None


class DeprecationReport(BaseModel):
    """Whether a symbol is deprecated, since when, and what replaces it."""

    symbol: str
    #: None: the short name is ambiguous and the verdict depends on which definition is
    #: meant (`candidates` gives each one's)
    deprecated: bool | None
    replacement: str | None = None
    #: the replacement is itself deprecated (a legacy module pointing to another one)
    replacement_deprecated: bool = False
    since: str | None = None
    note: str | None = None
    location: str | None = Field(default=None, description="source:path:line of the deprecation")
    entries: list[Deprecation] = Field(default_factory=list)
    #: a changelog says it was removed (in `removed_in`), not only deprecated
    removed: bool = False
    removed_in: str | None = None
    #: the version installed in the project has no such definition: only another
    #: indexed release does (tools/installed_gaps.py), or none does and only a record
    #: names it (a changelog's removal)
    not_installed: str | None = None
    #: False: no definition of that name is indexed (so "not deprecated" would be a
    #: guess; with `deprecated`, only a record names it: a changelog's removal, say)
    found: bool = True
    #: what was looked at before answering "no deprecation found"
    checked: list[str] = Field(default_factory=list)
    #: indexed names close to an unknown symbol
    did_you_mean: list[str] = Field(default_factory=list)
    #: records that deprecate one of its parameters (`Deprecation.parameter`), not it
    parameters: list[Deprecation] = Field(default_factory=list)
    #: what says it is deprecated: "code", "changelog" or "docs" (only the docs say so:
    #: weaker, a page may describe another version)
    evidence: str | None = None
    #: records that withdraw an earlier deprecation ("`x` has been undeprecated"): the
    #: deprecations they cancel are left out of `entries` and `parameters`
    undeprecated: list[Deprecation] = Field(default_factory=list)
    #: an ambiguous short name: the answer for each definition of it
    candidates: list[DeprecationReport] = Field(default_factory=list)
    #: the version of each source cited (records are grouped across sources: `also_in`)
    source_versions: dict[str, str] = Field(default_factory=dict)
    #: the release `deprecated`, `since`, `removed` and `entries` hold for, when known
    #: (the installed copy, else the one indexed version); None: not known, so every
    #: record counts whatever release it states
    running: RunningVersion | None = None
    #: records stating a release newer than `running` ("deprecated in 6.3" while 6.1
    #: runs; a removal still to come): not in effect in that version
    newer: list[Deprecation] = Field(default_factory=list)
    #: a removal's answer: where the deprecation before it is recorded (`location` cites
    #: the removal itself)
    deprecated_location: str | None = None
    #: the cited sources whose installed version changed since they were indexed
    #: ("tornado: refresh due: 6.2 installed, 6.1 indexed; run `ctxhub refresh tornado`")
    source_notes: list[str] = Field(default_factory=list)
    #: a bare name asked that records deprecate as a parameter of some callables
    #: (`shell_complete`): where passing it is deprecated; the verdict is the symbol's
    parameter_of: list[Deprecation] = Field(default_factory=list)
    #: such records stating a release newer than the one their owner's package runs
    #: (split as `newer` is from `entries`): not in effect in that release
    parameter_of_newer: list[Deprecation] = Field(default_factory=list)

    @property
    def unknown(self) -> bool:
        """Nothing indexed defines the name, and no record names it: no answer at all."""
        said = self.parameters or self.undeprecated or self.newer or self.candidates
        said = said or self.parameter_of or self.parameter_of_newer
        return not self.found and not self.deprecated and not said


class SolutionSearchResponse(BaseModel):
    query: str
    tool: str
    shape: str  # error | code | natural | mixed: which weights were used
    weights: dict[str, float]
    hits: list[Hit]  # kind "memory"; metadata explains each score
    confidence: float  # 0-1; 0.5 at the relevance floor
    nothing_relevant: bool
    message: str = ""
    nearest: list[Hit] = Field(default_factory=list)  # shown when nothing is relevant
    candidates: int = 0  # records any path found, before truncation
    truncated: bool = False


class BrowseResponse(BaseModel):
    hits: list[Hit]
    total: int
    next_cursor: str | None = None


class DigestResponse(BaseModel):
    markdown: str
    records: int
    ids: list[str] = Field(default_factory=list)


class SourceStatus(BaseModel):
    """One source. `status`: new | indexing (a refresh runs now) | ok | warning (it
    refreshed, and nothing was indexed: `warning` says why) | failed |
    partial (a refresh was interrupted: its chunks are searchable but incomplete; `error`
    says "interrupted; run ctxhub refresh")."""

    name: str
    kinds: list[str]
    origin: str
    version: str | None
    commit: str | None
    status: str
    error: str | None
    last_refresh: float | None
    age_days: float | None
    stale: bool
    chunks: dict[str, int] = Field(default_factory=dict)
    files: int = 0
    #: units the last refreshes could not use plus files the walk left out (symlink
    #: loops, dangling links, links leaving the root, files over the size cap)
    skipped_files: int = 0
    skipped: list[tuple[str, str]] = Field(default_factory=list)  # (path, reason)
    #: listed files no unit takes on purpose (a LICENSE, tests, a built site's theme
    #: files), and how many for each reason: what `refresh` reports as left out
    left_out_files: int = 0
    left_out_reasons: dict[str, int] = Field(default_factory=dict)
    #: why a source that refreshed fine holds nothing ("no supported files: found ...")
    warning: str | None = None
    #: for an installed distribution (pypi:NAME): the version installed now, and whether
    #: it differs from the indexed one (run `ctxhub refresh`)
    installed_version: str | None = None
    refresh_due: bool = False
    #: the distribution is no longer installed where it was found: the index keeps the
    #: last version it read (a refresh fails and keeps it too)
    not_installed: bool = False


class MemoryStatus(BaseModel):
    records: int = 0
    by_source: dict[str, int] = Field(default_factory=dict)
    variants: int = 0
    worked: int = 0
    not_worked: int = 0
    pending: int = 0  # captured by hooks, not yet embedded
    knowledge_useful: int = 0
    knowledge_not_useful: int = 0
    #: queries whose knowledge results agents rated not useful (count), most often first
    unhelpful_queries: list[tuple[str, int]] = Field(default_factory=list)


class HubStatus(BaseModel):
    store_path: str
    store_bytes: int
    read_only: bool = False  # the file (or its folder or mount) cannot be written
    schema_version: int
    model: str | None
    dim: int | None
    generation: int
    chunks: int  # every chunk, lookup-only ones too (the per-source counts add up to it)
    embedded: int  # of the ranked chunks (lookup-only ones are never embedded)
    sources: list[SourceStatus]
    lookup_only: int = 0  # trivial defs and autodoc stubs: looked up, never ranked
    memory: MemoryStatus = Field(default_factory=MemoryStatus)
