"""Every tool spec as an MCP tool: a function whose signature is the spec's arguments
model, so the SDK publishes the same input schema (names, types, bounds, descriptions),
and whose return annotation carries the output model (the output schema)."""

from __future__ import annotations

import inspect
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, ToolAnnotations

from ctxhub.server.caller import CALLER
from ctxhub.server.runtime import ToolRunner
from ctxhub.tools.spec import ToolSpec
from ctxhub.tools.specs import TOOLS

#: A read tool only reads the local index; a write tool only writes the local store.
READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
WRITES = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
)


def signature(spec: ToolSpec) -> inspect.Signature:
    """The spec's arguments model as keyword parameters (each field's FieldInfo rides
    along in `Annotated`, so descriptions and bounds reach the schema)."""
    params = [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            default=inspect.Parameter.empty if info.is_required() else info.default,
            annotation=Annotated[info.annotation, info],
        )
        for name, info in spec.args.model_fields.items()
    ]
    return inspect.Signature(params, return_annotation=Annotated[CallToolResult, spec.output])


def handler(spec: ToolSpec, runner: ToolRunner) -> Any:
    async def call(**arguments: Any) -> CallToolResult:
        return await runner.run(spec, spec.args.model_validate(arguments), CALLER.get())

    call.__name__ = spec.name
    call.__doc__ = spec.description
    call.__signature__ = signature(spec)  # type: ignore[attr-defined]
    return call


def register(server: MCPServer[Any], runner: ToolRunner) -> None:
    for spec in TOOLS:
        server.tool(
            name=spec.name,
            title=spec.title,
            description=spec.description,
            annotations=WRITES if spec.writes else READ_ONLY,
        )(handler(spec, runner))
