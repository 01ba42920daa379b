"""Search time on SQLite and PostgreSQL stores of one size, alternating per question:
SQLite, PostgreSQL with BM25 from postings (now), and PostgreSQL with BM25 from the
tsvectors (the statement before schema 5, swapped in for the comparison). `--what bm25`
times the store's BM25 alone; `--what search` the retriever's whole search (embedding,
dense, BM25, symbols, fusion), as benchmarks/team.py does. Prints the medians and ratios.

    python benchmarks/bm25_scale.py /tmp/scale.db postgresql://.../scale --what search

Stores: grown with benchmarks/bm25_replicate.py. Questions: the eval sets' (every Nth).
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ctxhub.core.knowledge import SearchFilters, SearchRequest
from ctxhub.embed import load_default_embedder
from ctxhub.search.retriever import Retriever
from ctxhub.store.factory import open_store
from ctxhub.store.postgres import fts, reads
from ctxhub.store.postgres.filters import where_clause
from pg_recall import questions  # the sibling module (scripts run from this folder)


def tsvector_bm25(store: Any) -> Callable[..., list[tuple[str, float]]]:
    """`store.bm25` as it was before schema 5: the statement over every matching row's
    tsvector (document frequencies as now: cached after the warm-up either way)."""

    def bm25(
        terms: list[str], filters: SearchFilters, kinds: list[str] | None, limit: int
    ) -> list[tuple[str, float]]:
        words = fts.phrases(terms)
        if not words:
            return []
        total, freqs = store.chunk_count(), store._frequencies(words)
        where, params = where_clause(filters, kinds)
        sql = fts.bm25_sql("chunks", "c", ["tsv"], reads.CHUNK_FIELDS, where, len(words))
        idfs = [fts.idf(freqs[w], total) for w in words]
        rows = store._all(sql, (*words, *words, idfs, store._avgdl(), *params, limit))
        return [(str(r[0]), float(r[1])) for r in rows]

    return bm25


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sqlite")
    parser.add_argument("postgres")
    parser.add_argument("--what", choices=["bm25", "search"], default="search")
    parser.add_argument("--every", type=int, default=8, help="take every Nth question")
    args = parser.parse_args()
    asked = questions()[:: args.every]
    embedder = load_default_embedder(Path("~/.ctxhub").expanduser())
    lite: Any = open_store(args.sqlite, read_only=True)
    pg: Any = open_store(args.postgres, read_only=True)
    old: Any = open_store(args.postgres, read_only=True)
    old.bm25 = tsvector_bm25(old)

    def timer(store: Any) -> Callable[[str], object]:
        if args.what == "bm25":
            return lambda q: store.bm25(re.findall(r"\w+", q)[:12], SearchFilters(), None, 50)
        retriever = Retriever(store, embedder)
        return lambda q: retriever.search(SearchRequest(query=q, limit=10))

    runs = {"sqlite": timer(lite), "pg postings": timer(pg), "pg tsvector": timer(old)}
    for q in asked[:3]:  # warm: caches, the SQLite matrix, the model, document frequencies
        for run in runs.values():
            run(q)
    ms: dict[str, list[float]] = {name: [] for name in runs}
    for q in asked:
        for name, run in runs.items():
            start = time.perf_counter()
            run(q)
            ms[name].append((time.perf_counter() - start) * 1000)
    p50 = {name: statistics.median(v) for name, v in ms.items()}
    print(f"{args.what}, {len(asked)} questions, {pg.chunk_count():,} chunks (pg), "
          f"{lite.chunk_count():,} (sqlite):")  # fmt: skip
    for name, v in p50.items():
        print(f"  {name:12s} p50 {v:8.1f} ms  ({v / p50['sqlite']:.2f}x sqlite)")
    print(f"  postings vs tsvector: {p50['pg tsvector'] / p50['pg postings']:.2f}x faster")


if __name__ == "__main__":
    main()
