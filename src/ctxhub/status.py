"""What the hub holds: per-source state and counts, the model, the store file."""

from __future__ import annotations

import time
from pathlib import Path

from pydantic import BaseModel, Field

from ctxhub.store.sqlite import SQLiteStore


class SourceStatus(BaseModel):
    name: str
    kinds: list[str]
    origin: str
    version: str | None
    commit: str | None
    status: str
    error: str | None
    last_refresh: float | None
    age_days: float | None
    stale: bool
    chunks: dict[str, int] = Field(default_factory=dict)
    files: int = 0
    skipped_files: int = 0


class MemoryStatus(BaseModel):
    records: int = 0
    by_source: dict[str, int] = Field(default_factory=dict)
    variants: int = 0
    worked: int = 0
    not_worked: int = 0
    pending: int = 0  # captured by hooks, not yet embedded
    knowledge_useful: int = 0
    knowledge_not_useful: int = 0
    #: queries whose knowledge results agents rated not useful (count), most often first
    unhelpful_queries: list[tuple[str, int]] = Field(default_factory=list)


class HubStatus(BaseModel):
    store_path: str
    store_bytes: int
    schema_version: int
    model: str | None
    dim: int | None
    generation: int
    chunks: int
    embedded: int
    sources: list[SourceStatus]
    memory: MemoryStatus = Field(default_factory=MemoryStatus)


def hub_status(store: SQLiteStore, stale_days: int, pending: int = 0) -> HubStatus:
    counts = store.counts()
    now = time.time()
    sources: list[SourceStatus] = []
    for state in store.sources():
        age = (now - state.last_refresh) / 86400 if state.last_refresh else None
        files = store.file_states(state.name)
        sources.append(
            SourceStatus(
                name=state.name,
                kinds=state.kinds,
                origin=state.origin,
                version=state.version,
                commit=state.commit,
                status=state.status,
                error=state.error,
                last_refresh=state.last_refresh,
                age_days=None if age is None else round(age, 2),
                stale=age is None or age > stale_days,
                chunks=counts.get(state.name, {}),
                files=len(files),
                skipped_files=sum(1 for f in files.values() if f.status != "ok"),
            )
        )
    model = store.model
    embedded, total = store.embedding_coverage(model[0]) if model else (0, 0)
    if not model:
        total = sum(sum(k.values()) for k in counts.values())
    path = Path(store.location)
    size = sum(p.stat().st_size for p in path.parent.glob(path.name + "*") if p.is_file())
    return HubStatus(
        store_path=store.location,
        store_bytes=size,
        schema_version=store.schema_version(),
        model=model[0] if model else None,
        dim=model[1] if model else None,
        generation=store.generation(),
        chunks=total,
        embedded=embedded,
        sources=sources,
        memory=MemoryStatus(
            **store.memory_counts(), pending=pending, unhelpful_queries=store.unhelpful_queries()
        ),
    )
