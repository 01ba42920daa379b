"""Copy a whole hub from one store to another (SQLite <-> PostgreSQL), without
re-embedding: `ctxhub migrate --to URL` / `--from URL`.

What moves: every source's state and files (chunks, file states, deprecations, kept file
texts), the cached vectors of the store's model, memory records with their vectors, links,
counters (occurrences, worked / did not work) and aliases, and the useful / not useful
counts of knowledge hits. What does not: the individual rating events behind the counters
(their notes and agents), and vectors of other models. Everything goes through the store
protocols, so any two backends work, and a copy into a store that already holds the same
sources replaces them unit by unit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ctxhub.core.errors import StoreError
from ctxhub.core.knowledge import ChunkQuery
from ctxhub.store.protocol import HubStore

#: Vectors fetched and written per round.
ROUND = 500


@dataclass
class MigrateSummary:
    sources: int = 0
    units: int = 0
    chunks: int = 0
    vectors: int = 0
    records: int = 0
    knowledge_ratings: int = 0
    #: chunk texts with no vector in the source store: the next refresh embeds them
    unembedded: int = 0


def migrate(
    src: HubStore, dst: HubStore, say: Callable[[str], None] = lambda _: None
) -> MigrateSummary:
    """Copy `src` into `dst`. The destination must be empty or hold the same model."""
    summary = MigrateSummary()
    model = src.model
    if model is not None:
        dst.bind_model(*model)  # a store bound to another model refuses, with the fix
    _knowledge(src, dst, summary, say)
    if model is not None:
        _vectors(src, dst, model[0], summary)
    _memory(src, dst, model[0] if model else None, summary)
    dst.update_statistics()
    return summary


def _knowledge(
    src: HubStore, dst: HubStore, summary: MigrateSummary, say: Callable[[str], None]
) -> None:
    for state in src.sources():
        files = src.file_states(state.name)
        for unit, file_state in files.items():
            chunks = src.find_chunks(ChunkQuery(source=state.name, unit=unit))
            texts = dict(src.unit_texts(state.name, unit))
            deprecations = src.file_deprecations(state.name, unit)
            if chunks or texts or deprecations:
                dst.replace_file(state.name, unit, chunks, file_state, deprecations, texts)
            else:
                dst.mark_file(state.name, file_state)
            summary.units += 1
            summary.chunks += len(chunks)
            ids = [c.id for c in chunks]
            for chunk_id, (useful, not_useful) in src.knowledge_feedback(ids).items():
                for worked, times in ((True, useful), (False, not_useful)):
                    for _ in range(times):
                        dst.add_feedback(chunk_id, "knowledge", worked)
                        summary.knowledge_ratings += 1
        dst.upsert_source(state)
        summary.sources += 1
        say(f"{state.name}: {len(files)} units")


def _vectors(src: HubStore, dst: HubStore, model: str, summary: MigrateSummary) -> None:
    """Fill the destination's missing vectors from the source's cache, a round at a time;
    a text the source has no vector for either stays missing (the next refresh embeds it)."""
    absent: set[str] = set()
    while True:
        wanted = [
            h
            for h, _ in dst.missing_embeddings(model, limit=ROUND + len(absent))
            if h not in absent
        ]
        if not wanted:
            break
        found = src.embeddings_for(model, wanted)
        absent.update(h for h in wanted if h not in found)
        if found:
            dst.put_embeddings(model, list(found.items()))
            summary.vectors += len(found)
    summary.unembedded = len(absent)


def _memory(src: HubStore, dst: HubStore, model: str | None, summary: MigrateSummary) -> None:
    for record in src.iter_records():
        text_hash = src.record_text_hash(record.id)
        if text_hash is None:
            raise StoreError(f"record {record.id} has no text hash; the source store is damaged")
        vectors = src.record_vectors(record.id, model) if model else None
        links = src.record_links(record.id)
        # "max": a record already in the destination keeps the larger history
        dst.put_record(record, text_hash, vectors or None, model or "", links, counters="max")
        summary.records += 1
    for alias, record_id in src.aliases():
        dst.add_alias(alias, record_id)
