"""Scoring memory search on a labelled set (benchmarks/memory_set): the records are stored
under deterministic ids, each query runs through the same ranking as search_solutions,
and the metrics are Recall@1/@5, MRR@10 and abstention. Used by benchmarks/memory.py and
the quality gate in tests/quality."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ctxhub.core.records import MemoryFilters, RecordInput, record_id_for
from ctxhub.memory.records.log import upsert_record
from ctxhub.memory.search import evidence
from ctxhub.memory.search import retrieval as memsearch
from ctxhub.memory.search.shape import analyze_memory_query
from ctxhub.session import HubSession

VARIANTS: list[tuple[str, memsearch.Ablation]] = [
    ("problem space only", memsearch.Ablation(paths=("problem",), multipliers=False)),
    ("+ code-context space", memsearch.Ablation(paths=("problem", "code"), multipliers=False)),
    ("+ BM25", memsearch.Ablation(paths=("problem", "code", "bm25"), multipliers=False)),
    ("+ multipliers (full ranker)", memsearch.Ablation()),
]


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def build_store(hub: HubSession, records: list[dict[str, Any]]) -> dict[str, str]:
    """Store every record (by a deterministic id); returns {record id: key}."""
    keys: dict[str, str] = {}
    for row in records:
        data = {k: v for k, v in row.items() if k != "key" and v is not None}
        rid = record_id_for("bench", row["key"])
        result = upsert_record(hub, rid, RecordInput.model_validate(data))
        if result.action == "merged":  # the set's records are distinct problems
            raise ValueError(f"record {row['key']} merged into {result.matched_id}")
        keys[rid] = row["key"]
    return keys


@dataclass
class Outcome:
    query: dict[str, Any]
    ranked: list[str]  # record keys, best first
    evidence: float
    seconds: float
    features: dict[str, float] = field(default_factory=dict)  # of the deciding candidate


@dataclass
class Metrics:
    recall1: float
    recall5: float
    mrr: float
    e2e_recall5: float
    abstain_ok: float  # share of no-answer queries abstained
    false_abstain: float  # share of answerable queries abstained
    by_category: dict[str, float] = field(default_factory=dict)  # R@5 (abstention: accuracy)


def run(
    hub: HubSession,
    keys: dict[str, str],
    queries: list[dict[str, Any]],
    ablation: memsearch.Ablation,
) -> list[Outcome]:
    out: list[Outcome] = []
    for q in queries:
        started = time.perf_counter()
        mq = analyze_memory_query(q["query"], q.get("code_context"))
        filters = MemoryFilters(language=q.get("language"), framework=q.get("framework"))
        scored = memsearch.rank_records(hub, mq, filters, ablation=ablation)
        seconds = time.perf_counter() - started
        ranked = [keys.get(s.record.id, "?") for s in scored[:10]]
        chosen = evidence.carrier(scored)
        feats = dict(chosen.features) if chosen is not None else {}
        strength = evidence.evidence(feats)  # what best_evidence returns
        out.append(Outcome(q, ranked, strength, seconds, feats))
    return out


def metrics(outcomes: list[Outcome], floor: float) -> Metrics:
    """Ranking metrics over answerable queries; abstention at `floor` on both kinds."""
    answerable = [o for o in outcomes if o.query["relevant"]]
    unanswerable = [o for o in outcomes if not o.query["relevant"]]

    def first(o: Outcome) -> int | None:
        for i, key in enumerate(o.ranked, start=1):
            if key in o.query["relevant"]:
                return i
        return None

    ranks = [first(o) for o in answerable]
    n = max(len(answerable), 1)
    abstained = [o.evidence < floor for o in answerable]
    cats: dict[str, list[float]] = {}
    for o, r in zip(answerable, ranks, strict=True):
        cats.setdefault(o.query["category"], []).append(float(r is not None and r <= 5))
    for o in unanswerable:
        cats.setdefault(o.query["category"], []).append(float(o.evidence < floor))
    return Metrics(
        recall1=sum(r == 1 for r in ranks) / n,
        recall5=sum(r is not None and r <= 5 for r in ranks) / n,
        mrr=sum(1 / r for r in ranks if r is not None) / n,
        e2e_recall5=sum(
            r is not None and r <= 5 and not a for r, a in zip(ranks, abstained, strict=True)
        )
        / n,
        abstain_ok=sum(o.evidence < floor for o in unanswerable) / max(len(unanswerable), 1),
        false_abstain=sum(abstained) / n,
        by_category={k: sum(v) / len(v) for k, v in sorted(cats.items())},
    )
