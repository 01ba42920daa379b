"""A client that goes away mid-request leaves one line in `serve --http`'s log, not pages
of traceback: a real server on loopback, real HTTP clients that leave mid-call."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.integration.conftest import ctxhub_env
from tests.integration.test_mcp_server import _free_port, _wait_port

pytestmark = pytest.mark.integration

ONE_LINE = re.compile(
    r"^WARNING mcp\.server\.streamable_http: .+: the client went away mid-request \(\w+\)$"
)


async def _leave_mid_calls(url: str) -> None:
    """Open a session, start a long search, leave after `delay` (the SDK client cancels
    the call and ends the session while the server still answers)."""
    for delay in (0.01, 0.03, 0.06, 0.1, 0.2, 0.3, 0.5):
        async with (
            streamable_http_client(url) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            with anyio.move_on_after(delay):
                await session.call_tool(
                    "search",
                    {"query": f"speech pipeline audio {delay}", "limit": 50, "max_tokens": 25000},
                )


def _cut_mid_post(port: int) -> None:
    """A raw client that sends a tools/call and closes its socket without reading."""
    body = (
        b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search",'
        b'"arguments":{"query":"speech","limit":50}}}'
    )
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\ncontent-type: application/json\r\n"
        f"accept: application/json, text/event-stream\r\ncontent-length: {len(body)}\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(head.encode() + body[: len(body) // 2])  # leave half-way through the body


def test_a_client_leaving_mid_request_is_one_line(indexed_home: Path) -> None:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "ctxhub", "serve", "--http", "--port", str(port)],
        stderr=subprocess.PIPE,
        env=ctxhub_env(indexed_home),
        cwd=indexed_home,
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        _wait_port(port, proc)
        anyio.run(_leave_mid_calls, url)
        _cut_mid_post(port)

        async def still_serves() -> bool:
            async with (
                streamable_http_client(url) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                found = await session.call_tool("search", {"query": "speech service"})
                return not found.is_error

        assert anyio.run(still_serves)
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    lines = err.decode().splitlines()
    assert lines[0].startswith("ctxhub MCP over HTTP at http://127.0.0.1:")
    logged = lines[1:]
    assert "Traceback" not in err.decode() and "Exception in ASGI" not in err.decode()
    assert logged, "no client left mid-request: the test did not exercise the disconnect"
    # the raw client that left half-way through its body: always exactly this line
    cut = "Error handling POST request: the client went away mid-request (ClientDisconnect)"
    assert sum(line.endswith(cut) for line in logged) == 1
    assert [line for line in logged if not ONE_LINE.match(line)] == []
