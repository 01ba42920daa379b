"""What the template path costs a pasted-error search: the path alone (n-gram lookup,
definitions read, templates matched) against the whole search it is part of, per store.

    python benchmarks/template_path.py --store pipecat=STORE --queries FILE.jsonl [...]

Each store is searched with the `error` questions of the query files (any framework's:
the cost is the lookup, whatever it finds), as asked and as the end of the longest paste
the tools take (each question after the others' text, 2,000 characters: the most n-grams
a query can look up); the figures are medians over `--repeats` rounds, and the ratio is
the path's median over the search's, in one process. The path alone is timed through the
retriever's own `_templates` method: no public call runs one path.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from ctxhub.core.knowledge import SearchFilters, SearchRequest
from ctxhub.core.limits import MAX_QUERY
from ctxhub.embed import load_default_embedder
from ctxhub.search.analyzer import analyze
from ctxhub.search.retriever import Retriever
from ctxhub.store.factory import open_store


def error_queries(files: list[Path]) -> list[str]:
    out = []
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            q = json.loads(line)
            if q["category"] == "error":
                out.append(q["query"])
    return out


def long_pastes(queries: list[str]) -> list[str]:
    """Each query at the end of the others' text, MAX_QUERY characters in all."""
    out = []
    for i, q in enumerate(queries):
        others = " ".join(queries[i + 1 :] + queries[:i])
        out.append(f"{others[: MAX_QUERY - len(q) - 1]} {q}")
    return out


def measure(store_path: str, queries: list[str], home: Path, repeats: int) -> dict[str, float]:
    store = open_store(store_path)
    retriever = Retriever(store, load_default_embedder(home))
    path_ms: list[float] = []
    search_ms: list[float] = []
    found = 0
    for q in queries:  # warm: query vectors cached, the store's caches loaded
        retriever.search(SearchRequest(query=q))
    for _ in range(repeats):
        for q in queries:
            analysis = analyze(q)
            started = time.perf_counter()
            hits = retriever._templates(analysis, SearchFilters(), None)
            path_ms.append((time.perf_counter() - started) * 1000)
            found += bool(hits)
            started = time.perf_counter()
            retriever.search(SearchRequest(query=q))
            search_ms.append((time.perf_counter() - started) * 1000)
    store.close()
    path, search = statistics.median(path_ms), statistics.median(search_ms)
    return {
        "queries": len(queries),
        "path_p50": path,
        "search_p50": search,
        "ratio": path / search if search else 0.0,
        "with_hits": found / max(1, len(path_ms)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", action="append", required=True, help="NAME=PATH")
    parser.add_argument("--queries", action="append", required=True, type=Path)
    parser.add_argument("--home", type=Path, default=Path.home() / ".cache" / "ctxhub-bench")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    queries = error_queries(args.queries)
    print(
        "| store | error questions | template path p50 ms | search p50 ms | path / search "
        "| with hits |"
    )
    print("|---|---|---:|---:|---:|---:|")
    for spec in args.store:
        name, _, path = spec.partition("=")
        for label, asked in (("as asked", queries), ("2,000-char pastes", long_pastes(queries))):
            r = measure(path, asked, args.home, args.repeats)
            print(
                f"| {name} | {r['queries']} {label} | {r['path_p50']:.1f} | "
                f"{r['search_p50']:.1f} | {r['ratio']:.2f} | {r['with_hits']:.0%} |"
            )


if __name__ == "__main__":
    main()
