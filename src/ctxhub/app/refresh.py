"""Refresh the index: open the store, guard (or switch) the model, re-index the sources."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ctxhub.config import Settings
from ctxhub.core.progress import NO_PROGRESS, Progress
from ctxhub.embed.base import Embedder
from ctxhub.ingest.refresh.incremental import RefreshSummary, refresh
from ctxhub.session import default_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.sources.manifest import effective_sources
from ctxhub.sources.pypi import installed_state
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
    progress: Progress = NO_PROGRESS,
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
            say=say,
        )
        if reembed and embedder is not None:
            # refresh embedded every chunk in the store (a failed source's too) and the
            # records went first: the old model's cached vectors are never read again
            dropped = store.drop_other_models(embedder.id)
            if dropped:
                say(f"dropped {dropped} cached embeddings of the old model")
    return summary


def distributions_due(settings: Settings) -> list[SourceSpec]:
    """The manifest's sources that follow an installed distribution and are due a
    refresh, by the rule status and doctor report (`sources/pypi.installed_state`): a
    pinned release (`pypi:NAME==X`) never is."""
    wanted = [spec for spec in effective_sources(settings.home) if spec.package]
    if not wanted:
        return []
    with open_store(settings.store_location) as store:
        indexed = {state.name: state.version for state in store.sources()}
    return [
        spec
        for spec in wanted
        if spec.name in indexed
        and (state := installed_state(spec.origin, indexed[spec.name])) is not None
        and state.refresh_due
    ]


def refresh_distributions_due(
    settings: Settings, say: Callable[[str], None] = lambda _: None
) -> RefreshSummary | None:
    """Re-index the installed distributions that moved since they were indexed (what
    `serve` does in the background at start); None when none did."""
    due = distributions_due(settings)
    if not due:
        return None
    say(f"refreshing {', '.join(s.name for s in due)}: the installed version changed")
    summary = refresh_index(settings, due)
    for s in summary.sources:  # no summary is printed here: say what was skipped
        for unit, reason in s.skipped:
            say(f"{s.name}: skipped {unit}: {reason}")
    return summary
