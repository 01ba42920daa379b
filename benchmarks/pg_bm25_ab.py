"""PostgreSQL BM25 statements, tsvectors vs postings: the same queries through
`fts.bm25_sql` (every matching row's tsvector read and scored) and
`fts.postings_bm25_sql` (the query lexemes' postings, schema 5), alternating, on one
PostgreSQL store; prints the medians, their ratio and whether both return the same ids
and scores (to 9 decimals).

    python benchmarks/pg_bm25_ab.py postgresql://... \\
        --queries benchmarks/eval/pipecat/pipecat_dev.jsonl [--kind api]

Query words: each question's first 12 (as the retriever's BM25 terms, roughly).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from typing import Any

from ctxhub.core.knowledge import SearchFilters
from ctxhub.store.factory import open_store
from ctxhub.store.postgres import fts, reads
from ctxhub.store.postgres.filters import where_clause


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("location")
    parser.add_argument("--queries", required=True, help="a JSONL eval set")
    parser.add_argument("--every", type=int, default=4, help="take every Nth question")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--kind", help="filter to one chunk kind (the filtered statement)")
    parser.add_argument("--limit", type=int, default=50)
    args = parser.parse_args()

    store: Any = open_store(args.location, read_only=True)
    with open(args.queries, encoding="utf-8") as lines:
        questions = [json.loads(line) for line in lines]
    queries = [re.findall(r"\w+", q["query"])[:12] for q in questions[:: args.every]]
    where, params = where_clause(SearchFilters(), [args.kind] if args.kind else None)

    def run(version: str, terms: list[str]) -> tuple[float, list[tuple[str, float]]]:
        words = fts.phrases(terms)
        freqs, total = store._frequencies(words), store.chunk_count()
        idfs = [fts.idf(freqs[w], total) for w in words]
        if version == "tsvector":
            sql = fts.bm25_sql("chunks", "c", ["tsv"], reads.CHUNK_FIELDS, where, len(words))
        else:
            sql = fts.postings_bm25_sql(where, len(words))
        start = time.perf_counter()
        rows = store._all(sql, (*words, *words, idfs, store._avgdl(), *params, args.limit))
        return time.perf_counter() - start, [(str(r[0]), round(float(r[1]), 9)) for r in rows]

    times: dict[str, list[float]] = {"tsvector": [], "postings": []}
    same = 0
    for terms in queries:
        for _ in range(args.repeats):
            before, after = run("tsvector", terms), run("postings", terms)
            times["tsvector"].append(before[0])
            times["postings"].append(after[0])
        same += before[1] == after[1]
    old, new = statistics.median(times["tsvector"]), statistics.median(times["postings"])
    print(
        f"{len(queries)} queries x{args.repeats}, {store.chunk_count()} chunks, "
        f"where {where!r}: tsvector p50 {old * 1000:.1f} ms, postings p50 {new * 1000:.1f} ms, "
        f"{old / new:.2f}x; same ids and scores {same}/{len(queries)}"
    )


if __name__ == "__main__":
    main()
