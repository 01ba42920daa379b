"""Command names people bring from elsewhere: the MCP tool names (`trace_calls`,
`get_code_snippet`) run the command that calls the same tool, and a name no command has
gets click's usage error with the commands it is likely meant as (`trace` -> `calls`,
the command of `trace_calls`). Read only when a name is not a command: the specs are not
imported on the way to a known command."""

from __future__ import annotations

import difflib
from collections.abc import Collection

#: Suggestions in an unknown command's error at most.
MAX_SUGGESTED = 3


def tool_commands() -> dict[str, str]:
    """{MCP tool name: the CLI command that calls it}, for the tools the CLI offers."""
    from ctxhub.tools.specs import TOOLS

    return {spec.name: spec.cli.name for spec in TOOLS if spec.cli is not None}


def command_for(name: str, commands: Collection[str]) -> str | None:
    """The command an MCP tool name stands for (`trace_calls` -> `calls`), or None."""
    found = tool_commands().get(name.replace("-", "_"))
    return found if found in commands else None


def suggestions(name: str, commands: Collection[str]) -> list[str]:
    """Commands `name` is likely meant as: those whose tool name it begins or closely
    matches (`trace` -> `calls` for trace_calls), then commands spelled like it."""
    wanted = name.replace("-", "_").lower()
    tools = tool_commands()
    out = [
        command
        for tool, command in sorted(tools.items())
        if command in commands and (tool.startswith(wanted + "_") or tool.endswith("_" + wanted))
    ]
    spelled = {**{c: c for c in commands}, **{t: c for t, c in tools.items() if c in commands}}
    for close in difflib.get_close_matches(wanted, list(spelled), n=MAX_SUGGESTED, cutoff=0.7):
        out.append(spelled[close])
    return list(dict.fromkeys(out))[:MAX_SUGGESTED]
