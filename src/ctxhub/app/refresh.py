"""Refresh the index: open the store, guard (or switch) the model, re-index the sources."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ctxhub.config import Settings
from ctxhub.embed.base import Embedder
from ctxhub.ingest.refresh.incremental import RefreshSummary, refresh
from ctxhub.session import default_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.store.factory import open_store
from ctxhub.store.protocol import HubStore


def _reembed_memory(store: HubStore, embedder: Embedder, say: Callable[[str], None]) -> None:
    """Memory records get the new model's vectors first: a source that then fails to
    refresh must not leave memory search without vectors."""
    from ctxhub.memory.records.log import reembed_records

    done = reembed_records(store, embedder)
    if done:
        say(f"re-embedded {done} memory records")


def refresh_index(
    settings: Settings,
    specs: Sequence[SourceSpec],
    *,
    force: bool = False,
    embed: bool = True,
    reembed: bool = False,
    progress: Any = None,
    say: Callable[[str], None] = lambda _: None,
) -> RefreshSummary:
    """Re-index `specs` into the settings' store (only changed files unless `force`).

    `reembed` switches the store to the current model: memory records first, then every
    chunk, then the old model's cached vectors go. `say` receives one-line notes."""
    with open_store(settings.store_location) as store:
        store.check_integrity()  # before the first write, --reembed's included
        embedder = default_embedder(settings.home) if embed or reembed else None
        if embedder is not None:
            if reembed:
                store.rebind_model(embedder.id, embedder.dim)
                _reembed_memory(store, embedder, say)  # before sources can fail
            else:
                store.bind_model(embedder.id, embedder.dim)
        summary = refresh(
            store,
            list(specs),
            settings.sources_dir,
            embedder,
            force=force,
            progress=progress,
            batch_size=settings.embed_batch_size,
            check=False,
        )
        if reembed and embedder is not None:
            # refresh embedded every chunk in the store (a failed source's too) and the
            # records went first: the old model's cached vectors are never read again
            dropped = store.drop_other_models(embedder.id)
            if dropped:
                say(f"dropped {dropped} cached embeddings of the old model")
    return summary
