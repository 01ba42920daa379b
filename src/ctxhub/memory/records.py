"""Writing records: embedding their three spaces, merging duplicates, linking variants,
and linking the knowledge symbols a record names.

`log_solution` is what an agent calls: a near-identical problem with a similar solution
merges into the existing record, a similar problem with a different solution becomes a
variant of it, anything else is new. `upsert_record` is what importers call: the id is
deterministic (uuid5 of the issue or session step), so a re-import updates in place and
never resets occurrences or feedback.
"""

from __future__ import annotations

import time
import uuid

import numpy as np

from ctxhub.embed.base import Embedder, Vectors
from ctxhub.hub import Hub
from ctxhub.memory.links import symbol_links
from ctxhub.memory.models import LogResult, MemoryFilters, Record, RecordInput
from ctxhub.models import content_hash
from ctxhub.store.sqlite import SQLiteStore

#: log_solution thresholds (cosine between problem vectors, then solution vectors)
MERGE_PROBLEM = 0.95
MERGE_SOLUTION = 0.90
VARIANT_PROBLEM = 0.85


def problem_text(record: RecordInput) -> str:
    """What the problem space embeds: the error type leads when the text lacks it."""
    if record.error_type and record.error_type.lower() not in record.problem.lower():
        return f"{record.error_type}: {record.problem}"
    return record.problem


def space_texts(record: RecordInput) -> dict[str, str]:
    """The text of each vector space. No code, no code space (never a problem copy)."""
    texts = {"problem": problem_text(record)}
    if record.solution:
        texts["solution"] = record.solution
    code = record.code_text()
    if code:
        texts["code"] = code
    return texts


def texts_hash(record: RecordInput) -> str:
    texts = space_texts(record)
    return content_hash("\x1f".join(f"{k}={texts[k]}" for k in sorted(texts)))


def embed_spaces(hub: Hub, texts: dict[str, str]) -> dict[str, Vectors]:
    spaces = list(texts)
    matrix = hub.embedder.embed([texts[s] for s in spaces])
    return {space: matrix[i] for i, space in enumerate(spaces)}


def _store(
    hub: Hub, record: Record, vectors: dict[str, Vectors] | None, relink: bool = True
) -> list[str]:
    links = symbol_links(hub.store, record) if relink else None
    hub.store.put_record(record, texts_hash(record), vectors, hub.embedder.id, links)
    return [s for s, _ in links or []]


def _compatible(a: RecordInput, b: Record) -> bool:
    """Dedup only within one language and framework (a missing label matches any)."""
    return all(
        x is None or y is None or x == y
        for x, y in ((a.language, b.language), (a.framework, b.framework))
    )


def log_solution(hub: Hub, record: RecordInput) -> LogResult:
    """Store what an agent learned: merged, a variant, or new (the result says which)."""
    now = time.time()
    texts = space_texts(record)
    vectors = embed_spaces(hub, texts)
    model = hub.embedder.id
    nearest = hub.store.record_dense("problem", vectors["problem"], model, MemoryFilters(), 10)
    candidates = {r.id: r for r in hub.store.get_records([i for i, _ in nearest])}
    for rid, cos in nearest:
        existing = candidates.get(rid)
        if existing is None or cos < VARIANT_PROBLEM or not _compatible(record, existing):
            continue
        solution_cos = _solution_similarity(hub, existing, vectors.get("solution"))
        if cos >= MERGE_PROBLEM and solution_cos >= MERGE_SOLUTION:
            merged = hub.store.add_occurrence(existing.id, record.tags, record.last_seen or now)
            return LogResult(
                id=existing.id,
                action="merged",
                matched_id=existing.id,
                problem_similarity=round(cos, 4),
                solution_similarity=round(solution_cos, 4),
                linked_symbols=merged.linked_symbols,
                message=f"merged into {existing.id}: seen {merged.occurrences} times",
            )
        if solution_cos < MERGE_SOLUTION:
            original = existing.variant_of or existing.id
            new = _new_record(record, now, variant_of=original)
            linked = _store(hub, new, vectors)
            return LogResult(
                id=new.id,
                action="variant",
                matched_id=original,
                problem_similarity=round(cos, 4),
                solution_similarity=round(solution_cos, 4),
                linked_symbols=linked,
                message=f"stored as a variant of {original}: same problem, another solution",
            )
    new = _new_record(record, now)
    linked = _store(hub, new, vectors)
    return LogResult(
        id=new.id,
        action="created",
        problem_similarity=round(nearest[0][1], 4) if nearest else None,
        linked_symbols=linked,
        message=f"stored as a new record {new.id}",
    )


def _solution_similarity(hub: Hub, existing: Record, vector: Vectors | None) -> float:
    """Cosine between solutions; two empty solutions (an unsolved problem seen again)
    count as the same, an empty one against a written one as different."""
    stored = hub.store.record_vectors(existing.id, hub.embedder.id).get("solution")
    if vector is None and stored is None:
        return 1.0
    if vector is None or stored is None:
        return 0.0
    return float(np.dot(vector, stored))


def _new_record(record: RecordInput, now: float, variant_of: str | None = None) -> Record:
    data = record.model_dump()
    data["created_at"] = record.created_at or now
    data["last_seen"] = record.last_seen or data["created_at"]
    return Record(id=str(uuid.uuid4()), variant_of=variant_of, **data)


def upsert_record(hub: Hub, record_id: str, record: RecordInput) -> LogResult:
    """Create or update the record `record_id` (importers): texts and labels replaced,
    created_at, occurrences and feedback kept; unchanged input is a no-op."""
    now = time.time()
    found = hub.store.get_records([record_id])
    if not found:
        new = Record(
            id=record_id,
            **{
                **record.model_dump(),
                "created_at": record.created_at or now,
                "last_seen": record.last_seen or record.created_at or now,
            },
        )
        linked = _store(hub, new, embed_spaces(hub, space_texts(new)))
        return LogResult(id=record_id, action="created", linked_symbols=linked, message="imported")
    old = found[0]
    updated = Record(
        **{
            **record.model_dump(),
            "id": record_id,
            "created_at": old.created_at,
            "last_seen": max(old.last_seen, record.last_seen or 0.0),
            "occurrences": old.occurrences,
            "worked": old.worked,
            "not_worked": old.not_worked,
            "variant_of": old.variant_of,
        }
    )
    same_text = hub.store.record_text_hash(record_id) == texts_hash(updated)
    has_vectors = bool(hub.store.record_vectors(record_id, hub.embedder.id))
    if same_text and has_vectors and _same_fields(old, updated):
        return LogResult(id=record_id, action="unchanged", linked_symbols=old.linked_symbols)
    vectors = None if same_text and has_vectors else embed_spaces(hub, space_texts(updated))
    linked = _store(hub, updated, vectors, relink=not same_text or not old.linked_symbols)
    return LogResult(
        id=record_id,
        action="updated",
        linked_symbols=linked or old.linked_symbols,
        message="updated in place; feedback kept",
    )


def _same_fields(a: Record, b: Record) -> bool:
    skip = {"linked_symbols", "stale_symbols"}
    return a.model_dump(exclude=skip) == b.model_dump(exclude=skip)


def reembed_records(store: SQLiteStore, embedder: Embedder, batch: int = 200) -> int:
    """Give every record without vectors of `embedder`'s model its vectors (after
    `refresh --reembed` switched the model, or records imported without vectors)."""
    done = 0
    while True:
        ids = store.records_without_vectors(embedder.id, batch)
        if not ids:
            return done
        for record in store.get_records(ids):
            texts = space_texts(record)
            matrix = embedder.embed(list(texts.values()))
            vectors = {space: matrix[i] for i, space in enumerate(texts)}
            store.put_record(record, texts_hash(record), vectors, embedder.id, None)
            done += 1
