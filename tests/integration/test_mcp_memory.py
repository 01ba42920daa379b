"""The memory tools through the official MCP client over stdio, with the real model and a
real SQLite file; and ratings from many processes at once."""

from __future__ import annotations

import multiprocessing
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession

from ctxhub.config import Settings
from ctxhub.core.records import RecordInput
from ctxhub.memory.records.log import log_solution
from ctxhub.session import HubSession
from ctxhub.store.factory import open_store
from ctxhub.store.sqlite.store import SQLiteStore
from tests.conformance.conftest import _stop_postgres
from tests.integration.conftest import BACKENDS, McpClient, client_on
from tests.integration.test_mcp_tools import error_text, ok

pytestmark = pytest.mark.integration
__all__ = ["_stop_postgres"]  # the PostgreSQL server stops after the tests

ESM = {
    "problem": "Node script crashes with ERR_REQUIRE_ESM when it requires chalk 5",
    "error_type": "ERR_REQUIRE_ESM",
    "solution": "chalk 5 is ESM-only: load it with await import('chalk') or pin chalk@4",
    "code_snippet": "const chalk = (await import('chalk')).default;",
    "language": "JavaScript",
    "tags": ["node", "esm"],
}
PORTS = {
    "problem": "uvicorn fails to start because the address is already in use on port 8000",
    "error_type": "OSError",
    "solution": "Another server holds the port: stop it (lsof -i :8000) or pass --port 8001",
    "language": "python",
    "framework": "fastapi",
}


@pytest.mark.parametrize("backend", BACKENDS)
def test_memory_tools_end_to_end(private_home: Path, backend: str) -> None:
    async def body(session: ClientSession) -> dict[str, Any]:
        out: dict[str, Any] = {}
        out["logged"] = ok(await session.call_tool("log_solution", ESM))
        out["again"] = ok(await session.call_tool("log_solution", {**ESM, "tags": ["cli"]}))
        out["ports"] = ok(await session.call_tool("log_solution", PORTS))
        out["found"] = ok(
            await session.call_tool(
                "search_solutions",
                {"query": "Error [ERR_REQUIRE_ESM]: require() of ES Module chalk not supported"},
            )
        )
        out["filtered"] = ok(
            await session.call_tool(
                "search_solutions", {"query": "ERR_REQUIRE_ESM chalk", "language": "PYTHON"}
            )
        )
        out["nothing"] = ok(
            await session.call_tool(
                "search_solutions", {"query": "how do I rotate kubernetes ingress certificates"}
            )
        )
        out["approach"] = ok(
            await session.call_tool("search_by_approach", {"approach": "use a different port"})
        )
        rid = out["logged"]["id"]
        for worked in (True, True, False):
            out["rated"] = ok(await session.call_tool("rate", {"id": rid, "worked": worked}))
        out["browse"] = ok(await session.call_tool("browse_solutions", {"language": "javascript"}))
        out["digest"] = ok(await session.call_tool("ecosystem_digest", {"languages": ["python"]}))
        out["status"] = ok(await session.call_tool("get_hub_status", {}))
        out["bad_rate"] = await session.call_tool("rate", {"id": "no-such-id", "worked": True})
        out["bad_log"] = await session.call_tool("log_solution", {"problem": "x", "confidence": 3})
        return out

    out = client_on(private_home, backend).run(body)
    assert out["logged"]["action"] == "created"
    assert out["again"]["action"] == "merged" and out["again"]["id"] == out["logged"]["id"]
    found = out["found"]
    assert not found["nothing_relevant"] and found["hits"][0]["id"] == out["logged"]["id"]
    top = found["hits"][0]
    assert top["kind"] == "memory" and top["metadata"]["occurrences"] == 2
    assert top["metadata"]["tags"] == ["node", "esm", "cli"]
    assert {"bm25", "problem"} <= set(top["signals"]) and top["metadata"]["multipliers"]
    assert all(h["metadata"]["language"] == "python" for h in out["filtered"]["hits"])
    assert out["nothing"]["nothing_relevant"] and out["nothing"]["hits"] == []
    assert out["approach"]["hits"][0]["id"] == out["ports"]["id"]
    assert (out["rated"]["worked_total"], out["rated"]["not_worked_total"]) == (2, 1)
    assert out["browse"]["total"] == 1
    assert "address is already in use" in out["digest"]["markdown"]
    memory = out["status"]["memory"]
    assert memory["records"] == 2 and memory["worked"] == 2 and memory["not_worked"] == 1
    assert "not found" in error_text(out["bad_rate"])
    assert "confidence" in error_text(out["bad_log"])


def _rate_many(db: str, record_id: str, n: int) -> None:
    store = SQLiteStore(db)
    for i in range(n):
        assert store.add_feedback(record_id, "memory", i % 2 == 0, agent="p") is not None
    store.close()


def test_concurrent_ratings_are_never_lost(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    with HubSession(settings) as hub:  # the real model
        rid = log_solution(hub, RecordInput.model_validate(PORTS)).id
    context = multiprocessing.get_context("spawn")
    workers = [
        context.Process(target=_rate_many, args=(str(settings.store_location), rid, 50))
        for _ in range(8)
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join(120)
        assert w.exitcode == 0
    with open_store(settings.store_location) as store:
        (record,) = store.get_records([rid])
        events = store.conn.execute("SELECT COUNT(*) FROM feedback_events").fetchone()[0]
    assert (record.worked, record.not_worked, events) == (200, 200, 400)


def _hook(home: Path, event: dict[str, Any]) -> None:
    import json
    import shutil
    import subprocess

    from tests.integration.conftest import ctxhub_env

    script = shutil.which("ctxhub", path=str(Path(sys.executable).parent))
    assert script is not None
    done = subprocess.run(
        [script, "hook", "post-tool-use"],
        input=json.dumps(event),
        env=ctxhub_env(home),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert (done.returncode, done.stdout) == (0, "")


def test_a_fix_the_hook_captured_is_stored_by_the_server_and_found(tmp_path: Path) -> None:
    """Claude Code hook -> pending queue -> `serve` stores it at start -> search finds it."""
    home = tmp_path / "home"
    home.mkdir()
    base = {"session_id": "s-1", "cwd": str(tmp_path), "hook_event_name": "PostToolUse"}
    trace = (
        'Traceback (most recent call last):\n  File "app.py", line 3, in <module>\n'
        "    import yaml\nModuleNotFoundError: No module named 'yaml'\n"
    )
    _hook(
        home,
        {
            **base,
            "hook_event_name": "PostToolUseFailure",
            "tool_name": "Bash",
            "tool_input": {"command": "python app.py"},
            "error": trace,
        },
    )
    _hook(
        home,
        {
            **base,
            "tool_name": "Bash",
            "tool_input": {"command": "pip install pyyaml"},
            "tool_response": {"stdout": "Successfully installed PyYAML-6.0.2", "stderr": ""},
        },
    )
    _hook(
        home,
        {
            **base,
            "tool_name": "Bash",
            "tool_input": {"command": "python app.py"},
            "tool_response": {"stdout": "ok", "stderr": ""},
        },
    )
    assert len(list((home / "pending").glob("*.json"))) == 1

    async def body(session: ClientSession) -> dict[str, Any]:
        status: dict[str, Any] = {}
        for _ in range(120):  # the server stores pending records while it warms up
            status = ok(await session.call_tool("get_hub_status", {}))
            if status["memory"]["records"]:
                break
            await anyio.sleep(0.5)
        found = ok(
            await session.call_tool(
                "search_solutions", {"query": "ModuleNotFoundError: No module named 'yaml'"}
            )
        )
        return {"status": status, "found": found}

    out = McpClient(home).run(body)
    memory = out["status"]["memory"]
    assert memory["records"] == 1 and memory["by_source"] == {"hook": 1}
    assert memory["pending"] == 0
    top = out["found"]["hits"][0]
    assert top["source"] == "hook" and "pyyaml" in (top["snippet"] + str(top["metadata"])).lower()


FASTAPI_422 = (
    '{"detail":[{"type":"int_parsing","loc":["path","item_id"],'
    '"msg":"Input should be a valid integer, unable to parse string as an integer",'
    '"input":"abc"}]}'
)


def test_json_looking_text_is_stored_and_searched_verbatim(tmp_path: Path) -> None:
    async def body(session: ClientSession) -> list[Any]:
        logged = await session.call_tool(
            "log_solution",
            {
                "problem": "GET /items/abc returns 422 instead of 404",
                "stack_trace": FASTAPI_422,
                "solution": "the path parameter is typed int: validate the id before routing",
                "code_snippet": "null",
                "framework": "fastapi",
            },
        )
        found = await session.call_tool("search_solutions", {"query": FASTAPI_422})
        browsed = await session.call_tool("browse_solutions", {"framework": "fastapi"})
        return [logged, found, browsed]

    logged, found, browsed = McpClient(tmp_path).run(body)
    assert ok(logged)["action"] == "created"
    ranked = ok(found)["hits"] or ok(found)["nearest"]  # abstention is judged elsewhere
    assert ranked[0]["id"] == ok(logged)["id"]
    [record] = ok(browsed)["hits"]
    assert record["metadata"]["stack_trace"] == FASTAPI_422
    assert record["metadata"]["code_snippet"] == "null"
