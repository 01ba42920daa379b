"""Parameter types shared by the tools: each carries the description and bounds that end up
in the tool's input schema, so a client (and the model) sees exactly what is accepted."""

from __future__ import annotations

from typing import Annotated, Literal

from mcp_types import ToolAnnotations
from pydantic import Field

from ctxhub.server.runtime import DEFAULT_TOKENS, MAX_TOKENS
from ctxhub.tools.code_tools import MAX_LINE

#: Every knowledge tool only reads the local index.
READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)

Query = Annotated[
    str,
    Field(
        min_length=1,
        max_length=2000,
        description="What you are looking for: natural language, an identifier "
        "(CamelCase, snake_case, dotted.path) or an error message",
    ),
]
SourceName = Annotated[str, Field(max_length=200)]
Source = Annotated[
    SourceName | list[SourceName] | None,
    Field(
        max_length=50,
        description="Only these sources: one name or a list (names are in get_hub_status)",
    ),
]
#: A dotted name, class name, tag or filter value: generous, but bounded.
Name = Annotated[str | None, Field(max_length=500)]
#: A line number: 1-based, and small enough for any file (and for SQLite's integers).
Line = Annotated[int | None, Field(ge=1, le=MAX_LINE)]
Limit = Annotated[int, Field(ge=1, le=50, description="Most hits to return (1-50)")]
MaxTokens = Annotated[
    int,
    Field(
        ge=200,
        le=MAX_TOKENS,
        description=f"Token budget for the whole response ({200}-{MAX_TOKENS}, default "
        f"{DEFAULT_TOKENS}); text is trimmed to fit, ids and citations are always kept",
    ),
]
KnowledgeKind = Literal["doc", "api", "example"]
ApiChunkType = Literal["module", "class", "method", "function"]
Direction = Literal["callees", "callers"]
ChunkId = Annotated[str, Field(min_length=1, max_length=200, description="A chunk id from a hit")]
