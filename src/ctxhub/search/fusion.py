"""Fusing ranked lists: weighted Reciprocal Rank Fusion (score(d) = sum over paths of
w / (k + rank)), and a dense list merged with its chunks' window vectors."""

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


#: How much of a window's lead over its chunk's own vector counts: a long chunk's dense
#: score is own + WINDOW_GAIN * max(0, best window - own). 1.0 (the best of all its
#: vectors) favours long chunks for having more of them; measured in docs/EVAL.md.
WINDOW_GAIN = 0.7


def merge_windows(
    own: list[tuple[str, float]],
    windows: list[tuple[str, float, float]],
    limit: int,
    gain: float = WINDOW_GAIN,
) -> list[tuple[str, float]]:
    """The dense ranking with long chunks also scored by their best window. A chunk of
    `own` whose best window is not among `windows` keeps its own score (a window below
    the window list's last lifts it by little)."""
    scores = dict(own)
    for cid, mine, best in windows:
        scores[cid] = mine + gain * max(0.0, best - mine)
    return sorted(scores.items(), key=lambda x: -x[1])[:limit]
