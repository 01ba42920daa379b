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

from ctxhub.core.knowledge import content_hash
from ctxhub.core.records import HISTORY, Counters, LogResult, MemoryFilters, Record, RecordInput
from ctxhub.embed.base import Embedder, Vectors
from ctxhub.memory.records.links import symbol_links
from ctxhub.memory.redaction.redact import redact_record
from ctxhub.session import HubSession
from ctxhub.store.protocol import HubStore

#: log_solution thresholds (cosine between problem vectors, then solution vectors)
MERGE_PROBLEM = 0.95
MERGE_SOLUTION = 0.90
VARIANT_PROBLEM = 0.85
#: nearest problems looked at (then filtered to compatible language and framework)
DEDUP_CANDIDATES = 50


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


def embed_spaces(embedder: Embedder, texts: dict[str, str]) -> dict[str, Vectors]:
    spaces = list(texts)
    matrix = embedder.embed([texts[s] for s in spaces])
    return {space: matrix[i] for i, space in enumerate(spaces)}


def clean(record: RecordInput) -> RecordInput:
    """The record with secrets redacted: every write path goes through here, whatever
    the agent pasted (env dumps, connection strings, tokens in stack traces)."""
    return redact_record(record)


def _store(
    hub: HubSession,
    record: Record,
    vectors: dict[str, Vectors] | None,
    relink: bool = True,
    counters: Counters = "keep",
) -> list[str]:
    links = symbol_links(hub.store, record) if relink else None
    hub.store.put_record(record, texts_hash(record), vectors, hub.embedder.id, links, counters)
    return [s for s, _ in links or []]


def _compatible(a: RecordInput, b: Record) -> bool:
    """Dedup only within one language and framework (a missing label matches any)."""
    return all(
        x is None or y is None or x == y
        for x, y in ((a.language, b.language), (a.framework, b.framework))
    )


def log_solution(hub: HubSession, record: RecordInput) -> LogResult:
    """Store what an agent learned: merged, a variant, or new (the result says which)."""
    record = clean(record)
    vectors = embed_spaces(hub.embedder, space_texts(record))
    return place(hub, record, vectors, str(uuid.uuid4()))


def place(
    hub: HubSession, record: RecordInput, vectors: dict[str, Vectors], new_id: str
) -> LogResult:
    """Merge `record` into a near-identical one, store it as a variant of a similar one,
    or create it as `new_id`. Looking for the duplicate and writing happen in one
    transaction, so two agents logging the same problem at once make one record. A
    merged `new_id` becomes an alias of the record it merged into."""
    now = time.time()
    model = hub.embedder.id
    with hub.store.memory_transaction():
        nearest = hub.store.record_dense(
            "problem", vectors["problem"], model, MemoryFilters(), DEDUP_CANDIDATES
        )
        candidates = {r.id: r for r in hub.store.get_records([i for i, _ in nearest])}
        for rid, cos in nearest:
            existing = candidates.get(rid)
            if existing is None or cos < VARIANT_PROBLEM or not _compatible(record, existing):
                continue
            solution_cos = _solution_similarity(hub, existing, vectors.get("solution"))
            if cos >= MERGE_PROBLEM and solution_cos >= MERGE_SOLUTION:
                hub.store.add_occurrence(existing.id, record.tags, record.last_seen or now)
                hub.store.add_alias(new_id, existing.id)
                return LogResult(
                    id=existing.id,
                    action="merged",
                    matched_id=existing.id,
                    problem_similarity=round(cos, 4),
                    solution_similarity=round(solution_cos, 4),
                    linked_symbols=existing.linked_symbols,
                    message=f"merged into {existing.id}: seen {existing.occurrences + 1} times",
                )
            if solution_cos < MERGE_SOLUTION:
                original = existing.variant_of or existing.id
                new = _new_record(record, now, new_id, variant_of=original)
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
        new = _new_record(record, now, new_id)
        linked = _store(hub, new, vectors)
    return LogResult(
        id=new.id,
        action="created",
        problem_similarity=round(nearest[0][1], 4) if nearest else None,
        linked_symbols=linked,
        message=f"stored as a new record {new.id}",
    )


def _solution_similarity(hub: HubSession, existing: Record, vector: Vectors | None) -> float:
    """Cosine between solutions; two empty solutions (an unsolved problem seen again)
    count as the same, an empty one against a written one as different."""
    stored = hub.store.record_vectors(existing.id, hub.embedder.id).get("solution")
    if vector is None and stored is None:
        return 1.0
    if vector is None or stored is None:
        return 0.0
    return float(np.dot(vector, stored))


def _new_record(
    record: RecordInput, now: float, record_id: str, variant_of: str | None = None
) -> Record:
    data = record.model_dump()
    data["created_at"] = record.created_at or now
    data["last_seen"] = record.last_seen or data["created_at"]
    return Record(id=record_id, variant_of=variant_of, **data)


def upsert_record(hub: HubSession, record_id: str, record: RecordInput) -> LogResult:
    """Create or update the record `record_id` (importers, whose ids are deterministic).

    New to the store: placed like log_solution (merged into a near-identical record,
    which `record_id` then names as an alias, or a variant, or created). Already there:
    texts and labels replaced, tags united, occurrences, feedback and created_at kept;
    unchanged input is a no-op. The history is never written back from a copy read
    earlier (see `put_record`), so a rating that lands while an import runs is kept."""
    record = clean(record)
    merged_into = hub.store.resolve_alias(record_id)
    if merged_into is not None:
        return LogResult(
            id=merged_into,
            action="unchanged",
            matched_id=merged_into,
            message=f"merged into {merged_into} when first imported",
        )
    found = hub.store.get_records([record_id])
    if not found:
        result = place(hub, record, embed_spaces(hub.embedder, space_texts(record)), record_id)
        result.message = result.message or "imported"
        return result
    now = time.time()
    created = record.created_at or now
    fresh = Record(
        **{
            **record.model_dump(),
            "id": record_id,
            "created_at": created,
            "last_seen": record.last_seen or created,
            "occurrences": 1,
        }
    )
    old = found[0]
    fresh.variant_of = old.variant_of
    same_text = hub.store.record_text_hash(record_id) == texts_hash(fresh)
    has_vectors = bool(hub.store.record_vectors(record_id, hub.embedder.id))
    if same_text and has_vectors and _same_fields(old, fresh, record.last_seen):
        return LogResult(id=record_id, action="unchanged", linked_symbols=old.linked_symbols)
    vectors = None if same_text and has_vectors else embed_spaces(hub.embedder, space_texts(fresh))
    relink = not same_text or not old.linked_symbols
    # counters 0 and occurrences 1 never lower anything under "max"; last_seen may rise
    linked = _store(hub, fresh, vectors, relink=relink, counters="max")
    return LogResult(
        id=record_id,
        action="updated",
        linked_symbols=linked or old.linked_symbols,
        message="updated in place; feedback kept",
    )


def _same_fields(old: Record, new: Record, seen: float | None) -> bool:
    """True when `new` (seen at `seen`, if the source says) would change nothing the
    store keeps for `old`."""
    skip = {"linked_symbols", "stale_symbols", "tags", *HISTORY}
    return (
        old.model_dump(exclude=skip) == new.model_dump(exclude=skip)
        and set(new.tags) <= set(old.tags)
        and (seen or 0.0) <= old.last_seen
    )


def reembed_records(store: HubStore, embedder: Embedder, batch: int = 200) -> int:
    """Give every record without vectors of `embedder`'s model its vectors (after
    `refresh --reembed` switched the model, or records imported without vectors)."""
    done = 0
    while True:
        ids = store.records_without_vectors(embedder.id, batch)
        if not ids:
            return done
        for record in store.get_records(ids):
            vectors = embed_spaces(embedder, space_texts(record))
            store.put_record(record, texts_hash(record), vectors, embedder.id, None)
            done += 1
