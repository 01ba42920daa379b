"""Scoring memory search on a labelled set (benchmarks/memory_set, benchmarks/memory_set2),
the way issue 14 measures it: a fresh store, every record logged with the `log_solution`
tool, every query asked through the `search_solutions` tool exactly as an MCP client calls
it (`tools/run.call`), the response read as a ranked list (its hits, or the nearest records
when it abstains). Also the evidence features of each query's candidates, to fit the
abstention model on one set and check it on the other. Used by benchmarks/memory.py and
the quality gate in tests/quality."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ctxhub.core.records import MemoryFilters
from ctxhub.memory.search import evidence
from ctxhub.memory.search import retrieval as memsearch
from ctxhub.memory.search.shape import MemoryQuery, analyze_memory_query
from ctxhub.session import HubSession


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


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


# --- Evidence features, for fitting and ablating the abstention ---------------------------


@dataclass
class Candidates:
    """One query's ranking (record keys by the final score) and, for the first DEPTH by
    relevance, each candidate's keys, features and whether it is gold."""

    query: dict[str, Any]
    ranked: list[str]
    head: list[tuple[bool, dict[str, float]]]


#: Features a study adds to each head candidate (benchmarks/memory_features.py): given
#: the session, the analysed query and the head, one dict per head candidate.
Extra = Callable[[HubSession, MemoryQuery, list[memsearch.Scored]], list[dict[str, float]]]


def collect(
    hub: HubSession,
    ids: dict[str, set[str]],
    queries: list[dict[str, Any]],
    ablation: memsearch.Ablation | None = None,
    extra: Extra | None = None,
) -> list[Candidates]:
    out: list[Candidates] = []
    for q in queries:
        mq = analyze_memory_query(q["query"], q.get("code_context"))
        filters = MemoryFilters(language=q.get("language"), framework=q.get("framework"))
        scored = memsearch.rank_records(hub, mq, filters, ablation=ablation)
        ranked = [k for s in scored[:10] for k in sorted(ids.get(s.record.id, {"?"}))]
        by_relevance = [s for s in sorted(scored, key=lambda s: -s.relevance) if s.features]
        by_relevance = by_relevance[: evidence.DEPTH]
        added = extra(hub, mq, by_relevance) if extra else [{} for _ in by_relevance]
        head = [
            (bool(ids.get(s.record.id, set()) & set(q["relevant"])), {**s.features, **more})
            for s, more in zip(by_relevance, added, strict=True)
        ]
        out.append(Candidates(q, ranked, head))
    return out


#: L2 strengths (on standardised features) cross-validation chooses from.
L2_GRID = (0.05, 0.02, 0.01, 0.005, 0.002, 0.001)
FOLDS = 5


def _matrix(rows: list[Candidates], names: tuple[str, ...]) -> tuple[Any, Any]:
    import numpy as np

    x = np.array([[f.get(n, 0.0) for n in names] for c in rows for _, f in c.head])
    y = np.array([float(gold) for c in rows for gold, _ in c.head])
    return x, y


def _logistic(x: Any, y: Any, l2: float) -> tuple[Any, float]:
    """Gradient descent with L2 on standardised features; (weights in raw units, bias)."""
    import numpy as np

    mu, sd = x.mean(0), x.std(0) + 1e-6
    z = (x - mu) / sd
    w, b = np.zeros(x.shape[1]), 0.0
    for _ in range(3000):
        p = 1 / (1 + np.exp(-(z @ w + b)))
        w -= 0.2 * (z.T @ (p - y) / len(y) + l2 * w)
        b -= 0.2 * float((p - y).mean())
    raw = w / sd
    return raw, b - float((mu * raw).sum())


def choose_l2(rows: list[Candidates], names: tuple[str, ...]) -> float:
    """The L2 strength of L2_GRID with the lowest log-loss in FOLDS-fold cross-validation
    over the fitting set's queries (a query's candidates stay in one fold)."""
    import numpy as np

    losses: dict[float, float] = {}
    for l2 in L2_GRID:
        total, count = 0.0, 0
        for fold in range(FOLDS):
            train = [c for i, c in enumerate(rows) if i % FOLDS != fold]
            held = [c for i, c in enumerate(rows) if i % FOLDS == fold]
            w, b = _logistic(*_matrix(train, names), l2)
            x, y = _matrix(held, names)
            if not len(y):
                continue
            p = np.clip(1 / (1 + np.exp(-(x @ w + b))), 1e-6, 1 - 1e-6)
            total += float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).sum())
            count += len(y)
        losses[l2] = total / max(count, 1)
    return min(losses, key=lambda k: losses[k])


def fit_model(
    rows: list[Candidates], names: tuple[str, ...], l2: float | None = None
) -> tuple[dict[str, float], float]:
    """Logistic regression, per candidate, of "this record is gold" on `names`; returns
    (weights in raw feature units, bias). `l2` None: chosen by cross-validation."""
    chosen = choose_l2(rows, names) if l2 is None else l2
    raw, bias = _logistic(*_matrix(rows, names), chosen)
    return {n: round(float(v), 3) for n, v in zip(names, raw, strict=True)}, round(bias, 3)


def decisions(
    rows: list[Candidates],
    weights: dict[str, float],
    bias: float,
    threshold: float,
    signature_rule: bool = True,
) -> list[bool]:
    """Abstained or not, per query, under a model (as `evidence.answered` decides)."""
    out = []
    for c in rows:
        best = max((evidence.probability(f, weights, bias) for _, f in c.head), default=0.0)
        exact = signature_rule and any(f.get("signature", 0.0) >= 1 for _, f in c.head)
        out.append(not exact and best < threshold)
    return out


#: The most answerable questions of the fitting set the threshold may abstain on: the
#: issue's false-abstention target (docs/MEMORY.md says what else was tried).
FIT_FALSE_ABSTAIN = 0.05
#: The share of the fitting set's no-answer questions the threshold aims to abstain on:
#: the issue's target, and no more (each step above it hides answers on a harder set).
FIT_NO_ANSWER = 0.75
_STEPS = [i / 200 for i in range(1, 200)]


def _shares(
    rows: list[Candidates], weights: dict[str, float], bias: float, t: float
) -> tuple[float, float]:
    """(answerable abstained, no-answer abstained) at threshold `t`."""
    made = decisions(rows, weights, bias, t)
    yes = [a for c, a in zip(rows, made, strict=True) if c.query["relevant"]]
    no = [a for c, a in zip(rows, made, strict=True) if not c.query["relevant"]]
    return sum(yes) / max(len(yes), 1), sum(no) / max(len(no), 1)


def fit_threshold(
    rows: list[Candidates],
    weights: dict[str, float],
    bias: float,
    budget: float = FIT_FALSE_ABSTAIN,
    target: float | None = FIT_NO_ANSWER,
) -> float:
    """The lowest threshold that abstains on `target` of the fitting set's no-answer
    questions, and never one that abstains on more than `budget` of its answerable ones:
    abstention is bought with no-answer questions, never with answers, and only as much
    as the target asks (the highest threshold within the budget sits on the edge of the
    fitting set's answers, and an easier set's edge hides a harder set's answers).
    `target` None: the highest threshold within the budget."""
    capped = 0.0
    for t in _STEPS:
        if _shares(rows, weights, bias, t)[0] <= budget:
            capped = t
    if target is not None:
        for t in _STEPS:
            if t >= capped or _shares(rows, weights, bias, t)[1] >= target:
                return round(min(t, capped), 3)
    return round(capped, 3)
