"""The overview: every source with its state, the store, the model, memory in numbers."""

from __future__ import annotations

import threading
import time
from typing import Any, cast

from ctxhub.app.sources import known_sources
from ctxhub.memory.records.pending import pending_count
from ctxhub.session import HubSession
from ctxhub.sources.base import ADD_COMMAND, SOURCE_FORMS
from ctxhub.store.protocol import HubStore
from ctxhub.tools.hub_status import hub_status

#: What an empty hub's page says (the issue's wording, the CLI's command).
EMPTY_MESSAGE = f"add a source: {ADD_COMMAND} ({SOURCE_FORMS})"
#: A passed integrity check is trusted this long (the store's own writes do not damage
#: it; a disk that does is found within this time, and `ctxhub doctor` checks in full).
CHECK_SECONDS = 60.0

_LOCK = threading.Lock()
_CHECKED: dict[str, float] = {}
_COVERAGE: dict[tuple[str, int, str], tuple[int, int]] = {}


class _PerGeneration:
    """The store, but the two reads of hub_status that scan every chunk (the quick
    integrity check, ~90 ms, and the embedding coverage, ~110 ms, at 20k chunks) are
    not made on every call: the page polls the overview while a refresh runs. The
    coverage is kept per generation (every write that changes it moves the generation),
    a passed check for CHECK_SECONDS."""

    def __init__(self, store: HubStore) -> None:
        self._store = store
        self._generation = store.generation()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def check_integrity(self) -> None:
        key = self._store.location
        with _LOCK:
            fresh = time.monotonic() - _CHECKED.get(key, -CHECK_SECONDS) < CHECK_SECONDS
        if fresh:
            return
        self._store.check_integrity()  # raises for a damaged store: never cached
        with _LOCK:
            _CHECKED[key] = time.monotonic()

    def embedding_coverage(self, model: str) -> tuple[int, int]:
        key = (self._store.location, self._generation, model)
        with _LOCK:
            found = _COVERAGE.get(key)
        if found is None:
            found = self._store.embedding_coverage(model)
            with _LOCK:
                _COVERAGE.clear()
                _COVERAGE[key] = found
        return found


def overview(hub: HubSession) -> dict[str, Any]:
    """get_hub_status's report, plus for each source whether the page can refresh it
    (the store recorded its manifest entry) and where it is defined."""
    store = cast("HubStore", _PerGeneration(hub.store))
    status = hub_status(store, hub.settings.stale_days, pending_count(hub.settings))
    known = {k.name: k for k in known_sources(hub.store, hub.settings.home)}
    data = status.model_dump(mode="json")
    for source in data["sources"]:
        found = known.get(source["name"])
        source["refreshable"] = found is not None and found.spec is not None
        source["where"] = found.where if found is not None else None
    empty = not status.sources and status.chunks == 0
    data["empty"] = empty
    data["empty_message"] = EMPTY_MESSAGE if empty else None
    return data
