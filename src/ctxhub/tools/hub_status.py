"""get_hub_status: what the hub holds (per-source state and counts, the model, the store)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from ctxhub.core.outputs import HubStatus, MemoryStatus, SourceStatus
from ctxhub.ingest.refresh.running import INTERRUPTED, PARTIAL, label
from ctxhub.memory.records.pending import pending_count
from ctxhub.session import HubSession
from ctxhub.sources import pypi
from ctxhub.store.protocol import HubStore
from ctxhub.tools.render_status import version_note


def installed_state(origin: str, indexed: str | None) -> dict[str, Any]:
    """For a `pypi:NAME` source: the version installed now, whether it differs from the
    indexed one, and whether it is gone (sources/pypi.installed_state); nothing for other
    origins (SourceStatus fields)."""
    state = pypi.installed_state(origin, indexed)
    return {} if state is None else asdict(state)


def environment_note(origin: str, indexed: str | None) -> str | None:
    """`render_status.version_note` for a source's origin and indexed version, looked up now."""
    env = installed_state(origin, indexed)
    return version_note(indexed, env.get("installed_version"), env.get("not_installed", False))


#: How long a looked-up installed version is trusted: a search names a refresh-due
#: source without asking a project interpreter (a subprocess) on every call.
INSTALLED_TTL_S = 30.0
_looked_up: dict[tuple[str, str | None], tuple[float, str | None]] = {}


def _cached_note(origin: str, indexed: str | None) -> str | None:
    key = (origin, indexed)
    now = time.monotonic()
    hit = _looked_up.get(key)
    if hit is None or now - hit[0] > INSTALLED_TTL_S:
        hit = (now, environment_note(origin, indexed))
        _looked_up[key] = hit
    return hit[1]


_versions_now: dict[tuple[str, str | None], tuple[float, str | None]] = {}


def installed_now(origin: str, indexed: str | None) -> str | None:
    """The version of a `pypi:NAME` source's distribution installed now, None when it is
    not installed or the source follows no distribution (looked up at most every
    INSTALLED_TTL_S, as the notes are)."""
    key = (origin, indexed)
    now = time.monotonic()
    hit = _versions_now.get(key)
    if hit is None or now - hit[0] > INSTALLED_TTL_S:
        hit = (now, installed_state(origin, indexed).get("installed_version"))
        _versions_now[key] = hit
    return hit[1]


#: How a source ranks when several define one symbol (lower first): the version
#: installed in the project; then a distribution installed at another version since it
#: was indexed (due a refresh, it is still the nearest to what runs: a pinned old
#: release beside it is not); then a source with no installed counterpart (a folder, a
#: pinned release); then a distribution no longer installed.
INSTALLED, DRIFTED, UNKNOWN, NOT_INSTALLED = 0, 1, 2, 3


def installed_ranks(store: HubStore, names: set[str]) -> dict[str, int]:
    """INSTALLED, DRIFTED, UNKNOWN or NOT_INSTALLED for each of `names` (looked up at
    most every INSTALLED_TTL_S)."""
    ranks: dict[str, int] = {}
    for state in store.sources():
        if state.name in names:
            if pypi.distribution_of(state.origin) is None:
                ranks[state.name] = UNKNOWN
            elif (note := _cached_note(state.origin, state.version)) is None:
                ranks[state.name] = INSTALLED
            elif note.startswith("not installed"):
                ranks[state.name] = NOT_INSTALLED
            else:
                ranks[state.name] = DRIFTED
    return ranks


def installed_first(store: HubStore, names: Sequence[str]) -> list[str]:
    """`names` (sources holding one path or name) once each, the installed version's
    first (installed_ranks; the environment is asked only when there are several),
    otherwise in their given order."""
    unique = list(dict.fromkeys(names))
    if len(unique) < 2:
        return unique
    ranks = installed_ranks(store, set(unique))
    return sorted(unique, key=lambda n: ranks.get(n, UNKNOWN))


def source_notes(store: HubStore, names: set[str]) -> list[str]:
    """`name: <environment note>` for each of `names` whose installed distribution
    changed since it was indexed (looked up at most every INSTALLED_TTL_S)."""
    notes: list[str] = []
    for state in store.sources():
        if state.name in names and (note := _cached_note(state.origin, state.version)):
            fix = "" if note.startswith("not installed") else f"; run `ctxhub refresh {state.name}`"
            notes.append(f"{state.name}: {note}{fix}")
    return notes


def hub_status(store: HubStore, stale_days: int, pending: int = 0) -> HubStatus:
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
                left_out_files=int(state.stats.get("ignored_files", 0)),
                left_out_reasons=dict(state.stats.get("left_out_reasons", {})),
                warning=state.stats.get("warning"),
                **installed_state(state.origin, state.version),
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
    all_chunks = sum(sum(k.values()) for k in counts.values())
    # coverage counts the ranked chunks: lookup-only ones have no vector to wait for
    embedded, ranked = store.embedding_coverage(model[0]) if model else (0, all_chunks)
    size = store.size_bytes()
    return HubStatus(
        store_path=store.location,
        store_bytes=size,
        read_only=store.read_only,
        schema_version=store.schema_version(),
        model=model[0] if model else None,
        dim=model[1] if model else None,
        generation=store.generation(),
        chunks=all_chunks,
        embedded=embedded,
        lookup_only=max(0, all_chunks - ranked),
        sources=sources,
        memory=MemoryStatus(
            **store.memory_counts(), pending=pending, unhelpful_queries=store.unhelpful_queries()
        ),
    )


def get_hub_status(hub: HubSession) -> HubStatus:
    return hub_status(hub.store, hub.settings.stale_days, pending_count(hub.settings))
