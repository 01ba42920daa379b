"""The shared vocabulary: what flows between ingestion, the store, retrieval and the tools.

Everything that crosses a module boundary is one of these pydantic models. Ingestion
produces `Chunk`s, the store keeps them, the retriever answers a `SearchRequest` with a
`SearchResponse` of `Hit`s.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ctxhub.core.calls import CallsVia
from ctxhub.core.limits import DEFAULT_HITS, DEFAULT_TOKENS, MAX_RETRIEVED, MAX_TOKENS, MIN_TOKENS

ChunkKind = Literal["doc", "api", "example"]
HitKind = Literal["doc", "api", "example", "memory"]
CHUNK_KINDS: tuple[ChunkKind, ...] = ("doc", "api", "example")

#: Retrieval paths that can find a hit; `Hit.signals` is keyed by these.
RetrievalPath = Literal["bm25", "dense", "symbol"]

#: The most window texts a chunk gets (`Chunk.embed_windows`): every window is one more
#: embedding at indexing time, and a window search reads this many times its limit.
MAX_WINDOWS = 6

#: `ChunkMeta.extra` key of a chunk that is looked up, never ranked: a trivial definition
#: (`self.x = x`, an abstract `pass`) or a doc section made only of autodoc directives.
#: The store keeps it a row (symbol, structural and call-graph lookups read it) with no
#: text-index entry and no vector, so BM25 statistics and the dense top-k are as if it
#: were not there; a search drops it where the symbol path finds it (a one-line body is
#: no answer).
LOOKUP_ONLY = "lookup_only"


def content_hash(text: str) -> str:
    """sha256 of text, hex. Used for chunk content and embedding-cache keys."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def chunk_id(source: str, path: str, anchor: str | None, ordinal: int = 0) -> str:
    """Deterministic chunk id from (source, path, symbol or heading path, ordinal).

    Never includes a commit or a version, so unchanged content keeps its id across
    refreshes and releases.
    """
    key = "\x1f".join((source, path, anchor or "", str(ordinal)))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


class ChunkMeta(BaseModel):
    """Kind-specific structure. Fields used by filters are typed (and become indexed
    columns in the store); anything else goes into `extra`."""

    model_config = ConfigDict(extra="forbid")

    # module | class | method | function | section | example_file | example_readme ...
    chunk_type: str | None = None
    module: str | None = None  # dotted module of an api chunk
    class_name: str | None = None  # qualified class (without module) for methods/classes
    signature: str | None = None
    return_type: str | None = None
    bases: list[str] = Field(default_factory=list)
    decorators: list[str] = Field(default_factory=list)
    is_dataclass: bool | None = None
    is_abstract: bool | None = None
    is_async: bool | None = None
    calls: list[str] = Field(default_factory=list)
    yields: list[str] = Field(default_factory=list)
    imports: list[str] = Field(default_factory=list)
    deprecated: bool = False
    tags: list[str] = Field(default_factory=list)
    #: every capability an example's imports show, the common ones too: what a `tags`
    #: filter matches besides `tags` (which keeps only the distinctive ones, for display)
    capabilities: list[str] = Field(default_factory=list)
    language: str | None = None
    execution_mode: str | None = None  # local | cloud | ...
    example: str | None = None  # example name (folder or file) an example chunk belongs to
    extra: dict[str, Any] = Field(default_factory=dict)


class Chunk(BaseModel):
    """One retrievable unit: a doc section window, an API definition, an example block."""

    id: str
    source: str
    kind: ChunkKind
    path: str  # relative to the source root (docs dump: page path from its Source URL)
    symbol: str | None = None  # qualified name, e.g. pkg.mod.Class.method
    title: str = ""
    section: str | None = None  # heading breadcrumb, "A > B > C"
    line_start: int | None = None  # 1-based, inclusive
    line_end: int | None = None
    url: str | None = None
    version: str | None = None
    content: str
    embed_text: str  # what the embedder sees: compact header + start of body
    #: more texts embedded for a chunk longer than one vector sees (windows of its body,
    #: each under its name): the dense path also scores a chunk by its best window.
    #: Written with the chunk; `get_chunks` does not read them back.
    embed_windows: list[str] = Field(default_factory=list)
    content_hash: str = ""
    metadata: ChunkMeta = Field(default_factory=ChunkMeta)

    @field_validator("path")
    @classmethod
    def _relative_posix(cls, v: str) -> str:
        if v.startswith("/") or "\\" in v or ".." in v.split("/"):
            raise ValueError(f"chunk path must be relative POSIX inside its source: {v!r}")
        return v

    def model_post_init(self, __context: Any) -> None:
        if not self.content_hash:
            self.content_hash = content_hash(self.content)

    @property
    def lookup_only(self) -> bool:
        """Looked up by name or structure, never ranked on its text (`LOOKUP_ONLY`)."""
        return bool(self.metadata.extra.get(LOOKUP_ONLY))


class Deprecation(BaseModel):
    """One deprecated name, found in code, docstrings or a changelog."""

    source: str
    symbol: str  # qualified name (or a bare name when a changelog gives only that)
    replacement: str | None = None
    since: str | None = None
    note: str | None = None
    path: str | None = None
    line: int | None = None
    origin: str = "code"  # warn | decorator | call | docstring | alias | module | changelog
    #: in an answer: the other sources that hold the same record (another indexed
    #: version of the package), cited once
    also_in: list[str] = Field(default_factory=list)

    @property
    def parameter(self) -> str | None:
        """The parameter of `symbol` this record deprecates (a note written by
        `parameter_note`); None when the record deprecates the symbol itself."""
        match = _PARAMETER_NOTE.match(self.note or "")
        return match.group(1) if match else None

    @property
    def partial(self) -> bool:
        """The record deprecates a parameter or one way of calling `symbol` (a note
        written by `parameter_note` or `usage_note`), not the symbol itself."""
        return self.parameter is not None or (self.note or "").startswith(_USAGE_PREFIX)

    @property
    def text(self) -> str:
        """The note as its source says it, without the parameter or usage prefix."""
        note = self.note or ""
        match = _PARAMETER_NOTE.match(note)
        if match:
            return note[match.end() :]
        return note.removeprefix(_USAGE_PREFIX)


# A record about one parameter says so at the start of its note; the store keeps no
# separate column for it, so this prefix is the contract between ingest and the tools.
_PARAMETER_NOTE = re.compile(r"^parameter `([^`]+)`: ")


def parameter_note(name: str, text: str) -> str:
    """The note of a record that deprecates parameter `name` of its symbol."""
    return f"parameter `{name}`: {text}"


_USAGE_PREFIX = "usage: "


def usage_note(text: str) -> str:
    """The note of a record that deprecates one usage of its symbol (a behaviour, a way
    of passing something), not the symbol itself and no one parameter of it."""
    return _USAGE_PREFIX + text


class SearchFilters(BaseModel):
    """Structural filters, applied before ranking on typed indexed columns.

    List-valued filters (`tags`) require every value; `calls`/`yields`/`base_class`
    match one name exactly (the last dotted part of what the code says).
    """

    model_config = ConfigDict(extra="forbid")

    source: list[str] | None = None
    kind: list[HitKind] | None = None
    path_prefix: str | None = None
    symbol_prefix: str | None = None
    module_prefix: str | None = None
    class_prefix: str | None = None
    chunk_type: list[str] | None = None
    calls: str | None = None
    #: Which calls `calls` counts: any, or only those on one receiver (core/calls.py)
    calls_via: CallsVia = "any"
    yields: str | None = None
    base_class: str | None = None
    is_dataclass: bool | None = None
    tags: list[str] | None = None
    language: str | None = None
    execution_mode: str | None = None
    version: str | None = None
    #: Definitions that build a name of any of these shapes (`key_*`, `*_changed`:
    #: core/name_templates.py); the retriever's, not a tool's
    name_templates: list[str] | None = None
    #: Leave out lookup-only chunks (`LOOKUP_ONLY`): the retriever's, for the paths that
    #: read chunk rows (symbols, templates); BM25 and dense never hold them
    ranked_only: bool = False
    #: Only the definitions a framework declares as its API (named in a public module's
    #: `__all__` or re-exported by a package: the `exports` terms): the retriever's, for
    #: its `declared` path
    declared_only: bool = False

    def is_structural(self) -> bool:
        """True when a filter narrows by code structure (enough to list without a query)."""
        return any(
            v is not None
            for v in (
                self.calls,
                self.yields,
                self.base_class,
                self.is_dataclass,
                self.symbol_prefix,
                self.module_prefix,
                self.class_prefix,
                self.chunk_type,
            )
        )


class ChunkQuery(BaseModel):
    """A structured lookup of chunks, without ranking: every field given must hold.

    What the tools need to page through an index (a file's chunks, a symbol's
    definitions, a call's callers) without knowing how a store keeps them.
    """

    model_config = ConfigDict(frozen=True)

    kind: ChunkKind | None = None
    source: str | None = None
    path: str | None = None
    #: The file (or example unit) the chunks were made from, as ingestion names it.
    unit: str | None = None
    #: The qualified symbol, exactly.
    symbol: str | None = None
    #: The symbol or its last dotted parts, case-insensitive: `push_frame` finds
    #: `pkg.mod.FrameProcessor.push_frame`, `FrameProcessor.push_frame` too.
    symbol_name: str | None = None
    chunk_types: tuple[str, ...] = ()
    #: Chunks whose line span contains this line.
    covering_line: int | None = None
    #: Chunks whose code calls a function or method of this (last dotted) name.
    calls: str | None = None
    #: True: only the rows no search ranks (`LOOKUP_ONLY`: a changelog's text, autodoc
    #: stubs, trivial defs); False: only ranked ones; None: both.
    lookup_only: bool | None = None
    limit: int | None = Field(default=None, ge=1)


class SearchRequest(BaseModel):
    query: str
    kinds: list[HitKind] | None = None
    filters: SearchFilters = Field(default_factory=SearchFilters)
    limit: int = Field(default=DEFAULT_HITS, ge=1, le=MAX_RETRIEVED)
    max_tokens: int = Field(default=DEFAULT_TOKENS, ge=MIN_TOKENS, le=MAX_TOKENS)


class Signal(BaseModel):
    """Where one retrieval path ranked a hit (1-based) and its raw score."""

    rank: int
    score: float


class Hit(BaseModel):
    """A search result: the Hit contract of DESIGN.md."""

    id: str
    kind: HitKind
    source: str
    path: str
    symbol: str | None = None
    title: str = ""
    section: str | None = None
    line_start: int | None = None
    line_end: int | None = None
    url: str | None = None
    version: str | None = None
    snippet: str = ""
    #: 0-1 relevance to the query; None for a row a listing holds without ranking it (a
    #: structural filter with no query, or past the query's ranked rows)
    score: float | None = 0.0
    signals: dict[str, Signal] = Field(default_factory=dict)
    metadata: dict[str, Any] = Field(default_factory=dict)


class SearchResponse(BaseModel):
    query: str
    hits: list[Hit]
    confidence: float  # 0-1
    low_confidence: bool
    next_queries: list[str] = Field(default_factory=list)
    total: int | None = None  # size of the whole filtered set, when it was listed
    next_cursor: str | None = None  # pass back to get the next page of a listed set
    truncated: bool = False  # snippets trimmed to fit max_tokens
    #: ranked hits left out to fit max_tokens (a search; a listing's cursor pages on)
    left_out: int = 0
    #: why there is nothing to show, when that is known (an empty hub, a filter that
    #: admits nothing) and what to do about it; with hits, that the query is a qualified
    #: name nothing defines (the hits are a search for its words)
    notice: str | None = None
    #: the hits' `pypi:` sources whose installed version changed since they were
    #: indexed ("litestar: refresh due: 2.24.0 installed, 2.25.0 indexed"): their hits
    #: describe the indexed version
    source_notes: list[str] = Field(default_factory=list)
