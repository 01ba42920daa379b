"""Search latency at 16k and 200k chunks: p50/p95 of one hybrid search, query embedding
included, in the process that serves it (what an MCP tool call costs after transport).

The stores are built from a real index (the dev corpus, see benchmarks/eval/pipecat/get_corpus.sh):
its chunks are copied under new source names until the store holds the target count.
Copies share their embedded text, so the embedding cache gives them vectors without
running the model; BM25 postings and the vector matrix grow as they would for real.

    python benchmarks/search.py --index ~/.ctxhub/eval/eval.db [--sizes 16000,200000]
        [--repeats 3] [--api | --examples first|pool] [--write]

`--api` runs each query as `search_api` does (API chunks only, the declared API first:
the `public` scorer and the `declared` path); `--examples first` as `search_examples`
does (the examples ranked alone, those that match first, then examples and docs ranked
together: search/examples_first.py), `--examples pool` as it did before that (examples
and docs ranked together only, docs x0.8). The table is not written for these.

`--index` is a store that already holds the dev corpus with embeddings (for example
the one `ctxhub eval ... --root ...` builds at $CTXHUB_HOME/eval/eval.db).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from ctxhub.core.knowledge import Chunk, ChunkQuery, SearchRequest, chunk_id
from ctxhub.embed import load_default_embedder
from ctxhub.search.examples_first import examples_answer
from ctxhub.search.retriever import Retriever, SearchOptions
from ctxhub.store.sqlite.store import SQLiteStore
from report import write_section  # the sibling module (scripts run from this folder)

QUERIES_FILE = Path(__file__).resolve().parent / "eval" / "pipecat" / "pipecat_dev.jsonl"


def load_queries() -> list[str]:
    return [json.loads(line)["query"] for line in QUERIES_FILE.read_text().splitlines()]


def grow(index: Path, target: int, workdir: Path) -> Path:
    """A copy of `index` with chunks duplicated under new sources up to `target`."""
    path = workdir / f"store-{target}.db"
    shutil.copy(index, path)
    with SQLiteStore(path) as store:
        base = [
            c for source in store.counts() for c in store.find_chunks(ChunkQuery(source=source))
        ]
        total = sum(sum(k.values()) for k in store.counts().values())
        copy = 0
        while total < target:
            copy += 1
            batch: dict[tuple[str, str], list[Chunk]] = {}
            for c in base[: target - total]:
                name = f"{c.source}-copy{copy}"
                clone = c.model_copy(update={"source": name, "id": chunk_id(name, c.path, c.id)})
                batch.setdefault((name, c.path), []).append(clone)
            for (name, file), chunks in batch.items():
                store.replace_file(name, file, chunks)
            total += sum(len(v) for v in batch.values())
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


#: How search_examples weighs the two kinds it ranks (tools/search_tools.search_examples).
EXAMPLES_PREFER = {"example": 1.0, "doc": 0.8}


def _search(retriever: Retriever, query: str, api: bool, examples: str | None) -> None:
    if api:
        request = SearchRequest(query=query, limit=10, kinds=["api"])
        retriever.search(request, SearchOptions(public_first=True))
    elif examples:
        request = SearchRequest(query=query, limit=10, kinds=["example", "doc"])
        options = SearchOptions(prefer=EXAMPLES_PREFER)
        if examples == "first":
            examples_answer(retriever, request, options)
        else:
            retriever.search(request, options)
    else:
        retriever.search(SearchRequest(query=query, limit=10))


def measure(
    path: Path, queries: list[str], repeats: int, api: bool = False, examples: str | None = None
) -> dict[str, float]:
    embedder = load_default_embedder(Path.home() / ".ctxhub")
    with SQLiteStore(path) as store:
        n = sum(sum(k.values()) for k in store.counts().values())
        retriever = Retriever(store, embedder)
        retriever.search(SearchRequest(query="warm up the matrix and the model"))
        times: list[float] = []
        for _ in range(repeats):
            for q in queries:
                retriever._query_vectors.clear()  # the query embedding is part of the cost
                started = time.perf_counter()
                _search(retriever, q, api, examples)
                times.append((time.perf_counter() - started) * 1000)
    arr = np.array(times)
    return {
        "chunks": n,
        "searches": len(times),
        "p50_ms": round(float(np.percentile(arr, 50)), 1),
        "p95_ms": round(float(np.percentile(arr, 95)), 1),
        "mean_ms": round(statistics.fmean(times), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--sizes", default="16000,200000")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--api", action="store_true", help="search as search_api does")
    parser.add_argument(
        "--examples",
        choices=["first", "pool"],
        help="search as search_examples does (first) or did before examples first (pool)",
    )
    parser.add_argument("--write", action="store_true", help="update docs/BENCHMARKS.md")
    args = parser.parse_args()
    queries = load_queries()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            started = time.perf_counter()
            path = grow(args.index.expanduser(), size, Path(tmp))
            build = time.perf_counter() - started
            result = measure(path, queries, args.repeats, args.api, args.examples)
            result["build_s"] = round(build, 1)
            results.append(result)
            print(json.dumps(result), flush=True)
            path.unlink()
    targets = {16000: 30.0, 200000: 120.0}
    lines = [
        "| chunks | searches | p50 ms | p95 ms | target p50 | p50 / target |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        target = min((t for s, t in targets.items() if r["chunks"] <= s * 1.05), default=None)
        ratio = f"{r['p50_ms'] / target:.2f}" if target else "-"
        lines.append(
            f"| {r['chunks']:,} | {r['searches']} | {r['p50_ms']} | {r['p95_ms']} | "
            f"{target or '-'} | {ratio} |"
        )
    table = "\n".join(lines)
    print(table)
    if args.write and not (args.api or args.examples):  # targets are for plain search
        command = "python benchmarks/search.py " + " ".join(sys.argv[1:]).replace(" --write", "")
        write_section("Search latency", command, table)


if __name__ == "__main__":
    main()
