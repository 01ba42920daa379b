"""What the server declares besides tools, implemented by the same tools: resources
(the index's status, a doc page by URI) and prompts (the ecosystem digest).

Each reads through `ToolRunner`, so a resource or prompt answers exactly what the
tool would, within the same budget, and fails with the tool's one-line message."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError
from mcp_types import TextContent

from ctxhub.server.runtime import ToolRunner
from ctxhub.tools.run import failure, parse_args
from ctxhub.tools.specs import BY_NAME

STATUS_URI = "ctxhub://status"
DOC_URI = "ctxhub://doc/{source}/{+path}"


class PromptError(ValueError):
    """A prompt whose tool refused: the SDK answers the client with this message."""


async def tool_text(runner: ToolRunner, tool: str, error: type[Exception], **arguments: Any) -> str:
    """The text rendering of one tool call; `error(message)` when the tool refuses."""
    spec = BY_NAME[tool]
    try:
        args = parse_args(spec, arguments)
    except Exception as exc:
        raise error(failure(spec, exc) or str(exc)) from None
    result = await runner.run(spec, args)
    text = "".join(c.text for c in result.content if isinstance(c, TextContent))
    if result.is_error:
        raise error(text)
    return text


def register(server: MCPServer[Any], runner: ToolRunner) -> None:
    @server.resource(
        STATUS_URI,
        name="hub_status",
        title="Index status",
        description="What the index holds: sources, versions, chunk counts, refresh age, "
        "errors, the embedding model and the store (the get_hub_status tool's answer).",
        mime_type="text/plain",
    )
    async def hub_status() -> str:
        return await tool_text(runner, "get_hub_status", ResourceError)

    @server.resource(
        DOC_URI,
        name="doc_page",
        title="Documentation page",
        description="A documentation page by its source and path, as search hits cite them "
        "(source:path), e.g. ctxhub://doc/mydocs/guides/quickstart.md (the get_doc tool's "
        "answer).",
        mime_type="text/markdown",
    )
    async def doc_page(source: str, path: str) -> str:
        return await tool_text(runner, "get_doc", ResourceError, source=source, path=path)

    @server.prompt(
        name="ecosystem_digest",
        title="Known problems and fixes for a stack",
        description="The solution memory's known problems and fixes for the given languages "
        "(and frameworks), as Markdown to add to the project's AGENTS.md or CLAUDE.md.",
    )
    async def ecosystem_digest(languages: str, frameworks: str = "") -> str:
        """languages, frameworks: comma-separated, e.g. 'python' and 'fastapi, django'."""
        digest = await tool_text(
            runner,
            "ecosystem_digest",
            PromptError,
            languages=_names(languages),
            frameworks=_names(frameworks) or None,
        )
        return (
            "Below are the problems and fixes ctxhub's solution memory knows for this "
            "stack. Add the ones that apply to this project to its agent instructions file "
            "(AGENTS.md or CLAUDE.md), keeping what is already there.\n\n" + digest
        )


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]
