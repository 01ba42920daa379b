"""Weighted Reciprocal Rank Fusion: score(d) = sum over paths of w / (k + rank)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ctxhub.core.knowledge import Signal

RRF_K = 60


def rrf(
    ranked: Mapping[str, Sequence[tuple[str, float]]],
    weights: Mapping[str, float],
    k: int = RRF_K,
) -> list[tuple[str, float, dict[str, Signal]]]:
    """Fuse per-path ranked lists of (id, raw score) into (id, fused, signals), best first.

    Paths with weight 0 still record their signals (a hit explains every path that found
    it) but add nothing to the score. Ties keep the order of first appearance.
    """
    fused: dict[str, float] = {}
    signals: dict[str, dict[str, Signal]] = {}
    for path, results in ranked.items():
        weight = weights.get(path, 1.0)
        for rank, (doc_id, raw) in enumerate(results, start=1):
            fused[doc_id] = fused.get(doc_id, 0.0) + weight / (k + rank)
            signals.setdefault(doc_id, {})[path] = Signal(rank=rank, score=raw)
    order = sorted(fused, key=lambda d: -fused[d])
    return [(d, fused[d], signals[d]) for d in order]


def max_fused(weights: Mapping[str, float], k: int = RRF_K) -> float:
    """The fused score of a document ranked first by every weighted path."""
    return sum(w / (k + 1) for w in weights.values() if w > 0)
