"""A record as a Hit (the shared contract), with its score explained in metadata."""

from __future__ import annotations

from typing import Any

from ctxhub.core.budget import trim
from ctxhub.core.knowledge import Hit, Signal
from ctxhub.core.records import Record

SOLUTION_CHARS = 1200
CODE_CHARS = 800
PROBLEM_CHARS = 600


def _short(text: str | None, limit: int) -> str | None:
    return None if text is None else trim(text, limit)[0]


def record_metadata(record: Record) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "problem": _short(record.problem, PROBLEM_CHARS),
        "error_type": record.error_type,
        "code_snippet": _short(record.code_snippet, CODE_CHARS),
        "code_diff": _short(record.code_diff, CODE_CHARS),
        "stack_trace": _short(record.stack_trace, CODE_CHARS),
        "language": record.language,
        "framework": record.framework,
        "libraries": record.libraries,
        "tags": record.tags,
        "confidence": record.confidence,
        "resolved": record.resolved,
        "agent": record.agent,
        "logged_by": record.logged_by,
        "os": record.os,
        "occurrences": record.occurrences,
        "worked": record.worked,
        "not_worked": record.not_worked,
        "created_at": record.created_at,
        "last_seen": record.last_seen,
        "variant_of": record.variant_of,
        "session_id": record.session_id,
        "linked_symbols": record.linked_symbols,
        "possibly_stale": bool(record.stale_symbols),
        "stale_symbols": record.stale_symbols,
    }
    return {k: v for k, v in meta.items() if v not in (None, [], "")}


def record_hit(
    record: Record,
    probability: float,
    rank_score: float,
    signals: dict[str, tuple[int, float]],
    multipliers: dict[str, float],
    evidence: dict[str, float] | None = None,
) -> Hit:
    meta = record_metadata(record)
    meta["multipliers"] = multipliers
    meta["rank_score"] = round(rank_score, 4)  # the order's score; `score` is the probability
    if evidence:
        meta["evidence"] = evidence  # the relevance features: cosine, code (mis)match
    first_line = record.problem.strip().splitlines()[0] if record.problem.strip() else ""
    return Hit(
        id=record.id,
        kind="memory",
        source=record.source,
        path=record.file_path or "",
        title=trim(first_line, 160)[0],
        url=record.url,
        snippet=_short(record.solution, SOLUTION_CHARS) or "",
        score=round(probability, 4),  # that this record answers the question, 0-1
        signals={p: Signal(rank=r, score=round(s, 4)) for p, (r, s) in signals.items()},
        metadata=meta,
    )
