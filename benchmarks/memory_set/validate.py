#!/usr/bin/env python3
"""Structural check of the memory evaluation set (records, test queries, calibration queries).

Usage: python benchmarks/memory_set/validate.py  ->  prints counts, exits 1 on any problem.
It checks the files only; it does not run ctxhub.
"""

from __future__ import annotations

import collections
import json
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RECORD_FIELDS = {
    "key",
    "problem",
    "error_type",
    "stack_trace",
    "solution",
    "code_snippet",
    "code_diff",
    "language",
    "framework",
    "libraries",
    "tags",
    "file_path",
}
QUERY_FIELDS = {"id", "query", "code_context", "language", "framework", "category", "relevant"}
CATEGORIES = {"paraphrase", "error_code", "code_context", "no_answer"}


def load(name: str, errors: list[str]) -> list[dict[str, Any]]:
    rows = []
    for n, line in enumerate((HERE / name).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            errors.append(f"{name}:{n}: blank line")
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as e:
            errors.append(f"{name}:{n}: bad JSON: {e}")
    return rows


def norm(text: str) -> str:
    return re.sub(r"\W+", " ", text.lower()).strip()


def check_queries(
    name: str,
    queries: list[dict[str, Any]],
    records: dict[str, dict[str, Any]],
    errors: list[str],
) -> collections.Counter[str]:
    ids = collections.Counter(q.get("id") for q in queries)
    errors += [f"{name}: duplicate id {i}" for i, c in ids.items() if c > 1]
    for q in queries:
        where = f"{name}:{q.get('id')}"
        if set(q) != QUERY_FIELDS:
            errors.append(f"{where}: fields {sorted(set(q) ^ QUERY_FIELDS)} differ")
            continue
        if q["category"] not in CATEGORIES:
            errors.append(f"{where}: unknown category {q['category']!r}")
        rel = q["relevant"]
        if q["category"] == "no_answer":
            if rel:
                errors.append(f"{where}: no_answer query with relevant keys")
        elif not 1 <= len(rel) <= 2:
            errors.append(f"{where}: answerable query needs 1-2 relevant keys, has {len(rel)}")
        if (q["category"] == "code_context") != bool(q["code_context"]):
            errors.append(f"{where}: code_context must be set exactly on code_context queries")
        for key in rel:
            rec = records.get(key)
            if rec is None:
                errors.append(f"{where}: relevant key {key!r} not in records")
                continue
            # a filter must never exclude the gold record
            for f in ("language", "framework"):
                if q[f] is not None and rec[f] != q[f]:
                    errors.append(f"{where}: {f} filter {q[f]!r} excludes gold {key} ({rec[f]!r})")
    return collections.Counter(q["category"] for q in queries if "category" in q)


def main() -> int:
    errors: list[str] = []
    records_list = load("records.jsonl", errors)
    test = load("queries.jsonl", errors)
    cal = load("calibration.jsonl", errors)

    keys = collections.Counter(r.get("key") for r in records_list)
    errors += [f"records: duplicate key {k}" for k, c in keys.items() if c > 1]
    for r in records_list:
        if set(r) != RECORD_FIELDS:
            errors.append(f"records:{r.get('key')}: fields {sorted(set(r) ^ RECORD_FIELDS)} differ")
        elif not (r["problem"] and r["solution"] and r["language"]):
            errors.append(f"records:{r['key']}: problem/solution/language must be non-empty")
        elif not (isinstance(r["libraries"], list) and isinstance(r["tags"], list)):
            errors.append(f"records:{r['key']}: libraries/tags must be lists")
    records = {r["key"]: r for r in records_list if "key" in r}

    test_counts = check_queries("queries.jsonl", test, records, errors)
    cal_counts = check_queries("calibration.jsonl", cal, records, errors)

    overlap = {norm(q["query"]) for q in test} & {norm(q["query"]) for q in cal}
    errors += [f"query text in both test and calibration: {t!r}" for t in overlap]

    with_code = sum(1 for r in records_list if r.get("code_snippet") or r.get("code_diff"))
    with_trace = sum(1 for r in records_list if r.get("stack_trace"))
    gold = collections.Counter(k for q in test for k in q["relevant"])
    print(
        f"records: {len(records_list)} ({with_code} with code_snippet/code_diff, "
        f"{with_trace} with stack_trace)"
    )
    print(
        "records by language:",
        dict(collections.Counter(r["language"] for r in records_list).most_common()),
    )
    print(f"test queries: {len(test)}", dict(sorted(test_counts.items())))
    print(f"calibration queries: {len(cal)}", dict(sorted(cal_counts.items())))
    print(
        f"test: {sum(1 for q in test if len(q['relevant']) == 2)} queries with 2 relevant keys, "
        f"{len(gold)} distinct gold records, "
        f"{sum(1 for q in test if q['language'] or q['framework'])} with a filter"
    )
    if errors:
        print(f"\n{len(errors)} problem(s):")
        for e in errors:
            print("  -", e)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
