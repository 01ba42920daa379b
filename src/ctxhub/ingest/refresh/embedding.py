"""Fill in vectors for chunks that have none, through the embedding cache.

The cache is keyed by (model id, sha256 of the embedded text), so text that was embedded
once (by any source, any earlier version) is never embedded again.
"""

from __future__ import annotations

from ctxhub.core.progress import NO_PROGRESS, Progress
from ctxhub.embed.base import Embedder
from ctxhub.store.protocol import HubStore

#: Texts fetched and written per round: a commit every few seconds keeps dense search
#: current while a refresh runs, without a transaction per batch.
ROUND = 256


def embed_missing(
    store: HubStore,
    embedder: Embedder,
    *,
    progress: Progress = NO_PROGRESS,
    batch_size: int = 32,
    source: str | None = None,
) -> int:
    """Embed every chunk text of `embedder`'s model not yet in the cache; returns count."""
    store.bind_model(embedder.id, embedder.dim)
    total = store.count_missing_embeddings(embedder.id, source)
    if total == 0:
        return 0
    progress.start("embeddings", total)
    done = 0
    while True:
        missing = store.missing_embeddings(embedder.id, limit=ROUND, source=source)
        if not missing:
            break
        vectors = embedder.embed([text for _, text in missing], batch_size=batch_size)
        store.put_embeddings(
            embedder.id, [(h, v) for (h, _), v in zip(missing, vectors, strict=True)]
        )
        done += len(missing)
        progress.advance(len(missing))
    progress.done()
    return done
