"""Structural checker for the memory_set2 evaluation set (stdlib only).

Usage: python validate_set2.py [DIR]   (DIR defaults to the folder holding this file)

Checks records.jsonl and queries.jsonl: fields and types, unique keys and ids,
that every relevant key exists, that no_answer queries have no gold, that the
language/framework filters never exclude a gold record, the category minimums,
the language spread, and that no query text repeats a record's problem.
Prints category and language counts. Exits 1 on any failure.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

RECORD_FIELDS: dict[str, tuple[type, ...]] = {
    "key": (str,),
    "problem": (str,),
    "error_type": (str, type(None)),
    "stack_trace": (str, type(None)),
    "solution": (str,),
    "code_snippet": (str, type(None)),
    "code_diff": (str, type(None)),
    "language": (str,),
    "framework": (str, type(None)),
    "libraries": (list,),
    "tags": (list,),
    "file_path": (str, type(None)),
}
QUERY_FIELDS: dict[str, tuple[type, ...]] = {
    "id": (str,),
    "query": (str,),
    "code_context": (str, type(None)),
    "language": (str, type(None)),
    "framework": (str, type(None)),
    "category": (str,),
    "relevant": (list,),
}
CATEGORY_MINIMUMS: dict[str, int] = {
    "paraphrase": 20,
    "error_code": 20,
    "code_context": 14,
    "confusable": 14,
    "no_answer": 24,
}
MIN_RECORDS = 84
MIN_QUERIES = 96
MIN_LANGUAGES = 8
MAX_LANGUAGE_SHARE = 0.30
KEY_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
ID_RE = re.compile(r"^m2-\d{3}$")
LOWER_RE = re.compile(r"^[a-z0-9][a-z0-9+#._-]*$")


def load_jsonl(path: Path, errors: list[str]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    if not path.is_file():
        errors.append(f"{path.name}: file not found")
        return rows
    with path.open(encoding="utf-8") as handle:
        for lineno, line in enumerate(handle, start=1):
            if not line.strip():
                errors.append(f"{path.name}:{lineno}: blank line")
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                errors.append(f"{path.name}:{lineno}: invalid JSON ({exc})")
                continue
            if not isinstance(value, dict):
                errors.append(f"{path.name}:{lineno}: not a JSON object")
                continue
            rows.append(value)
    return rows


def check_fields(
    row: dict[str, Any], spec: dict[str, tuple[type, ...]], where: str, errors: list[str]
) -> bool:
    ok = True
    missing = sorted(set(spec) - set(row))
    extra = sorted(set(row) - set(spec))
    if missing:
        errors.append(f"{where}: missing fields {missing}")
        ok = False
    if extra:
        errors.append(f"{where}: unexpected fields {extra}")
        ok = False
    for name, types in spec.items():
        if name in row and not isinstance(row[name], types):
            errors.append(f"{where}: field {name!r} has type {type(row[name]).__name__}")
            ok = False
    return ok


def non_empty(value: Any) -> bool:
    return isinstance(value, str) and value.strip() != ""


def check_records(records: list[dict[str, Any]], errors: list[str]) -> dict[str, dict[str, Any]]:
    by_key: dict[str, dict[str, Any]] = {}
    for index, rec in enumerate(records, start=1):
        where = f"records.jsonl:{index}"
        if not check_fields(rec, RECORD_FIELDS, where, errors):
            continue
        key: str = rec["key"]
        where = f"record {key!r}"
        if not KEY_RE.match(key):
            errors.append(f"{where}: key is not a lowercase slug")
        if key in by_key:
            errors.append(f"{where}: duplicate key")
        by_key[key] = rec
        for name in ("problem", "solution"):
            if not non_empty(rec[name]):
                errors.append(f"{where}: {name} is empty")
        for name in ("error_type", "stack_trace", "code_snippet", "code_diff", "file_path"):
            if rec[name] is not None and not non_empty(rec[name]):
                errors.append(f"{where}: {name} is an empty string (use null)")
        if not LOWER_RE.match(rec["language"]):
            errors.append(f"{where}: language {rec['language']!r} is not lowercase")
        framework = rec["framework"]
        if framework is not None and not LOWER_RE.match(framework):
            errors.append(f"{where}: framework {framework!r} is not lowercase")
        for name in ("libraries", "tags"):
            items: list[Any] = rec[name]
            if not all(non_empty(item) for item in items):
                errors.append(f"{where}: {name} must be a list of non-empty strings")
        if not rec["tags"]:
            errors.append(f"{where}: tags is empty")
        diff = rec["code_diff"]
        if isinstance(diff, str):
            lines = diff.splitlines()
            if not any(line.startswith(("+", "-")) for line in lines):
                errors.append(f"{where}: code_diff has no -/+ lines")
    return by_key


def check_queries(
    queries: list[dict[str, Any]],
    by_key: dict[str, dict[str, Any]],
    errors: list[str],
) -> None:
    seen_ids: set[str] = set()
    problems = {" ".join(rec["problem"].lower().split()) for rec in by_key.values()}
    for index, query in enumerate(queries, start=1):
        where = f"queries.jsonl:{index}"
        if not check_fields(query, QUERY_FIELDS, where, errors):
            continue
        qid: str = query["id"]
        where = f"query {qid!r}"
        if not ID_RE.match(qid):
            errors.append(f"{where}: id does not look like m2-NNN")
        if qid in seen_ids:
            errors.append(f"{where}: duplicate id")
        seen_ids.add(qid)
        if not non_empty(query["query"]):
            errors.append(f"{where}: empty query")
        elif " ".join(query["query"].lower().split()) in problems:
            errors.append(f"{where}: query text equals a record's problem")
        category: str = query["category"]
        if category not in CATEGORY_MINIMUMS:
            errors.append(f"{where}: unknown category {category!r}")
        context = query["code_context"]
        if category == "code_context" and not non_empty(context):
            errors.append(f"{where}: code_context query without code_context")
        if category != "code_context" and context is not None:
            errors.append(f"{where}: code_context set on a {category} query")
        relevant: list[Any] = query["relevant"]
        if not all(isinstance(key, str) for key in relevant):
            errors.append(f"{where}: relevant must be a list of strings")
            continue
        if len(set(relevant)) != len(relevant):
            errors.append(f"{where}: duplicate keys in relevant")
        if category == "no_answer":
            if relevant:
                errors.append(f"{where}: no_answer query must have relevant == []")
        elif not relevant:
            errors.append(f"{where}: answerable query has no relevant keys")
        for key in relevant:
            rec = by_key.get(key)
            if rec is None:
                errors.append(f"{where}: relevant key {key!r} does not exist")
                continue
            for name in ("language", "framework"):
                wanted = query[name]
                if wanted is not None and rec[name] != wanted:
                    errors.append(
                        f"{where}: {name} filter {wanted!r} excludes gold {key!r} "
                        f"({name}={rec[name]!r})"
                    )


def report(records: list[dict[str, Any]], queries: list[dict[str, Any]], errors: list[str]) -> None:
    languages = Counter(str(rec.get("language")) for rec in records)
    categories = Counter(str(query.get("category")) for query in queries)
    total = len(records)
    print(f"records: {total}")
    for language, count in languages.most_common():
        share = count / total if total else 0.0
        print(f"  {language:<12} {count:>3}  ({share:.0%})")
    with_code = sum(1 for rec in records if rec.get("code_snippet") or rec.get("code_diff"))
    with_trace = sum(1 for rec in records if rec.get("stack_trace"))
    text_only = sum(
        1
        for rec in records
        if not (rec.get("code_snippet") or rec.get("code_diff") or rec.get("stack_trace"))
    )
    print(f"  with code_snippet/code_diff: {with_code}")
    print(f"  with stack_trace: {with_trace}")
    print(f"  text-only (no trace, no code): {text_only}")
    print(f"queries: {len(queries)}")
    for category in CATEGORY_MINIMUMS:
        print(f"  {category:<13} {categories.get(category, 0):>3}")
    filtered = sum(1 for q in queries if q.get("language") or q.get("framework"))
    print(f"  with a language/framework filter: {filtered}")

    if total < MIN_RECORDS:
        errors.append(f"only {total} records (need >= {MIN_RECORDS})")
    if len(queries) < MIN_QUERIES:
        errors.append(f"only {len(queries)} queries (need >= {MIN_QUERIES})")
    if len(languages) < MIN_LANGUAGES:
        errors.append(f"only {len(languages)} languages (need >= {MIN_LANGUAGES})")
    for language, count in languages.items():
        if total and count / total > MAX_LANGUAGE_SHARE:
            errors.append(f"language {language!r} has {count}/{total} records (> 30%)")
    for category, minimum in CATEGORY_MINIMUMS.items():
        if categories.get(category, 0) < minimum:
            errors.append(f"category {category!r} has {categories.get(category, 0)} < {minimum}")


def main(argv: list[str]) -> int:
    base = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent
    errors: list[str] = []
    records = load_jsonl(base / "records.jsonl", errors)
    queries = load_jsonl(base / "queries.jsonl", errors)
    by_key = check_records(records, errors)
    check_queries(queries, by_key, errors)
    report(records, queries, errors)
    if errors:
        print(f"\nFAILED with {len(errors)} problem(s):")
        for error in errors:
            print(f"  - {error}")
        return 1
    print("\nOK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
