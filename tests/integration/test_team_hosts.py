"""Two `serve --http` processes on one PostgreSQL (a real server, started as the
conformance tests start it), as two hosts of a team would run them: the hub moved there
with `ctxhub migrate --to`, a token per person, the official MCP client on each. What
one server writes the other finds at once; ratings through both all count; a token
revoked once is refused by both."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.conformance.conftest import _stop_postgres, fresh_database
from tests.integration.conftest import ctxhub_env
from tests.integration.test_mcp_server import INITIALIZE, _free_port, _wait_port

pytestmark = pytest.mark.integration
__all__ = ["_stop_postgres"]  # the conformance server's session teardown, used here too

RATINGS_EACH = 6


def ctxhub(home: Path, db: str, *args: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "ctxhub", *args],
        env=ctxhub_env(home, CTXHUB_DB=db),
        cwd=home,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


class Host:
    """One `serve --http` process on the shared database, with its own home."""

    def __init__(self, home: Path, db: str) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ctxhub", "serve", "--http", "--port", str(self.port)],
            stderr=subprocess.PIPE,
            env=ctxhub_env(home, CTXHUB_DB=db),
            cwd=home,
        )

    async def calls(self, secret: str, *todo: tuple[str, dict[str, Any]]) -> list[Any]:
        client = httpx2.AsyncClient(headers={"Authorization": f"Bearer {secret}"}, timeout=120)
        async with (
            client,
            streamable_http_client(self.url, http_client=client) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return [await session.call_tool(name, args) for name, args in todo]

    def status(self, secret: str) -> int:
        headers = {"accept": "application/json, text/event-stream"}
        headers["authorization"] = f"Bearer {secret}"
        return httpx2.post(self.url, json=INITIALIZE, headers=headers).status_code

    def stop(self) -> str:
        self.proc.terminate()
        _, err = self.proc.communicate(timeout=20)
        return err.decode()


@pytest.fixture
def team(indexed_home: Path, tmp_path: Path) -> Iterator[tuple[str, list[Host], Path]]:
    db = fresh_database()
    ctxhub(indexed_home, db, "--db", str(indexed_home / "ctxhub.db"), "migrate", "--to", db)
    homes = [tmp_path / "host-a", tmp_path / "host-b"]
    for home in homes:
        home.mkdir()
    hosts = [Host(home, db) for home in homes]
    try:
        for host in hosts:
            _wait_port(host.port, host.proc, seconds=60)
        yield db, hosts, homes[0]
    finally:
        errors = [host.stop() for host in hosts]
    assert all("Traceback" not in e for e in errors), errors


def test_two_servers_on_one_database_see_each_other_at_once(
    team: tuple[str, list[Host], Path],
) -> None:
    db, (a, b), home = team
    alice = ctxhub(home, db, "token", "add", "alice").strip()
    bob = ctxhub(home, db, "token", "add", "bob").strip()

    async def scenario() -> tuple[Any, Any, list[Any]]:
        (logged,) = await a.calls(
            alice,
            (
                "log_solution",
                {
                    "problem": "zanzibar relay drops frames after a reconnect",
                    "solution": "reset the relay's sequence counter on reconnect",
                },
            ),
        )
        record_id = logged.structured_content["id"]
        (found,) = await b.calls(bob, ("search_solutions", {"query": "zanzibar relay drops"}))
        rates: list[Any] = []
        async with anyio.create_task_group() as group:  # both servers at once
            for host, secret in ((a, alice), (b, bob)):
                for _ in range(RATINGS_EACH):

                    async def one(h: Host = host, s: str = secret) -> None:
                        rates.extend(await h.calls(s, ("rate", {"id": record_id, "worked": True})))

                    group.start_soon(one)
        (after,) = await a.calls(alice, ("search_solutions", {"query": "zanzibar relay drops"}))
        return found, after, rates

    found, after, rates = anyio.run(scenario)
    top = found.structured_content["hits"][0]
    assert "zanzibar relay" in top["metadata"]["problem"]
    assert top["metadata"]["logged_by"] == "alice"  # logged through the other server
    assert len(rates) == 2 * RATINGS_EACH and not any(r.is_error for r in rates)
    assert after.structured_content["hits"][0]["metadata"]["worked"] == 2 * RATINGS_EACH
    shown = ctxhub(home, db, "show", top["id"])
    assert f"rated by alice {RATINGS_EACH}/{RATINGS_EACH} worked, bob" in shown

    # knowledge indexed once (migrated), searched through either server
    knowledge = anyio.run(b.calls, bob, ("search", {"query": "speech service"}))
    assert knowledge[0].structured_content["hits"]

    ctxhub(home, db, "token", "revoke", "bob")
    assert a.status(bob) == 401 and b.status(bob) == 401  # both, without a restart
    assert a.status(alice) == 200 and b.status(alice) == 200
