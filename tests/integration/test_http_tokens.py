"""Named bearer tokens on a real `serve --http` with the official MCP client: any live
token is accepted, a revoked one is refused at once (no restart), a read-only token
searches but cannot write, and what a token writes carries its name."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.integration.conftest import ctxhub_env, run_ctxhub
from tests.integration.test_mcp_server import INITIALIZE, _free_port, _wait_port

pytestmark = pytest.mark.integration

HEADERS = {"accept": "application/json, text/event-stream"}


def calls(url: str, secret: str, *todo: tuple[str, dict[str, Any]]) -> list[Any]:
    async def main() -> list[Any]:
        client = httpx2.AsyncClient(headers={"Authorization": f"Bearer {secret}"}, timeout=120)
        async with (
            client,
            streamable_http_client(url, http_client=client) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return [await session.call_tool(name, args) for name, args in todo]

    return anyio.run(main)


def status(url: str, secret: str | None) -> int:
    auth = {"authorization": f"Bearer {secret}"} if secret else {}
    return httpx2.post(url, json=INITIALIZE, headers={**HEADERS, **auth}).status_code


def test_named_tokens_read_only_and_revocation(private_home: Path) -> None:
    alice = run_ctxhub(private_home, "token", "add", "alice").stdout.strip()
    bot = run_ctxhub(private_home, "token", "add", "ci-bot", "--read-only").stdout.strip()
    assert alice.startswith("ctxhub_") and len(alice) > 40 and alice != bot
    listed = run_ctxhub(private_home, "token", "list").stdout
    assert alice not in listed and "ci-bot\tread-only" in listed

    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "ctxhub", "serve", "--http", "--port", str(port)],
        stderr=subprocess.PIPE,
        env=ctxhub_env(private_home),
        cwd=private_home,
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        _wait_port(port, proc)
        # tokens exist: a loopback server no longer answers without one
        assert status(url, None) == 401 and status(url, "ctxhub_wrong") == 401
        assert status(url, alice) == 200 and status(url, bot) == 200

        (logged,) = calls(
            url,
            alice,
            (
                "log_solution",
                {
                    "problem": "zanzibar queue overflows when the hold music stalls",
                    "solution": "bound the queue and drop the oldest frame",
                },
            ),
        )
        assert not logged.is_error, logged.content
        record_id = logged.structured_content["id"]
        (rated,) = calls(url, alice, ("rate", {"id": record_id, "worked": True}))
        assert not rated.is_error

        found, wrote, rating = calls(
            url,
            bot,
            ("search_solutions", {"query": "zanzibar queue overflows"}),
            ("log_solution", {"problem": "the bot tries to write", "solution": "no"}),
            ("rate", {"id": record_id, "worked": False}),
        )
        assert not found.is_error
        top = found.structured_content["hits"][0]
        assert top["id"] == record_id and top["metadata"]["logged_by"] == "alice"
        for refused in (wrote, rating):
            assert refused.is_error
            text = refused.content[0].text
            assert "read-only" in text and "'ci-bot'" in text

        shown = run_ctxhub(private_home, "show", record_id).stdout
        assert "logged by alice" in shown and "rated by alice 1/1 worked" in shown

        run_ctxhub(private_home, "token", "revoke", "alice")
        assert status(url, alice) == 401  # at once, the same server still running
        assert status(url, bot) == 200
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert "Traceback" not in err.decode()


def test_public_bind_with_a_named_token_starts(private_home: Path) -> None:
    refused = run_ctxhub(private_home, "serve", "--http", "--host", "0.0.0.0", check=False)
    assert refused.returncode == 1 and "ctxhub token add" in refused.stderr
    run_ctxhub(private_home, "token", "add", "alice")
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ctxhub",
            "serve",
            "--http",
            "--host",
            "0.0.0.0",
            "--port",
            f"{port}",
        ],
        stderr=subprocess.PIPE,
        env=ctxhub_env(private_home),
        cwd=private_home,
    )
    try:
        _wait_port(port, proc)
        assert status(f"http://127.0.0.1:{port}/mcp", None) == 401
    finally:
        proc.terminate()
        proc.wait(timeout=20)
