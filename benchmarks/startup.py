"""Start-up cost of the commands an agent runs most: each is a fresh process.

    .venv/bin/python benchmarks/startup.py [--home DIR] [--runs 7] [--write]

Cases, each the median of `--runs` rounds (the cases alternate within a round, so a busy
moment hits all of them alike):

- `python -c pass`: the interpreter alone, the unit every other figure is divided by;
- `ctxhub --version`;
- `ctxhub rate ID worked` on an existing record (a write to the store);
- `ctxhub serve`: spawn -> `initialize` + `tools/list` answered, and spawn -> the first
  `search` answered (the model loads in the background meanwhile), over raw JSON-RPC on
  stdio, so the client costs the server nothing.

The sources are byte-compiled first (as `install.sh` and a wheel install leave them);
`serve` answers the handshake from what the SDK answered on the previous start
(`server/stdio_front.py`), so the first start after an install or upgrade pays the
SDK's ~1 s once. Without `--home` the test corpus (tests/fixtures/corpus) is indexed
with the real model into benchmarks/.work/startup once and reused. Prints medians, their
ratio to
`python -c pass` and to the targets; `--write` puts them in the "Start-up" section of
docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from report import write_section  # the sibling module (scripts run from this folder)

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "benchmarks" / ".work" / "startup"
CORPUS = ROOT / "tests" / "fixtures" / "corpus"
#: Seconds, on the 2-core reference machine (issue 11).
TARGETS = {
    "ctxhub --version": 0.35,
    "ctxhub rate (existing record)": 0.6,
    "serve: tools/list after spawn": 1.0,
    "serve: first search after spawn": 2.5,
}
BASELINE = "python -c pass"


def env_for(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CTXHUB_")}
    return {**env, "CTXHUB_HOME": str(home)}


def ctxhub(home: Path, *args: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "ctxhub", *args],
        env=env_for(home),
        cwd=home,
        check=True,
        capture_output=True,
        text=True,
    )
    return proc.stdout


def prepare(home: Path) -> str:
    """An indexed home with one record; the record's id."""
    home.mkdir(parents=True, exist_ok=True)
    if not (home / "ctxhub.db").exists():
        for path, kind in (("pkg", "python"), ("docs", "docs"), ("examples", "examples")):
            ctxhub(home, "add", str(CORPUS / path), "--kind", kind, "--name", f"chime-{path}")
    logged = ctxhub(
        home,
        "log",
        "--problem",
        "pytest cannot import the package from a src layout",
        "--solution",
        "pythonpath = src under [pytest] in pytest.ini",
        "--json",
    )
    return str(json.loads(logged)["id"])


def timed(argv: list[str], home: Path) -> float:
    started = time.perf_counter()
    subprocess.run(
        argv,
        env=env_for(home),
        cwd=home,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - started


def serve_times(home: Path) -> tuple[float, float]:
    """(spawn -> tools/list answered, spawn -> first search answered)."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "ctxhub", "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env_for(home),
        cwd=home,
    )
    assert proc.stdin is not None and proc.stdout is not None
    stdin, stdout = proc.stdin, proc.stdout

    def send(message: dict[str, Any]) -> None:
        stdin.write((json.dumps({"jsonrpc": "2.0", **message}) + "\n").encode())
        stdin.flush()

    def answer(request_id: int) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(stdout.readline())
            if message.get("id") == request_id:
                return message

    client = {"name": "startup-bench", "version": "1"}
    params = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": client}
    send({"id": 1, "method": "initialize", "params": params})
    answer(1)
    send({"method": "notifications/initialized"})
    send({"id": 2, "method": "tools/list"})
    assert answer(2)["result"]["tools"]
    listed = time.perf_counter() - started
    search = {"name": "search", "arguments": {"query": "how do I stream speech to text"}}
    send({"id": 3, "method": "tools/call", "params": search})
    result = answer(3)["result"]
    assert not result.get("isError"), result
    searched = time.perf_counter() - started
    stdin.close()
    proc.wait(timeout=30)
    return listed, searched


def measure(home: Path, record: str, runs: int) -> dict[str, list[float]]:
    # As installed: with bytecode (install.sh compiles it; a wheel install does too).
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "src" / "ctxhub")])
    ctx = [sys.executable, "-m", "ctxhub"]
    single: dict[str, Callable[[], float]] = {
        BASELINE: lambda: timed([sys.executable, "-c", "pass"], home),
        "ctxhub --version": lambda: timed([*ctx, "--version"], home),
        "ctxhub rate (existing record)": lambda: timed([*ctx, "rate", record, "worked"], home),
    }
    samples: dict[str, list[float]] = {name: [] for name in [*single, *TARGETS]}
    serve_times(home)  # once, untimed: builds the cached graph and warms the page cache
    for _ in range(runs):
        for name, run in single.items():
            samples[name].append(run())
        listed, searched = serve_times(home)
        samples["serve: tools/list after spawn"].append(listed)
        samples["serve: first search after spawn"].append(searched)
    return samples


def table(samples: dict[str, list[float]]) -> str:
    base = statistics.median(samples[BASELINE])
    rows = [
        "| case | median | min | x `python -c pass` | target | |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for name, values in samples.items():
        median = statistics.median(values)
        target = TARGETS.get(name)
        verdict = "" if target is None else ("ok" if median <= target else "**over**")
        shown_target = "-" if target is None else f"{target:.2f} s"
        rows.append(
            f"| {name} | {median:.3f} s | {min(values):.3f} s | {median / base:.1f}x "
            f"| {shown_target} | {verdict} |"
        )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", type=Path, help="an indexed CTXHUB_HOME (default: a test one)")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--write", action="store_true", help="update docs/BENCHMARKS.md")
    args = parser.parse_args()
    home = (args.home or WORK).resolve()
    record = prepare(home)
    samples = measure(home, record, args.runs)
    body = table(samples)
    chunks = json.loads(ctxhub(home, "status", "--json"))["chunks"]
    note = (
        f"\n\n{args.runs} rounds; index: {chunks} chunks"
        f" ({'the test corpus' if args.home is None else home}). The targets are absolute"
        " seconds for a 2-core machine; the ratio column carries over to faster or"
        " slower ones."
    )
    print(body + note)
    if args.write:
        command = "python benchmarks/startup.py" + (f" --home {args.home}" if args.home else "")
        write_section("Start-up", f"{command} --runs {args.runs}", body + note)


if __name__ == "__main__":
    main()
