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


# --- Through the tools, as an MCP client calls them (issue 14's protocol) ---------------

#: Query categories whose text is a pasted exact error (both sets call them so).
EXACT_ERROR = frozenset({"error_code"})


def log_store(hub: HubSession, records: list[dict[str, Any]]) -> dict[str, set[str]]:
    """Log every record with the `log_solution` tool into a fresh store; returns {stored
    id: the keys stored under it} (a record merged into another answers for both)."""
    from ctxhub.core.records import LogResult
    from ctxhub.tools.run import call

    ids: dict[str, set[str]] = {}
    for row in records:
        fields = {k: v for k, v in row.items() if k != "key" and v is not None}
        result = call(hub, "log_solution", **fields).output
        assert isinstance(result, LogResult)
        ids.setdefault(result.id, set()).add(row["key"])
    return ids


@dataclass
class ToolOutcome:
    query: dict[str, Any]
    ranked: list[str]  # record keys as the response lists them (hits, or nearest)
    abstained: bool
    seconds: float


def ask(hub: HubSession, ids: dict[str, set[str]], query: dict[str, Any]) -> ToolOutcome:
    """One query through the `search_solutions` tool (limit 10)."""
    from ctxhub.core.outputs import SolutionSearchResponse
    from ctxhub.tools.run import call

    args = {k: query.get(k) for k in ("code_context", "language", "framework") if query.get(k)}
    started = time.perf_counter()
    found = call(hub, "search_solutions", query=query["query"], limit=10, **args).output
    seconds = time.perf_counter() - started
    assert isinstance(found, SolutionSearchResponse)
    listed = found.nearest if found.nothing_relevant else found.hits
    ranked: list[str] = []
    for hit in listed:
        for key in sorted(ids.get(hit.id, {"?"})):
            ranked.append(key)
    return ToolOutcome(query, ranked, found.nothing_relevant, seconds)


@dataclass
class EndToEnd:
    """Issue 14's figures. Ranking (R@1, MRR) reads each response as a ranked list (hits,
    or the nearest records when it abstains); end-to-end R@1 counts an abstained
    answerable query as a miss."""

    recall1: float
    mrr: float
    exact_recall1: float  # R@1 over the pasted-exact-error queries
    false_abstain: float  # answerable queries abstained
    abstain_ok: float  # no-answer queries abstained
    e2e_recall1: float
    answerable: int
    no_answer: int
    by_category: dict[str, float] = field(default_factory=dict)  # R@1; no_answer: abstained

    def row(self) -> str:
        return (
            f"| {self.recall1:.3f} | {self.mrr:.3f} | {self.exact_recall1:.3f}"
            f" | {self.false_abstain:.3f} | {self.abstain_ok:.3f} | {self.e2e_recall1:.3f} |"
        )


HEADER = (
    "| R@1 | MRR@10 | exact-error R@1 | false abstention | no-answer abstained | e2e R@1 |\n"
    "|---|---|---|---|---|---|"
)


def rank_of(ranked: list[str], relevant: list[str]) -> int | None:
    for i, key in enumerate(ranked[:10], start=1):
        if key in relevant:
            return i
    return None


def end_to_end(
    queries: list[dict[str, Any]], ranked: list[list[str]], abstained: list[bool]
) -> EndToEnd:
    """The figures from each query's ranked keys and abstention decision."""
    rows = list(zip(queries, ranked, abstained, strict=True))
    yes = [(q, rank_of(r, q["relevant"]), a) for q, r, a in rows if q["relevant"]]
    no = [a for q, _, a in rows if not q["relevant"]]
    exact = [r == 1 for q, r, _ in yes if q["category"] in EXACT_ERROR]
    cats: dict[str, list[float]] = {}
    for q, r, _ in yes:
        cats.setdefault(q["category"], []).append(float(r == 1))
    for q, _, a in rows:
        if not q["relevant"]:
            cats.setdefault(q["category"], []).append(float(a))
    n = max(len(yes), 1)
    return EndToEnd(
        recall1=sum(r == 1 for _, r, _ in yes) / n,
        mrr=sum(1 / r for _, r, _ in yes if r is not None) / n,
        exact_recall1=sum(exact) / max(len(exact), 1),
        false_abstain=sum(a for _, _, a in yes) / n,
        abstain_ok=sum(no) / max(len(no), 1),
        e2e_recall1=sum(r == 1 and not a for _, r, a in yes) / n,
        answerable=len(yes),
        no_answer=len(no),
        by_category={k: sum(v) / len(v) for k, v in sorted(cats.items())},
    )
