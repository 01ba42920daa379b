"""MCP server speed: cold start, per-tool round trips over stdio, memory while serving.

    .venv/bin/python benchmarks/mcp_server.py [--home DIR] [--rounds 10] [--cold 3] [--write]

Drives `python -m ctxhub serve` with the official MCP client, exactly as an agent's client
does. Without `--home` it indexes the dev corpus (~/.cache/contexthub-eval/{pipecat-ai,
pipecat-ai-flows,docs}) once into ~/.cache/ctxhub-bench/mcp with `ctxhub add`, and reuses
that index afterwards. Prints p50/p95 per tool, the cold-start medians and their ratio to
the targets (tools/list <= 1.5 s after spawn, first search <= 4 s, warm search p50 <= 40 ms);
`--write` puts them in the "MCP server" section of docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import TextContent

from report import write_section  # the sibling module (scripts run from this folder)

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path.home() / ".cache" / "contexthub-eval"
DEFAULT_HOME = Path.home() / ".cache" / "ctxhub-bench" / "mcp"
TARGETS = {"tools/list": 1.5, "first search": 4.0, "search p50": 0.040}  # seconds
QUERIES = [
    "how do I add a text-to-speech service to a pipeline",
    "PipelineTask cancel",
    "interruptions with VAD",
    "deploy to pipecat cloud",
    "DeepgramSTTService",
    "push_frame downstream",
    "function calling with an LLM",
    "transcription frames from speech to text",
    "daily transport room url token",
    "how to end a conversation flow node",
    "audio sample rate resampling",
    "ElevenLabs voice settings",
]
SYMBOLS = [
    "PipelineTask",
    "FrameProcessor.push_frame",
    "DeepgramSTTService.run_stt",
    "PipelineRunner.run",
    "FlowManager.initialize",
    "LLMService",
]
ApiFilter = dict[str, Any]
API_FILTERS: list[ApiFilter] = [
    {"base_class": "TTSService", "limit": 10},
    {"query": "stream audio", "yields": "TTSAudioRawFrame"},
    {"calls": "push_frame", "limit": 10},
    {"module": "pipecat.transports", "chunk_type": ["class"]},
]


def env_for(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CTXHUB_")}
    return {**env, "CTXHUB_HOME": str(home)}


def ctxhub(home: Path, *args: str) -> None:
    subprocess.run([sys.executable, "-m", "ctxhub", *args], env=env_for(home), cwd=home, check=True)


def ensure_index(home: Path) -> None:
    if (home / "ctxhub.db").exists() and (home / "ctxhub.toml").exists():
        return
    home.mkdir(parents=True, exist_ok=True)
    for args in (
        [str(CORPUS / "pipecat-ai"), "--name", "pipecat-ai"],
        [str(CORPUS / "pipecat-ai-flows"), "--name", "pipecat-ai-flows"],
        [str(CORPUS / "docs"), "--name", "pipecat-docs", "--kind", "docs"],
    ):
        ctxhub(home, "add", *args, "--no-refresh")
    started = time.perf_counter()
    ctxhub(home, "refresh")
    print(f"indexed the dev corpus into {home} in {time.perf_counter() - started:.0f} s")


def server_params(home: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=["-m", "ctxhub", "serve"], env=env_for(home), cwd=str(home)
    )


def _children_rss() -> tuple[int, int]:
    """(VmRSS, VmHWM) in KiB of our `ctxhub serve` child."""
    me = str(os.getpid())
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if fields[1] == me and b"serve" in cmdline:
            status = (stat.parent / "status").read_text()
            rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1))  # type: ignore[union-attr]
            hwm = int(re.search(r"VmHWM:\s+(\d+)", status).group(1))  # type: ignore[union-attr]
            return rss, hwm
    return 0, 0


async def cold_start(home: Path) -> dict[str, float]:
    started = time.perf_counter()
    with open(os.devnull, "w") as errlog:
        async with (
            stdio_client(server_params(home), errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            initialized = time.perf_counter() - started
            await session.list_tools()
            listed = time.perf_counter() - started
            result = await session.call_tool("search", {"query": QUERIES[0]})
            assert not result.is_error, result.content
            searched = time.perf_counter() - started
    return {"initialize": initialized, "tools/list": listed, "first search": searched}


async def _ids(session: ClientSession) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {"doc": [], "example": []}
    for query in QUERIES[:6]:
        docs = await session.call_tool("search_docs", {"query": query, "limit": 2})
        found["doc"] += [h["id"] for h in docs.structured_content["hits"]]
        examples = await session.call_tool("search_examples", {"query": query, "limit": 2})
        found["example"] += [
            h["id"] for h in examples.structured_content["hits"] if h["kind"] == "example"
        ]
    return found


def calls_for(ids: dict[str, list[str]]) -> dict[str, list[dict[str, Any]]]:
    return {
        "search": [{"query": q} for q in QUERIES],
        "search_docs": [{"query": q} for q in QUERIES],
        "search_api": [{"query": q, "limit": 10} for q in QUERIES[:6]] + API_FILTERS,
        "search_examples": [{"query": q} for q in QUERIES],
        "get_doc": [{"doc_id": i} for i in ids["doc"][:8]],
        "get_code_snippet": [{"symbol": s} for s in SYMBOLS],
        "trace_calls": [{"symbol": s, "depth": 2} for s in SYMBOLS]
        + [{"symbol": "FrameProcessor.push_frame", "direction": "callers"}],
        "get_example": [{"example_id": i} for i in ids["example"][:8]],
        "check_deprecation": [{"symbol": s} for s in SYMBOLS],
        "get_hub_status": [{}],
    }


async def warm_round_trips(
    home: Path, rounds: int
) -> tuple[dict[str, list[float]], tuple[int, int]]:
    timings: dict[str, list[float]] = {}
    with open(os.devnull, "w") as errlog:
        async with (
            stdio_client(server_params(home), errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            for _ in range(rounds):
                t0 = time.perf_counter()
                await session.list_tools()
                timings.setdefault("tools/list", []).append(time.perf_counter() - t0)
            plan = calls_for(await _ids(session))  # also warms the model and the index
            for _ in range(rounds):
                for tool, arguments in plan.items():
                    for args in arguments:
                        t0 = time.perf_counter()
                        result = await session.call_tool(tool, args)
                        timings.setdefault(tool, []).append(time.perf_counter() - t0)
                        first = result.content[0] if result.content else None
                        text = first.text if isinstance(first, TextContent) else ""
                        if result.is_error and not text.startswith("not found"):
                            raise RuntimeError(f"{tool}({args}): {text}")
            memory = _children_rss()
    return timings, memory


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", type=Path, help="an existing ctxhub home (default: build one)")
    ap.add_argument("--rounds", type=int, default=10, help="repetitions of each call")
    ap.add_argument("--cold", type=int, default=3, help="cold starts to time")
    ap.add_argument("--write", action="store_true", help="update docs/BENCHMARKS.md")
    ap.add_argument("--doc", type=Path, default=ROOT / "docs" / "BENCHMARKS.md")
    args = ap.parse_args()
    home = (args.home or DEFAULT_HOME).expanduser().absolute()
    if args.home is None:
        ensure_index(home)
    status = json.loads(
        subprocess.run(
            [sys.executable, "-m", "ctxhub", "status", "--json"],
            env=env_for(home),
            cwd=home,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    colds = [anyio.run(cold_start, home) for _ in range(args.cold)]
    cold = {k: statistics.median(c[k] for c in colds) for k in colds[0]}
    timings, (rss, hwm) = anyio.run(warm_round_trips, home, args.rounds)

    lines = ["| call | n | p50 ms | p95 ms |", "| --- | ---: | ---: | ---: |"]
    for tool, values in timings.items():
        lines.append(
            f"| {tool} | {len(values)} | {pct(values, 0.5) * 1000:.1f} | "
            f"{pct(values, 0.95) * 1000:.1f} |"
        )
    search_p50 = pct(timings["search"], 0.5)
    measured = {
        "tools/list": cold["tools/list"],
        "first search": cold["first search"],
        "search p50": search_p50,
    }
    lines += [
        "",
        "| target | measured | target | ratio (measured/target) |",
        "| --- | ---: | ---: | ---: |",
    ]
    for name, target in TARGETS.items():
        value = measured[name]
        unit, scale = ("ms", 1000) if target < 1 else ("s", 1)
        lines.append(
            f"| {name} | {value * scale:.{0 if unit == 'ms' else 2}f} {unit} | "
            f"{target * scale:g} {unit} | {value / target:.2f} |"
        )
    lines.append(
        f"\ncold start medians of {args.cold}: initialize {cold['initialize']:.2f} s, "
        f"tools/list {cold['tools/list']:.2f} s, first search {cold['first search']:.2f} s "
        "(each from spawn)"
    )
    lines.append(
        f"RSS while serving (after every tool ran): {rss / 1024:.0f} MiB, peak {hwm / 1024:.0f} MiB"
    )
    chunks = status["chunks"]
    context = (
        f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
        f"index of {chunks} chunks ({', '.join(s['name'] for s in status['sources'])}), "
        f"model {status['model']}. Round trip = official MCP client over stdio, one call at "
        "a time, each on a worker thread with a store connection of its own (pooled)."
    )
    table = "\n".join(lines)
    print(context)
    print(table)
    if args.write:
        cmd = "python benchmarks/mcp_server.py" + (f" --home {args.home}" if args.home else "")
        cmd += f" --rounds {args.rounds} --cold {args.cold}"
        write_section("MCP server", cmd, f"{context}\n\n{table}", args.doc)
        print(f"updated {args.doc}")


if __name__ == "__main__":
    main()
