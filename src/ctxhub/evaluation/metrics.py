"""Recall@5, MRR@10, nDCG@10 (binary), and set precision/recall for filtered queries."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ctxhub.evaluation.matching import RankedHit, credit, matches
from ctxhub.evaluation.queries import GoldItem


def recall_at(hits: Sequence[RankedHit], gold: Sequence[GoldItem], k: int = 5) -> float:
    credited = [c for c in credit(hits[:k], gold) if c is not None]
    return len(credited) / min(k, len(gold)) if gold else 0.0


def mrr_at(hits: Sequence[RankedHit], gold: Sequence[GoldItem], k: int = 10) -> float:
    for rank, hit in enumerate(hits[:k], start=1):
        if any(matches(hit, g) for g in gold):
            return 1.0 / rank
    return 0.0


def ndcg_at(hits: Sequence[RankedHit], gold: Sequence[GoldItem], k: int = 10) -> float:
    credits = credit(hits[:k], gold)
    dcg = sum(1.0 / math.log2(rank + 1) for rank, c in enumerate(credits, 1) if c is not None)
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(k, len(gold)) + 1))
    return dcg / ideal if ideal else 0.0


def set_precision_recall(
    returned: Sequence[RankedHit], gold: Sequence[GoldItem]
) -> tuple[float, float]:
    """Precision = matched returned / returned; recall = matched gold / gold."""
    credits = credit(returned, gold)
    matched = sum(1 for c in credits if c is not None)
    # a returned hit that matches an already-credited gold item is not a false positive
    useful = sum(1 for h in returned if any(matches(h, g) for g in gold))
    precision = useful / len(returned) if returned else 0.0
    recall = matched / len(gold) if gold else 0.0
    return precision, recall
