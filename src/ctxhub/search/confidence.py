"""A 0-1 confidence for a response, and follow-up queries when it is low.

The features are what tells a good answer from a guess without knowing the answer:
paths agreeing on the top hit, the top hit's cosine to the query, an exact symbol match,
and how clearly the top hit leads the rest. A logistic over them gives a number that
reads like a probability that the top five hits hold the answer. `COEFFICIENTS` come
from scripts/calibrate_confidence.py (the development set plus off-topic questions as
negatives; L2-regularised, four features, to generalise); docs/EVAL.md has the tables.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ctxhub.search.analyzer import QueryAnalysis
from ctxhub.search.rank import Candidate

#: Below this the top five probably do not hold the answer (see the calibration table).
LOW_CONFIDENCE = 0.6

#: intercept, agreement, top cosine, exact symbol, margin
COEFFICIENTS = (-1.14, 1.2, 2.36, 1.12, 0.04)


@dataclass
class ConfidenceFeatures:
    agreement: float  # share of active paths that rank the top hit in their top 5
    top_cosine: float  # dense score of the top hit (0 when dense did not find it)
    exact_symbol: float  # 1 when the top hit's symbol is a name the query gives
    margin: float  # (s1 - s2) / s1 of final scores

    def vector(self) -> tuple[float, ...]:
        return (1.0, self.agreement, self.top_cosine, self.exact_symbol, self.margin)


def features(
    analysis: QueryAnalysis, ranked: Sequence[Candidate], active_paths: Sequence[str]
) -> ConfidenceFeatures:
    if not ranked:
        return ConfidenceFeatures(0.0, 0.0, 0.0, 0.0)
    top = ranked[0]
    paths = [p for p in active_paths if p in ("bm25", "dense") or analysis.identifiers]
    agreeing = sum(1 for p in paths if p in top.signals and top.signals[p].rank <= 5)
    dense = top.signals.get("dense")
    symbol = (top.chunk.symbol or "").lower()
    exact = any(
        symbol == i.lower() or symbol.endswith("." + i.lower()) for i in analysis.identifiers
    )
    second = ranked[1].score if len(ranked) > 1 else 0.0
    margin = (top.score - second) / top.score if top.score > 0 else 0.0
    return ConfidenceFeatures(
        agreement=agreeing / max(1, len(paths)),
        top_cosine=dense.score if dense else 0.0,
        exact_symbol=1.0 if exact else 0.0,
        margin=margin,
    )


def confidence(f: ConfidenceFeatures, coefficients: Sequence[float] = COEFFICIENTS) -> float:
    z = sum(c * x for c, x in zip(coefficients, f.vector(), strict=True))
    return 1.0 / (1.0 + math.exp(-z))


def next_queries(analysis: QueryAnalysis, ranked: Sequence[Candidate], limit: int = 3) -> list[str]:
    """Follow-ups an agent can try: the names alone, then names the top hits carry."""
    out: list[str] = []
    if analysis.identifiers and len(analysis.terms) > len(analysis.identifiers) + 2:
        out.append(" ".join(analysis.identifiers))
    for cand in ranked[:5]:
        name = cand.chunk.symbol or cand.chunk.section or cand.chunk.title
        if name and name not in out:
            out.append(name)
    key_terms = [t for t in analysis.terms if len(t) > 3][:4]
    if len(key_terms) >= 2:
        out.append(" ".join(key_terms))
    return out[:limit]
