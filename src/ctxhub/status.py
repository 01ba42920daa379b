"""What the hub holds: per-source state and counts, the model, the store file."""

from __future__ import annotations

import time
from pathlib import Path

from pydantic import BaseModel, Field

from ctxhub.ingest.running import INTERRUPTED, PARTIAL, label
from ctxhub.store.sqlite import SQLiteStore


class SourceStatus(BaseModel):
    """One source. `status`: new | indexing (a refresh runs now) | ok | failed |
    partial (a refresh was interrupted: its chunks are searchable but incomplete; `error`
    says "interrupted; run ctxhub refresh")."""

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
    #: units the last refreshes could not use plus files the walk left out (symlink
    #: loops, dangling links, links leaving the root, files over the size cap)
    skipped_files: int = 0
    skipped: list[tuple[str, str]] = Field(default_factory=list)  # (path, reason)


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
    read_only: bool = False  # the file (or its folder or mount) cannot be written
    schema_version: int
    model: str | None
    dim: int | None
    generation: int
    chunks: int
    embedded: int
    sources: list[SourceStatus]
    memory: MemoryStatus = Field(default_factory=MemoryStatus)


def _size(path: Path) -> int:
    """Bytes of one store file; 0 for a -wal/-shm file a closing connection just removed
    (or a dangling link)."""
    try:
        return path.stat().st_size if path.is_file() else 0
    except OSError:
        return 0


def hub_status(store: SQLiteStore, stale_days: int, pending: int = 0) -> HubStatus:
    """The report; raises StoreCorruptError (naming the fix) for a damaged store."""
    store.check_integrity()
    counts = store.counts()
    now = time.time()
    sources: list[SourceStatus] = []
    states = store.sources()
    for state in states:
        age = (now - state.last_refresh) / 86400 if state.last_refresh else None
        status, error = label(state.status, state.error, state.stats)
        files = store.file_states(state.name)
        skipped = [(f.path, f.reason or f.status) for f in files.values() if f.status != "ok"]
        left_out = [(str(p), str(r)) for p, r in state.stats.get("left_out", [])]
        sources.append(
            SourceStatus(
                name=state.name,
                kinds=state.kinds,
                origin=state.origin,
                version=state.version,
                commit=state.commit,
                status=status,
                error=error,
                last_refresh=state.last_refresh,
                age_days=None if age is None else round(age, 2),
                stale=age is None or age > stale_days,
                chunks=counts.get(state.name, {}),
                files=len(files),
                skipped_files=len(skipped) + int(state.stats.get("left_out_count", 0)),
                skipped=sorted(skipped) + left_out,
            )
        )
    named = {s.name for s in states}
    for name in sorted(set(counts) - named):
        # chunks without a source row: a first refresh by an older ctxhub was killed
        sources.append(
            SourceStatus(
                name=name,
                kinds=[],
                origin="",
                version=None,
                commit=None,
                status=PARTIAL,
                error=INTERRUPTED,
                last_refresh=None,
                age_days=None,
                stale=True,
                chunks=counts[name],
            )
        )
    sources.sort(key=lambda s: s.name)
    model = store.model
    embedded, total = store.embedding_coverage(model[0]) if model else (0, 0)
    if not model:
        total = sum(sum(k.values()) for k in counts.values())
    path = Path(store.location)
    size = sum(_size(p) for p in path.parent.glob(path.name + "*"))
    return HubStatus(
        store_path=store.location,
        store_bytes=size,
        read_only=store.read_only,
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
