"""Argument types the tool specs share: each carries the description and bounds that end
up in the MCP input schema and the CLI's help, so both show exactly what is accepted."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError

from ctxhub.core import limits


def _not_blank(text: str) -> str:
    """Blank is empty: `"   "` is refused as `""` is (core/errors.describe_validation)."""
    if not text.strip():
        raise PydanticCustomError("string_blank", "must not be empty")
    return text


Query = Annotated[
    str,
    Field(
        min_length=1,
        max_length=limits.MAX_QUERY,
        description="What you are looking for: natural language, an identifier "
        "(CamelCase, snake_case, dotted.path) or an error message",
    ),
    AfterValidator(_not_blank),
]
SourceName = Annotated[str, Field(max_length=limits.MAX_ID)]
Sources = Annotated[
    SourceName | list[SourceName] | None,
    Field(
        max_length=limits.MAX_SOURCES,
        description="Only these sources: one name or a list (names are in get_hub_status)",
    ),
]
OneSource = Annotated[
    str | None, Field(max_length=limits.MAX_ID, description="Only look in this source")
]
#: A dotted name, class name, tag or filter value: generous, but bounded.
Name = Annotated[str | None, Field(max_length=limits.MAX_NAME)]
Line = Annotated[int | None, Field(ge=1, le=limits.MAX_LINE)]
Hits = Annotated[
    int, Field(ge=1, le=limits.MAX_HITS, description=f"Most hits to return (1-{limits.MAX_HITS})")
]
MaxTokens = Annotated[
    int,
    Field(
        ge=limits.MIN_TOKENS,
        le=limits.MAX_TOKENS,
        description=f"Token budget for the whole response, text and structured content "
        f"together ({limits.MIN_TOKENS}-{limits.MAX_TOKENS}); text is trimmed to fit, ids "
        "and citations are always kept",
    ),
]
Tags = Annotated[
    list[Annotated[str, Field(max_length=100)]] | None,
    Field(max_length=limits.MAX_TAGS, description="Tags every result must have"),
]
ChunkId = Annotated[
    str, Field(min_length=1, max_length=limits.MAX_ID, description="A chunk id from a hit")
]
Symbol = Annotated[
    str,
    Field(
        min_length=1,
        max_length=limits.MAX_NAME,
        description="Qualified or short name: 'pkg.mod.Class.method', 'Class.method', 'method'",
    ),
]
Cursor = Annotated[
    str | None,
    Field(
        max_length=limits.MAX_ID,
        description="next_cursor of the previous page, with the same query and filters",
    ),
]
Language = Annotated[
    str | None, Field(max_length=60, description="Programming language, e.g. 'python'")
]
Framework = Annotated[
    str | None, Field(max_length=100, description="Framework, e.g. 'fastapi', 'django'")
]
ErrorType = Annotated[
    str | None, Field(max_length=200, description="Only records of this error type")
]
Agent = Annotated[
    str | None, Field(max_length=100, description="Who reports it, e.g. 'claude-code'")
]
SessionId = Annotated[
    str | None, Field(max_length=200, description="Your session id, to group records")
]
Text = Annotated[str | None, Field(max_length=limits.MAX_TEXT)]

KnowledgeKind = Literal["doc", "api", "example"]
ApiChunkType = Literal["module", "class", "method", "function", "instance"]
Direction = Literal["callees", "callers"]
