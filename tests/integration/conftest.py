"""Integration fixtures: the test corpus indexed once per session with the real model (via
the `ctxhub` CLI), and an official MCP client session against `python -m ctxhub serve`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "corpus"
T = TypeVar("T")

#: `ctxhub add` arguments for the three sources of the corpus.
SOURCES = [
    [str(CORPUS / "pkg"), "--kind", "python", "--name", "chime"],
    [
        str(CORPUS / "docs"),
        "--kind",
        "docs",
        "--name",
        "chime-docs",
        "--base-url",
        "https://docs.chime.dev",
    ],
    [str(CORPUS / "examples"), "--kind", "examples", "--name", "chime-examples"],
]


def ctxhub_env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CTXHUB_")}
    env.update(CTXHUB_HOME=str(home), **extra)
    return env


def run_ctxhub(home: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """`python -m ctxhub ARGS` with its own home, from a directory with no manifest."""
    proc = subprocess.run(
        [sys.executable, "-m", "ctxhub", *args],
        env=ctxhub_env(home),
        cwd=home,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"ctxhub {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr}")
    return proc


def index_corpus(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    for args in SOURCES:
        run_ctxhub(home, "add", *args, "--no-refresh")
    summary = json.loads(run_ctxhub(home, "refresh", "--json").stdout)
    assert all(s["status"] == "ok" for s in summary["sources"]), summary


@pytest.fixture(scope="session")
def indexed_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ctxhub home holding the test corpus, embedded with the real model."""
    home = tmp_path_factory.mktemp("ctxhub-home")
    index_corpus(home)
    return home


@asynccontextmanager
async def open_session(home: Path, **env: str) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "ctxhub", "serve"],
        env=ctxhub_env(home, **env),
        cwd=str(home),
    )
    with open(home / "serve-stderr.log", "a", encoding="utf-8") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write, read_timeout_seconds=120) as session,
        ):
            await session.initialize()
            yield session


class McpClient:
    """Runs an async body against a fresh stdio server over one MCP session."""

    def __init__(self, home: Path, **env: str) -> None:
        self.home = home
        self.env = env  # extra CTXHUB_* for the server (CTXHUB_DB: another store)

    def run(self, body: Callable[[ClientSession], Awaitable[T]]) -> T:
        async def main() -> T:
            async with open_session(self.home, **self.env) as session:
                return await body(session)

        return anyio.run(main)

    def calls(self, *calls: tuple[str, dict[str, Any]]) -> list[Any]:
        """Call each (tool, arguments) in order in one session; the CallToolResults."""

        async def body(session: ClientSession) -> list[Any]:
            return [await session.call_tool(name, args) for name, args in calls]

        return self.run(body)

    def call(self, name: str, args: dict[str, Any]) -> Any:
        return self.calls((name, args))[0]


#: The stores the MCP tools are tested against (PostgreSQL: the conformance suite's server).
BACKENDS = ["sqlite", "postgres"]


def client_on(home: Path, backend: str) -> McpClient:
    """An MCP client of `home`'s hub: its SQLite store as it is, or ("postgres") that store
    copied into a fresh PostgreSQL database by `ctxhub migrate --to` and served from there."""
    if backend == "sqlite":
        return McpClient(home)
    from tests.conformance.conftest import fresh_database

    url = fresh_database()
    run_ctxhub(home, "migrate", "--to", url)
    return McpClient(home, CTXHUB_DB=url)


@pytest.fixture(scope="session")
def mcp(indexed_home: Path) -> McpClient:
    return McpClient(indexed_home)


@pytest.fixture
def private_home(indexed_home: Path, tmp_path: Path) -> Iterator[Path]:
    """A copy of the indexed home that a test may change (add sources, refresh)."""
    import shutil

    home = tmp_path / "home"
    shutil.copytree(indexed_home, home, ignore=shutil.ignore_patterns("*.log"))
    yield home
