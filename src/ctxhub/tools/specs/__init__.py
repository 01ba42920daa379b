"""Every tool ctxhub offers, declared once (see `tools.spec`): the MCP server registers
`TOOLS` in this order, the CLI generates a command for each one with a `cli` spec."""

from __future__ import annotations

from ctxhub.tools.spec import ToolSpec
from ctxhub.tools.specs import memory, read, search

TOOLS: tuple[ToolSpec, ...] = (*search.SPECS, *read.SPECS, *memory.SPECS)
BY_NAME: dict[str, ToolSpec] = {spec.name: spec for spec in TOOLS}
BY_COMMAND: dict[str, ToolSpec] = {spec.cli.name: spec for spec in TOOLS if spec.cli}
