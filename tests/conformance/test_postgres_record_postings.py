"""PostgreSQL only: memory BM25 from `record_postings` (schema 6) ranks exactly as BM25
from the records' tsvectors, counts the same term frequencies, and the triggers keep
the postings in step with every record write."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ctxhub.core.records import MemoryFilters, Record
from ctxhub.memory.search.shape import analyze_memory_query
from ctxhub.store.factory import open_store
from ctxhub.store.postgres import fts
from ctxhub.store.postgres.filters import memory_where
from ctxhub.store.postgres.memory_reads import FTS_COLUMNS
from ctxhub.store.sqlite.memory_rows import RECORD_BM25_WEIGHTS

SETS = Path(__file__).parents[2] / "benchmarks"
FIELDS = (None, ["solution"], ["problem", "error_type"], ["code", "stack_trace"])


def _records() -> list[Record]:
    """The memory sets' real records (text fields, language, framework)."""
    out = []
    for name in ("memory_set", "memory_set2"):
        for n, line in enumerate((SETS / name / "records.jsonl").read_text().splitlines()):
            d = json.loads(line)
            keep = ("problem", "solution", "error_type", "stack_trace", "code_snippet")
            fields = {k: d[k] for k in (*keep, "language", "framework") if d.get(k)}
            out.append(Record(id=f"{name}-{n}", **fields))
    return out


def _queries() -> list[list[str]]:
    lines = (SETS / "memory_set" / "queries.jsonl").read_text().splitlines()[::6]
    return [analyze_memory_query(json.loads(line)["query"], None).terms for line in lines]


def _tsvector_ranking(
    store: Any, terms: list[str], fields: list[str] | None, filters: MemoryFilters
) -> list[tuple[str, float]]:
    """The schema-5 statement: BM25 over every matching record's tsvectors, with the
    frequencies counted by matching every record."""
    words = fts.phrases(terms)
    chosen = [f for f in FTS_COLUMNS if not fields or f in fields]
    matches = [
        "(" + " OR ".join(f"r.tsv_{f} @@ q.q{i}" for f in chosen) + ")" for i in range(len(words))
    ]
    row = store._one(
        f"WITH {fts.query_cte(len(words))} SELECT count(*), "
        + ", ".join(f"count(*) FILTER (WHERE {m})" for m in matches)
        + " FROM records r, q",
        words,
    )
    idfs = [fts.idf(int(n), int(row[0])) for n in row[1:]]
    weight = dict(zip(FTS_COLUMNS, RECORD_BM25_WEIGHTS, strict=True))
    where, params = memory_where(filters)
    statement = fts.bm25_sql(
        "records",
        "r",
        [f"tsv_{f}" for f in chosen],
        [(f"v.tsv_{f}", weight[f]) for f in chosen],
        where,
        len(words),
    )
    args = (*words, *words, idfs, store._record_avgdl(), *params, 20)
    return [(str(r[0]), round(float(r[1]), 9)) for r in store._all(statement, args)]


@pytest.fixture
def memory(pg_url: str) -> Any:
    with open_store(pg_url) as store:
        for record in _records():
            store.put_record(record, f"h-{record.id}", None, "m")
        yield store


@pytest.mark.parametrize("fields", FIELDS)
def test_record_postings_rank_as_the_tsvectors(memory: Any, fields: list[str] | None) -> None:
    found = []
    for terms in [*_queries(), ["pip install", "docker"], ["nosuchwordanywhere"]]:
        for filters in (MemoryFilters(), MemoryFilters(language="python")):
            old = _tsvector_ranking(memory, terms, fields, filters)
            new = [(i, round(s, 9)) for i, s in memory.record_bm25(terms, filters, 20, fields)]
            found.append((old, new))
    assert all(old == new for old, new in found), [p for p in found if p[0] != p[1]][:1]
    assert sum(1 for _, new in found if new) >= len(found) // 2  # the queries do match


def test_term_stats_count_as_matching_every_record(memory: Any) -> None:
    terms = ["pip", "install", "module not found", "nosuchwordanywhere", '"', "docker"]
    ids = ["memory_set-0", "memory_set-3", "memory_set2-7", "no-such-record"]
    stats = memory.record_term_stats(terms, ids)
    for term in terms[:4] + terms[5:]:
        words = fts.phrases([term])
        where = " OR ".join(f"r.tsv_{f} @@ q.q0" for f in FTS_COLUMNS)
        rows = memory._all(
            f"WITH {fts.query_cte(1)} SELECT r.id FROM records r, q WHERE {where}", words
        )
        assert stats.doc_freq[term] == len(rows)
        assert {i for i in ids[:3] if term in stats.present[i]} == {
            str(r[0]) for r in rows if str(r[0]) in ids
        }
    assert '"' not in stats.doc_freq and "no-such-record" not in stats.present
    assert stats.doc_freq["pip"] > 0 and stats.doc_freq["nosuchwordanywhere"] == 0


def test_record_postings_follow_writes(memory: Any) -> None:
    def postings(rid: str) -> int:
        return int(
            memory._one(
                "SELECT count(*) FROM record_postings p JOIN records r ON r.rowid = p.record "
                "WHERE r.id = %s",
                (rid,),
            )[0]
        )

    before = postings("memory_set-0")
    assert before > 0
    changed = Record(id="memory_set-0", problem="zebra crossing", solution="wait for green")
    memory.put_record(changed, "h-new", None, "m")  # texts rewritten in place
    assert postings("memory_set-0") == 5  # zebra, cross, wait, for, green (no stop words)
    assert [i for i, _ in memory.record_bm25(["zebra"], MemoryFilters(), 5)] == ["memory_set-0"]
    memory.add_occurrence("memory_set-0", ["t"], 1.0)  # no text change: postings kept
    assert postings("memory_set-0") == 5
    assert memory.delete_record("memory_set-0")
    assert memory.record_bm25(["zebra"], MemoryFilters(), 5) == []
    orphans = memory._one(
        "SELECT count(*) FROM record_postings p LEFT JOIN records r ON r.rowid = p.record "
        "WHERE r.rowid IS NULL"
    )[0]
    assert orphans == 0
