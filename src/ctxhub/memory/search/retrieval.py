"""search_solutions and search_by_approach: hybrid retrieval over records.

1. Candidates: dense over the problem space (the query), dense over the code-context
   space (the pasted code, or the query when it is error- or code-shaped), BM25 over
   problem, error type, stack trace, solution and code; then, among them, the records
   holding the question's exact error signature (`signature.py`), a path of its own.
2. Weighted RRF with weights chosen by the query's shape (`shape.SHAPE_WEIGHTS`; the
   signature path weighs SIGNATURE_WEIGHT whatever the shape).
3. Multipliers on every fused candidate, before truncation: the record's confidence,
   recency (half-life from last seen), the worked ratio once it has >= 3 ratings, and a
   small penalty when a linked knowledge symbol has changed since the record was written.
   Relevance is the same without the worked ratio: it picks which records are shown and
   which carry evidence; ratings only reorder them (demoted, never removed).
4. Each of the first DEPTH by relevance gets the probability that it answers the
   question (`evidence.py`); memory abstains when none reaches the threshold, and never
   when one holds the question's exact error signature. Those candidates are listed by
   that probability (times the worked ratio), so the listed scores read best first.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from ctxhub.core.errors import EmbedderError, InputError, StoreQueryError
from ctxhub.core.outputs import SolutionSearchResponse
from ctxhub.core.records import MemoryFilters, Record
from ctxhub.embed.base import Vectors
from ctxhub.memory.search import evidence
from ctxhub.memory.search import signature as sig
from ctxhub.memory.search.hits import record_hit
from ctxhub.memory.search.shape import MemoryQuery, analyze_memory_query
from ctxhub.search.fusion import max_fused, rrf
from ctxhub.session import HubSession

log = logging.getLogger(__name__)
T = TypeVar("T")

FETCH = 50
MIN_RATINGS = 3
STALE_FACTOR = 0.9
#: A dense hit below this cosine is not a hit: with few records, the top-k of a
#: dense path would otherwise rank unrelated records (RRF only sees ranks).
DENSE_MIN = 0.15
#: Ablation switches for the benchmark: which paths and which multipliers run. The
#: dense path is named after the space it searches: "problem" for search_solutions,
#: "solution" for search_by_approach.
ALL_PATHS = ("problem", "solution", "code", "bm25")
#: RRF weight of the exact-signature path: a record holding the pasted error's signature
#: outranks one that is only close in meaning or shares code.
SIGNATURE_WEIGHT = 1.5
NEAREST = 3  # records shown when nothing is relevant


@dataclass
class Ablation:
    paths: tuple[str, ...] = ALL_PATHS
    multipliers: bool = True
    signature: bool = True  # the exact-error-signature path


@dataclass
class Scored:
    record: Record
    fused: float
    score: float  # the ranking score: fused, normalised, times every multiplier
    signals: dict[str, tuple[int, float]]
    multipliers: dict[str, float]
    features: dict[str, float]
    relevance: float = 0.0  # the ranking score before ratings (what decides the features)
    probability: float = 0.0  # that this record answers the question (evidence.py)
    head: bool = False  # one of the first DEPTH by relevance, what the model was fitted on

    def order(self) -> tuple[bool, float, float]:
        """How it is listed: the first DEPTH by relevance first, by the probability that
        they answer times their worked ratio (ratings demote on the same scale), then the
        rest by the ranking score (deeper candidates are scored, but the model was fitted
        on the first DEPTH only)."""
        rated = self.probability * self.multipliers.get("worked_ratio", 1.0)
        return (self.head, rated if self.head else 0.0, self.score)


def multipliers(record: Record, now: float, half_life_days: float) -> dict[str, float]:
    """Each factor in [0.5, 1.5]; 1.0 means neutral."""
    age_days = max(0.0, now - record.last_seen) / 86400
    out = {
        "confidence": 0.5 + 0.5 * record.confidence,
        "recency": 0.5 + 0.5 * 0.5 ** (age_days / max(half_life_days, 1e-6)),
    }
    if record.ratings >= MIN_RATINGS:
        out["worked_ratio"] = 0.5 + record.worked / record.ratings
    if record.stale_symbols:
        out["stale"] = STALE_FACTOR
    return out


def _guarded(path: str, run: Callable[[], T]) -> T | None:
    """`run()`, or None when that one path fails: it is logged and the others fuse. A
    damaged store is not a failing path (fusing the rest would hide it), and neither is a
    bug: only a query the store or the model cannot run is skipped."""
    try:
        return run()
    except (StoreQueryError, EmbedderError) as exc:
        log.warning("memory retrieval path %s failed (%s); fusing the others", path, exc)
        log.debug("path %s failed", path, exc_info=True)
        return None


def _signature_path(
    asked: set[sig.Signature], records: dict[str, Record]
) -> list[tuple[str, float]]:
    """Candidates holding the question's exact error signature, best agreement first."""
    if not asked:
        return []
    found = [
        (rid, sig.best_match(asked, evidence.record_signatures(record)))
        for rid, record in records.items()
    ]
    return sorted(((r, s) for r, s in found if s >= sig.MATCH), key=lambda x: -x[1])


def rank_records(
    hub: HubSession,
    q: MemoryQuery,
    filters: MemoryFilters,
    *,
    main_space: str = "problem",
    bm25_fields: Sequence[str] | None = None,
    ablation: Ablation | None = None,
    scored_depth: int = evidence.DEPTH,
) -> list[Scored]:
    """Every candidate, fused and multiplied, best first; the first `scored_depth` (at
    least DEPTH) by relevance carry their evidence features and probability."""
    ablation = ablation or Ablation()
    model = hub.embedder.id
    texts = [q.text] + ([q.code_context] if q.code_context else [])
    embedded = hub.embedder.embed(texts)
    vectors: dict[str, Vectors] = {"query": embedded[0]}
    if q.code_context:
        vectors["context"] = embedded[1]
    ranked: dict[str, list[tuple[str, float]]] = {}
    weights = {p: w for p, w in q.weights.items() if p in ablation.paths}
    if "code" in weights and not q.code_context:
        weights["code"] *= 0.5  # the query itself stands in for code: count it less
    paths: dict[str, Callable[[], list[tuple[str, float]]]] = {}
    if main_space in weights:
        paths[main_space] = lambda: hub.store.record_dense(
            main_space, vectors["query"], model, filters, FETCH
        )
    if "code" in weights:
        code_query = vectors.get("context", vectors["query"])
        paths["code"] = lambda: hub.store.record_dense("code", code_query, model, filters, FETCH)
    if "bm25" in weights and q.terms:
        paths["bm25"] = lambda: hub.store.record_bm25(q.terms, filters, FETCH, bm25_fields)
    for path, run in paths.items():
        found = _guarded(path, run)
        if found is not None:
            ranked[path] = found
    backdrop = evidence.background([s for _, s in ranked.get(main_space, [])])
    for path in (main_space, "code"):
        if path in ranked:
            ranked[path] = [(d, s) for d, s in ranked[path] if s >= DENSE_MIN]
    ids = list(dict.fromkeys(d for found in ranked.values() for d, _ in found))
    records = {r.id: r for r in hub.store.get_records(ids)}
    asked = sig.signatures(f"{q.text}\n{q.code_context or ''}")
    exact = _signature_path(asked, records) if ablation.signature else []
    if exact:
        ranked["signature"] = exact
        weights["signature"] = SIGNATURE_WEIGHT
    fused = rrf(ranked, weights)
    if not fused:
        return []
    norm = max_fused(weights) or 1.0
    now = time.time()
    half_life = hub.settings.memory_half_life_days
    out: list[Scored] = []
    for doc_id, score, signals in fused:
        record = records.get(doc_id)
        if record is None:
            continue
        factors = multipliers(record, now, half_life) if ablation.multipliers else {}
        product = float(np.prod(list(factors.values()))) if factors else 1.0
        unrated = product / factors.get("worked_ratio", 1.0)
        out.append(
            Scored(
                record=record,
                fused=score,
                score=min(1.0, score / norm * product),
                signals={p: (s.rank, s.score) for p, s in signals.items()},
                multipliers={k: round(v, 4) for k, v in factors.items()},
                features={},
                relevance=min(1.0, score / norm * unrated),
            )
        )
    # Evidence is about relevance: a record rated as failing still answers the question
    # it answers (it may have failed in one context only); ratings only demote it below.
    out.sort(key=lambda s: -s.relevance)
    head = out[: max(evidence.DEPTH, scored_depth)]
    for item in head[: evidence.DEPTH]:
        item.head = True
    _add_evidence(hub, q, vectors, main_space, head, backdrop, exact, bool(asked))
    out.sort(key=Scored.order, reverse=True)
    return out


def _add_evidence(
    hub: HubSession,
    q: MemoryQuery,
    vectors: dict[str, Vectors],
    main_space: str,
    head: list[Scored],
    backdrop: float,
    exact: list[tuple[str, float]],
    asked: bool,
) -> None:
    model = hub.embedder.id
    terms = evidence.coverage_terms(q)
    stats = None
    if terms and head:
        ids = [s.record.id for s in head]
        stats = _guarded("term statistics", lambda: hub.store.record_term_stats(terms, ids))
    matched = {rid for rid, _ in exact}
    for i, item in enumerate(head):
        stored = hub.store.record_vectors(item.record.id, model)
        covered = evidence.word_coverage(terms, stats, item.record.id) if stats else 0.0
        item.features = evidence.features(
            item.record,
            stored,
            q,
            vectors,
            main_space,
            first=i == 0,
            coverage=covered,
            backdrop=backdrop,
            signature_match=item.record.id in matched,
            signature_asked=asked,
        )
        item.probability = evidence.probability(item.features)


def _findable(scored: list[Scored], window: int) -> list[Scored]:
    """The records relevance puts in the first `window`, in `Scored.order`: ratings
    reorder what is shown (a record that failed, perhaps in another context, moves down),
    they never remove a record relevance would show."""
    shown = sorted(scored, key=lambda s: -s.relevance)[:window]
    return sorted(shown, key=Scored.order, reverse=True)


def _respond(
    q: MemoryQuery, scored: list[Scored], limit: int, tool: str, threshold: float | None
) -> SolutionSearchResponse:
    """`threshold` None: never abstain (only an empty result is "nothing relevant")."""
    # the decision reads the first DEPTH by relevance, as the model was fitted
    by_relevance = sorted(scored, key=lambda s: -s.relevance)[: evidence.DEPTH]
    head = [s for s in by_relevance if s.features]
    probabilities = [s.probability for s in head]
    confidence = round(max(probabilities, default=0.0), 4)
    nothing = not scored or (
        threshold is not None and not evidence.answered(head, probabilities, threshold)
    )
    top = _findable(scored, NEAREST if nothing else limit)
    hits = [
        record_hit(s.record, s.probability, s.score, s.signals, s.multipliers, s.features)
        for s in top
    ]
    message = ""
    if nothing:
        message = (
            "Nothing relevant in memory for this query."
            " After you solve it, call log_solution so the next agent finds it."
        )
    return SolutionSearchResponse(
        query=q.text,
        tool=tool,
        shape=q.shape,
        weights=q.weights,
        hits=[] if nothing else hits,
        nearest=hits if nothing else [],
        confidence=confidence,
        nothing_relevant=nothing,
        message=message,
        candidates=len(scored),
    )


def _check(query: str, limit: int) -> str:
    query = query.strip()
    if not query:
        raise InputError("query must not be empty")
    if not 1 <= limit <= 50:
        raise InputError(f"limit must be between 1 and 50 (got {limit})")
    return query


def search_solutions(
    hub: HubSession,
    query: str,
    *,
    code_context: str | None = None,
    filters: MemoryFilters | None = None,
    limit: int = 5,
    ablation: Ablation | None = None,
) -> SolutionSearchResponse:
    query = _check(query, limit)
    q = analyze_memory_query(query, (code_context or "").strip() or None)
    scored = rank_records(hub, q, filters or MemoryFilters(), ablation=ablation, scored_depth=limit)
    floor = hub.settings.memory_floor
    threshold = evidence.THRESHOLD if floor is None else floor
    return _respond(q, scored, limit, "search_solutions", threshold)


def search_by_approach(
    hub: HubSession, approach: str, *, filters: MemoryFilters | None = None, limit: int = 5
) -> SolutionSearchResponse:
    """Records whose solution takes this approach ("pin the dependency", "use a lock").

    It never abstains: the floor was calibrated on problem queries, and there are no
    labelled approach queries to calibrate one for solutions (confidence is still
    reported, on the same scale)."""
    approach = _check(approach, limit)
    q = analyze_memory_query(approach)
    q.shape = "natural"
    q.weights = {"solution": 1.0, "bm25": 0.8}
    scored = rank_records(
        hub, q, filters or MemoryFilters(), main_space="solution", bm25_fields=("solution", "code")
    )
    return _respond(q, scored, limit, "search_by_approach", None)
