"""PostgreSQL BM25 statement, before vs after: the same queries through two versions of
`store/postgres/fts.bm25_sql`, alternating, on one PostgreSQL store; prints the medians,
their ratio and whether both return the same ids and scores.

    git show REV:src/ctxhub/store/postgres/fts.py > /tmp/fts_old.py
    python benchmarks/pg_bm25_ab.py postgresql://... --old /tmp/fts_old.py \
        --queries benchmarks/eval/pipecat/pipecat_dev.jsonl

REV: a commit before the statement took `columns` (fb776ce): its bm25_sql takes (table,
alias, fields over `c.tsv`, match, where, n). Query words: each question's first 12.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import statistics
import time
from typing import Any

from ctxhub.store.factory import open_store
from ctxhub.store.postgres import fts, reads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("location")
    parser.add_argument("--old", required=True, help="the previous fts.py")
    parser.add_argument("--queries", required=True, help="a JSONL eval set")
    parser.add_argument("--every", type=int, default=4, help="take every Nth question")
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()

    spec = importlib.util.spec_from_file_location("fts_old", args.old)
    assert spec and spec.loader
    old = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(old)
    store: Any = open_store(args.location, read_only=True)
    with open(args.queries, encoding="utf-8") as lines:
        questions = [json.loads(line) for line in lines]
    queries = [re.findall(r"\w+", q["query"])[:12] for q in questions[:: args.every]]
    old_fields = [(e.replace("v.tsv", "c.tsv"), w) for e, w in reads.CHUNK_FIELDS]

    def run(version: str, terms: list[str]) -> tuple[float, list[tuple[str, float]]]:
        words = fts.phrases(terms)
        freqs, total = store._frequencies(words), store.chunk_count()
        idfs = [fts.idf(freqs[w], total) for w in words]
        if version == "old":
            sql = old.bm25_sql("chunks", "c", old_fields, ["c.tsv"], "TRUE", len(words))
        else:
            sql = fts.bm25_sql("chunks", "c", ["tsv"], reads.CHUNK_FIELDS, "TRUE", len(words))
        start = time.perf_counter()
        rows = store._all(sql, (*words, *words, idfs, store._avgdl(), 50))
        return time.perf_counter() - start, [(str(r[0]), round(float(r[1]), 9)) for r in rows]

    times: dict[str, list[float]] = {"old": [], "new": []}
    same = 0
    for terms in queries:
        for _ in range(args.repeats):
            before, after = run("old", terms), run("new", terms)
            times["old"].append(before[0])
            times["new"].append(after[0])
        same += before[1] == after[1]
    p50_old, p50_new = statistics.median(times["old"]), statistics.median(times["new"])
    print(
        f"{len(queries)} queries x{args.repeats}, {store.chunk_count()} chunks: "
        f"old p50 {p50_old * 1000:.1f} ms, new p50 {p50_new * 1000:.1f} ms, "
        f"{p50_old / p50_new:.2f}x; same ids and scores {same}/{len(queries)}"
    )


if __name__ == "__main__":
    main()
