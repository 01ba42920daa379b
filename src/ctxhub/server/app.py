"""The MCP server: the knowledge tools on the official SDK's MCPServer, served over stdio.

stdout is the protocol channel: nothing else may write to it (the SDK points fd 1 at
stderr while it serves; logs go to stderr)."""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

import anyio
import anyio.from_thread
import anyio.lowlevel
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, Icon, InputRequiredResult, ToolAnnotations
from pydantic import ValidationError

from ctxhub import __version__
from ctxhub.config import Settings
from ctxhub.core.errors import describe_validation, shown
from ctxhub.server import resources, tools
from ctxhub.server.arguments import TextPreservingMetadata
from ctxhub.server.caller import CALLER, caller_of
from ctxhub.server.runtime import (
    ToolRunner,
    leave,
    warm_up,
    watch_parent,
)
from ctxhub.server.stdio_front import StdioFront

log = logging.getLogger("ctxhub.server")

#: Paragraphs, not hard-wrapped lines: a client shows them as they are.
INSTRUCTIONS = "\n\n".join(
    (
        "ctxhub: the indexed docs, Python API and examples of the frameworks this project "
        "uses, pinned to the installed versions, and a memory of problems agents already "
        "solved. Prefer it over grepping site-packages or guessing APIs.",
        "Orient first: `search` (everything), or `search_docs` / `search_api` / "
        "`search_examples` when you know what kind of answer you need (search_api filters "
        "by base_class, yields, calls, module, class_name).",
        "Then drill in by the ids the hits carry: `get_code_snippet` (exact source; "
        "companions are the functions it calls), `trace_calls` (callers / callees), "
        "`get_example` (a whole runnable example, or a doc page search_examples offered), "
        "`get_doc` (a whole page or one section).",
        "Before using an API you are unsure about, `check_deprecation`. `get_hub_status` "
        "lists the sources (names for the `source` filters) and their versions.",
        "Responses fit `max_tokens` (default 8000), text and structured content together: "
        "text is trimmed, ids and citations are kept; cite source:path:lines or the url "
        "when you rely on a hit.",
        "Memory: on an error, `search_solutions` first (paste the error; code in "
        "code_context). After trying a result, `rate` it. After solving something new, "
        "`log_solution`.",
    )
)
#: serverInfo's description: what the server offers, memory included.
DESCRIPTION = (
    "Framework knowledge for coding agents: docs, Python API source and examples of the "
    "indexed frameworks, and a memory of solved problems"
)


class CtxhubServer(MCPServer[Any]):
    """MCPServer whose argument errors are one precise line, unknown arguments included."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._arguments: dict[str, frozenset[str]] | None = None
        self.runner: ToolRunner | None = None

    def add_tool(
        self,
        fn: Callable[..., Any],
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        annotations: ToolAnnotations | None = None,
        icons: list[Icon] | None = None,
        meta: dict[str, Any] | None = None,
        structured_output: bool | None = None,
    ) -> None:
        super().add_tool(fn, name, title, description, annotations, icons, meta, structured_output)
        tool = self._tool_manager.get_tool(name or fn.__name__)
        assert tool is not None
        # Free-text arguments must reach the tool verbatim, even when they look like JSON.
        tool.fn_metadata = TextPreservingMetadata(**dict(tool.fn_metadata))

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        if self._arguments is None:
            self._arguments = {
                t.name: frozenset((t.input_schema or {}).get("properties", {}))
                for t in await self.list_tools()
            }
        accepted = self._arguments.get(name)
        unknown = sorted(set(arguments) - accepted) if accepted is not None else []
        if unknown:
            raise ToolError(
                f"invalid arguments for {name}: unknown argument(s) "
                f"{', '.join(u if len(u) <= 60 else shown(u, 60) for u in unknown[:10])}; "
                f"it accepts {', '.join(sorted(accepted or ())) or 'none'}"
            )
        bound = CALLER.set(caller_of(context))
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                detail = describe_validation(exc.__cause__)
                raise ToolError(f"invalid arguments for {name}: {detail}") from None
            raise
        finally:
            CALLER.reset(bound)


def build_server(settings: Settings, log_level: str = "WARNING") -> CtxhubServer:
    server = CtxhubServer(
        name="ctxhub",
        title="ctxhub",
        description=DESCRIPTION,
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level=log_level,
    )
    runner = server.runner = ToolRunner(settings)
    tools.register(server, runner)
    resources.register(server, runner)
    return server


async def _run_on(server: CtxhubServer, front: StdioFront | None) -> None:
    """The SDK's session over the front's channel (or the SDK's own stdio claim)."""
    if front is None:
        await server.run_stdio_async()
        return
    from mcp.server.stdio import stdio_server

    stdin, stdout = front.sdk_streams()
    front.handover()
    lowlevel = server._lowlevel_server
    async with stdio_server(stdin, stdout) as (read_stream, write_stream):
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())


async def _serve_stdio(server: CtxhubServer, front: StdioFront | None = None) -> str:
    """Serve until stdin closes ("eof"), a signal arrives or the parent dies ("stopped")."""
    token = anyio.lowlevel.current_token()
    reason = "eof"
    async with anyio.create_task_group() as group:

        def stop() -> None:
            nonlocal reason
            reason = "stopped"
            group.cancel_scope.cancel()

        async def on_signals() -> None:
            with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
                async for signum in signals:
                    log.info("signal %d: shutting down", signum)
                    stop()
                    # Cancelling cannot interrupt the worker thread blocked reading stdin,
                    # so the loop may never finish: leave after a grace period regardless.
                    exit_soon()
                    return

        watch_parent(lambda: anyio.from_thread.run_sync(stop, token=token))
        group.start_soon(on_signals)
        await _run_on(server, front)
        group.cancel_scope.cancel()
    return reason


def exit_soon(grace: float = 1.0) -> None:
    """End the process `grace` seconds from now, however the event loop is doing."""

    def leave() -> None:
        time.sleep(grace)
        logging.shutdown()
        os._exit(0)

    threading.Thread(target=leave, name="ctxhub-exit", daemon=True).start()


def run_stdio(
    settings: Settings, log_level: str = "WARNING", front: StdioFront | None = None
) -> None:
    """`ctxhub serve`: MCP over stdin/stdout until stdin closes, a signal (Ctrl-C) arrives
    or the parent goes away. `front` (started before this module loaded) has been
    answering the handshake meanwhile; without one the SDK claims stdio itself."""
    server = build_server(settings, log_level)
    warm_up(settings, server.runner.pool if server.runner else None)
    reason = anyio.run(_serve_stdio, server, front)
    log.info("stdio closed (%s): leaving", reason)
    # Leave without finalising: a worker may still block reading a stdin nobody will
    # close, and the model may still be loading in its thread.
    leave(0)
