"""The CLI mirrors of the tools: the same code path, so `--json` equals the MCP output."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.integration.conftest import run_ctxhub

pytestmark = pytest.mark.integration


def cli_json(home: Path, *args: str) -> Any:
    return json.loads(run_ctxhub(home, *args, "--json").stdout)


def test_snippet_json_is_the_tool_output(indexed_home: Path, mcp: Any) -> None:
    via_cli = cli_json(indexed_home, "snippet", "SpeechService.run_tts")
    via_mcp = mcp.call("get_code_snippet", {"symbol": "SpeechService.run_tts"})
    assert via_cli == via_mcp.structured_content
    readable = run_ctxhub(indexed_home, "snippet", "SpeechService.run_tts").stdout
    assert "chime.services.tts.SpeechService.run_tts" in readable
    assert "yield TextFrame(text=text)" in readable and "lines 50-58" in readable


def test_show_opens_any_chunk_id(indexed_home: Path) -> None:
    found = cli_json(indexed_home, "search", "text to speech service", "--limit", "10")
    by_kind = {}
    for hit in found["hits"]:
        by_kind.setdefault(hit["kind"], hit)
    assert set(by_kind) == {"doc", "api", "example"}
    doc = cli_json(indexed_home, "show", by_kind["doc"]["id"])
    assert doc["path"] == by_kind["doc"]["path"] and "sections" in doc and doc["content"]
    example = cli_json(indexed_home, "show", by_kind["example"]["id"])
    assert example["files"] and example["name"] == by_kind["example"]["metadata"]["example"]
    api = cli_json(indexed_home, "show", by_kind["api"]["id"])
    assert api["resolution"] == "id" and api["symbol"] == by_kind["api"]["symbol"]
    page = cli_json(indexed_home, "show", "guides/quickstart")  # a doc path works too
    assert page["title"] == "Quickstart"
    missing = run_ctxhub(indexed_home, "show", "ffffffffffffffff", check=False)
    assert missing.returncode == 1 and missing.stderr.startswith("error: not found:")


def test_calls_and_deprecated(indexed_home: Path) -> None:
    callers = cli_json(indexed_home, "calls", "FrameProcessor.push_frame", "--callers")
    assert callers["direction"] == "callers"
    assert "chime.processors.frame_processor.FrameProcessor.push_error" in {
        n["symbol"] for n in callers["nodes"]
    }
    deep = cli_json(indexed_home, "calls", "Pipeline.run", "--depth", "2")
    assert {n["depth"] for n in deep["nodes"]} <= {1, 2}
    tree = run_ctxhub(indexed_home, "calls", "TTSService.process_frame").stdout
    assert "TTSService.process_frame" in tree and "push_frame" in tree
    report = cli_json(indexed_home, "deprecated", "SpeechService.set_voice")
    assert report["deprecated"] and report["since"] == "1.1"
    assert "deprecated" in run_ctxhub(indexed_home, "deprecated", "LegacyPipeline").stdout
    known = run_ctxhub(indexed_home, "deprecated", "Pipeline").stdout
    assert "no deprecation found (checked:" in known
    unknown = run_ctxhub(indexed_home, "deprecated", "NoSuchThingAnywhere", check=False)
    assert unknown.returncode == 1 and "unknown symbol" in unknown.stdout  # as snippet does


def test_search_mirrors(indexed_home: Path) -> None:
    api = cli_json(indexed_home, "search-api", "--base", "FrameProcessor", "--limit", "2")
    assert api["total"] == 3 and api["next_cursor"]
    rest = cli_json(
        indexed_home,
        "search-api",
        "--base",
        "FrameProcessor",
        "--limit",
        "2",
        "--cursor",
        api["next_cursor"],
    )
    assert len(rest["hits"]) == 1
    docs = cli_json(indexed_home, "search-docs", "speech", "--area", "server/")
    assert docs["hits"] and all(h["path"].startswith("server/") for h in docs["hits"])
    examples = cli_json(indexed_home, "search-examples", "voice agent", "--mode", "cloud")
    assert {h["metadata"]["example"] for h in examples["hits"]} == {"phone_agent"}
    bad = run_ctxhub(indexed_home, "search-api", check=False)
    assert bad.returncode == 2 and "structural filter" in bad.stderr
