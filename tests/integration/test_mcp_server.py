"""The server process: stdin close and parent death end it, HTTP with and without a bearer
token, and a refresh in another process never breaking a search."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.integration.conftest import ctxhub_env, open_session, run_ctxhub

pytestmark = pytest.mark.integration

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _wait_gone(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return False


def test_stdin_close_ends_the_server(indexed_home: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "ctxhub", "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ctxhub_env(indexed_home),
        cwd=indexed_home,
    )
    assert proc.stdin and proc.stdout and proc.stderr
    proc.stdin.write((json.dumps(INITIALIZE) + "\n").encode())
    proc.stdin.flush()
    answer = json.loads(proc.stdout.readline())
    assert answer["id"] == 1 and answer["result"]["serverInfo"]["name"] == "ctxhub"
    proc.stdin.close()
    try:
        assert proc.wait(timeout=10) == 0
    finally:
        proc.kill()
    # stdout carried only protocol messages; logs went to stderr
    assert proc.stdout.read() == b""


def _handshake(home: Path) -> tuple[list[dict[str, Any]], str]:
    """initialize + tools/list over raw stdio: (the two answers, the server's stderr)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "ctxhub", "-v", "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ctxhub_env(home),
        cwd=home,
    )
    assert proc.stdin and proc.stdout and proc.stderr
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    for message in (INITIALIZE, done, listing):
        proc.stdin.write((json.dumps(message) + "\n").encode())
    proc.stdin.flush()
    answers = [json.loads(proc.stdout.readline()) for _ in range(2)]
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0
    return answers, proc.stderr.read().decode()


def test_the_handshake_is_answered_from_what_the_sdk_answered_before(tmp_path: Path) -> None:
    first, first_log = _handshake(tmp_path)  # the SDK answers; the front learns
    second, second_log = _handshake(tmp_path)  # the front answers before the SDK loads
    assert "from the handshake cache" not in first_log
    assert "answered initialize@2025-06-18 from the handshake cache" in second_log
    assert "answered tools/list@2025-06-18 from the handshake cache" in second_log
    assert second == first and [a["id"] for a in second] == [1, 2]
    assert {"search", "log_solution"} <= {t["name"] for t in second[1]["result"]["tools"]}
    assert "stale" not in second_log


def test_server_exits_when_its_parent_dies(indexed_home: Path) -> None:
    # `sleep` keeps the server's stdin open, so only the parent watch can end it.
    shell = subprocess.Popen(
        ["sh", "-c", f"sleep 120 | exec {sys.executable} -m ctxhub serve & echo $!; sleep 120"],
        stdout=subprocess.PIPE,
        env=ctxhub_env(indexed_home),
        cwd=indexed_home,
    )
    assert shell.stdout
    server = int(shell.stdout.readline())
    time.sleep(1.5)
    assert _alive(server)
    os.kill(shell.pid, signal.SIGKILL)
    shell.wait()
    try:
        assert _wait_gone(server, 10), "the orphaned server kept running"
    finally:
        if _alive(server):
            os.kill(server, signal.SIGKILL)


def test_server_exits_when_its_parent_dies_before_serving_starts(indexed_home: Path) -> None:
    # A slow machine: the client dies while the server is still importing. The entry
    # point records its parent first thing; the rest of the start-up is delayed here.
    slow_start = (
        "import sys, time; from ctxhub import parent; parent.remember(); time.sleep(3); "
        "from ctxhub.cli.entry import main; sys.argv = ['ctxhub', 'serve']; main()"
    )
    shell = subprocess.Popen(
        ["sh", "-c", f'sleep 120 | exec {sys.executable} -c "{slow_start}" & echo $!; sleep 120'],
        stdout=subprocess.PIPE,
        env=ctxhub_env(indexed_home),
        cwd=indexed_home,
    )
    assert shell.stdout
    server = int(shell.stdout.readline())
    time.sleep(1.0)
    assert _alive(server)
    os.kill(shell.pid, signal.SIGKILL)  # gone before the server reaches `serve`
    shell.wait()
    try:
        assert _wait_gone(server, 15), "a server orphaned during start-up kept running"
    finally:
        if _alive(server):
            os.kill(server, signal.SIGKILL)


def _read_until(fd: int, marker: bytes, seconds: float) -> bytes:
    seen = b""
    deadline = time.monotonic() + seconds
    while marker not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                seen += os.read(fd, 4096)
            except OSError:
                break
    return seen


def _reaped(child: int, seconds: float) -> bool:
    """True once our own child has exited (and is reaped, so no zombie looks alive)."""
    deadline = time.monotonic() + seconds
    while True:
        if os.waitpid(child, os.WNOHANG)[0] == child:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.1)


def test_ctrl_c_stops_a_server_started_on_a_terminal(indexed_home: Path) -> None:
    pid, fd = pty.fork()
    if pid == 0:  # the child: `ctxhub serve` with a terminal as stdin and stderr
        os.chdir(indexed_home)
        os.execve(
            sys.executable, [sys.executable, "-m", "ctxhub", "serve"], ctxhub_env(indexed_home)
        )
    stopped = False
    try:
        banner = _read_until(fd, b"Ctrl-D to stop", 30)
        assert b"ctxhub MCP server on stdio; Ctrl-C or Ctrl-D to stop" in banner
        time.sleep(0.5)  # serving, with stdin (the terminal) open and idle
        os.kill(pid, signal.SIGINT)
        stopped = _reaped(pid, 5)
        assert stopped, "Ctrl-C left the server running"
    finally:
        if not stopped:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)


def test_sigint_stops_a_server_whose_stdin_stays_open(indexed_home: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "ctxhub", "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ctxhub_env(indexed_home),
        cwd=indexed_home,
    )
    assert proc.stdin and proc.stdout and proc.stderr
    status = {"jsonrpc": "2.0", "id": 2, "method": "tools/call"}
    status["params"] = {"name": "get_hub_status", "arguments": {}}
    done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    for message in (INITIALIZE, done, status):
        proc.stdin.write((json.dumps(message) + "\n").encode())
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["id"] == 1
    assert json.loads(proc.stdout.readline())["id"] == 2  # serving: the SDK answered
    proc.send_signal(signal.SIGINT)
    try:
        assert proc.wait(timeout=5) == 0
    finally:
        proc.kill()
    assert b"Traceback" not in proc.stderr.read()


def test_sigint_while_starting_is_one_line(indexed_home: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "ctxhub", "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ctxhub_env(indexed_home),
        cwd=indexed_home,
    )
    time.sleep(0.3)  # still importing the SDK
    proc.send_signal(signal.SIGINT)
    try:
        code = proc.wait(timeout=10)
    finally:
        proc.kill()
    assert proc.stderr is not None
    errors = proc.stderr.read().decode()
    assert "Traceback" not in errors
    assert code == 130 and errors.strip().startswith("ctxhub: interrupted"), errors
    assert len(errors.strip().splitlines()) == 1, errors


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(
    port: int, proc: subprocess.Popen[bytes], seconds: float = 20, host: str = "127.0.0.1"
) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        with socket.socket() as s:
            if s.connect_ex((host, port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError("HTTP server did not start")


def test_http_requires_the_token_when_one_is_set(indexed_home: Path) -> None:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "ctxhub", "serve", "--http", "--port", str(port)],
        stderr=subprocess.PIPE,
        env=ctxhub_env(indexed_home, CTXHUB_TOKEN="s3cret-token"),
        cwd=indexed_home,
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        _wait_port(port, proc)
        payload = {"json": INITIALIZE, "headers": {"accept": "application/json, text/event-stream"}}
        assert httpx2.post(url, **payload).status_code == 401  # type: ignore[arg-type]
        wrong = httpx2.post(
            url, json=INITIALIZE, headers={**payload["headers"], "authorization": "Bearer nope"}
        )
        assert wrong.status_code == 401
        assert wrong.headers["www-authenticate"].startswith("Bearer")

        async def with_token() -> tuple[set[str], Any]:
            client = httpx2.AsyncClient(headers={"Authorization": "Bearer s3cret-token"})
            async with (
                client,
                streamable_http_client(url, http_client=client) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                tools = {t.name for t in (await session.list_tools()).tools}
                found = await session.call_tool("search", {"query": "speech service"})
                return tools, found

        tools, found = anyio.run(with_token)
        assert "search" in tools and "get_code_snippet" in tools
        assert not found.is_error and found.structured_content["hits"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2"])
def test_every_loopback_bind_refuses_foreign_host_headers(indexed_home: Path, host: str) -> None:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "ctxhub", "serve", "--http", "--host", host, "--port", str(port)],
        stderr=subprocess.PIPE,
        env=ctxhub_env(indexed_home),
        cwd=indexed_home,
    )
    url = f"http://{host}:{port}/mcp"
    headers = {"accept": "application/json, text/event-stream"}
    try:
        _wait_port(port, proc, host=host)
        rebound = httpx2.post(url, json=INITIALIZE, headers={**headers, "host": "evil.com"})
        assert rebound.status_code == 421  # a DNS-rebinding page never reaches the index
        foreign = httpx2.post(
            url, json=INITIALIZE, headers={**headers, "origin": "http://evil.com"}
        )
        assert foreign.status_code == 403
        assert httpx2.post(url, json=INITIALIZE, headers=headers).status_code == 200
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_public_bind_without_token_is_refused(indexed_home: Path) -> None:
    proc = run_ctxhub(indexed_home, "serve", "--http", "--host", "0.0.0.0", check=False)
    assert proc.returncode == 1
    assert "CTXHUB_TOKEN" in proc.stderr and "Traceback" not in proc.stderr


def test_refresh_in_another_process_never_breaks_a_search(
    private_home: Path, tmp_path: Path
) -> None:
    extra = tmp_path / "extra-docs"
    extra.mkdir()
    (extra / "hold-music.md").write_text(
        "# Hold music\n\nPlay zanzibar hold music while the caller waits in the queue.\n",
        encoding="utf-8",
    )

    async def body() -> tuple[list[bool], Any]:
        async with open_session(private_home) as session:
            before = await session.call_tool("search_docs", {"query": "zanzibar hold music"})
            assert not before.is_error
            assert all("hold-music" not in h["path"] for h in before.structured_content["hits"])
            errors: list[bool] = []
            writer = await anyio.open_process(
                [
                    sys.executable,
                    "-m",
                    "ctxhub",
                    "add",
                    str(extra),
                    "--kind",
                    "docs",
                    "--name",
                    "extra",
                ],
                env=ctxhub_env(private_home),
                cwd=private_home,
            )
            async with writer:
                while writer.returncode is None:  # search all the while the refresh writes
                    result = await session.call_tool("search", {"query": "speech audio frames"})
                    errors.append(bool(result.is_error))
                    with anyio.move_on_after(0.05):
                        await writer.wait()
                assert await writer.wait() == 0
            after = await session.call_tool("search_docs", {"query": "zanzibar hold music"})
            return errors, after

    errors, after = anyio.run(body)
    assert errors and not any(errors)
    assert not after.is_error
    assert after.structured_content["hits"][0]["path"] == "hold-music.md"
