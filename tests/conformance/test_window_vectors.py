"""Window texts of long chunks (`Chunk.embed_windows`), on every backend: written and
removed with their chunk, embedded after the chunks' own texts, searched by
`dense_windows` with the filters applied first."""

from __future__ import annotations

import pytest

from ctxhub.core.knowledge import Chunk, ChunkQuery, SearchFilters
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.store.protocol import HubStore
from tests.conftest import make_chunk

WINDOWS = [
    "pkg.app.App.__init__\non_startup: callables run when the app starts",
    "pkg.app.App.__init__\nexception_handlers: a mapping of exception types to handlers",
]


def _long(windows: list[str]) -> Chunk:
    chunk = make_chunk("fw", "pkg/app.py", "pkg.app.App.__init__", "def __init__(self): ...")
    return chunk.model_copy(update={"embed_windows": windows})


@pytest.fixture
def embedder() -> HashingEmbedder:
    return HashingEmbedder(dim=64)


@pytest.fixture
def stored(hub_store: HubStore, embedder: HashingEmbedder) -> HubStore:
    hub_store.bind_model(embedder.id, embedder.dim)
    hub_store.replace_file("fw", "pkg/app.py", [_long(WINDOWS)])
    other = make_chunk("fw", "pkg/util.py", "pkg.util.helper", "def helper(): ...")
    hub_store.replace_file("fw", "pkg/util.py", [other])
    guide = make_chunk("docs", "guide.md", kind="doc", content="Exception handlers guide")
    hub_store.replace_file("docs", "guide.md", [guide.model_copy(update={"embed_windows": []})])
    return hub_store


def _embed_all(store: HubStore, embedder: HashingEmbedder) -> list[str]:
    missing = store.missing_embeddings(embedder.id)
    vectors = embedder.embed([t for _, t in missing])
    store.put_embeddings(embedder.id, list(zip([h for h, _ in missing], vectors, strict=True)))
    return [t for _, t in missing]


def test_windows_are_embedded_after_every_chunk_text(
    stored: HubStore, embedder: HashingEmbedder
) -> None:
    assert stored.count_missing_embeddings(embedder.id) == 5
    assert stored.count_missing_embeddings(embedder.id, source="docs") == 1
    texts = _embed_all(stored, embedder)
    assert texts[3:] == WINDOWS  # the three chunks' own texts come first
    assert stored.count_missing_embeddings(embedder.id) == 0
    assert stored.embedding_coverage(embedder.id) == (3, 3)  # chunks, not windows


def test_dense_windows_scores_a_chunk_by_its_best_window(
    stored: HubStore, embedder: HashingEmbedder
) -> None:
    _embed_all(stored, embedder)
    (query,) = embedder.embed([WINDOWS[1]])
    (app,) = stored.find_chunks(ChunkQuery(symbol="pkg.app.App.__init__"))
    found = stored.dense_windows(query, SearchFilters(), None, 5)
    assert [cid for cid, _, _ in found] == [app.id]  # only chunks that have windows
    _, own, best = found[0]
    assert best == pytest.approx(1.0, abs=1e-5)
    (own_vec,) = embedder.embed([app.embed_text])
    assert own == pytest.approx(float(own_vec @ query), abs=1e-5)
    assert stored.dense_windows(query, SearchFilters(), ["doc"], 5) == []
    assert stored.dense_windows(query, SearchFilters(source=["docs"]), None, 5) == []


def test_windows_read_back_and_go_with_their_chunk(
    stored: HubStore, embedder: HashingEmbedder
) -> None:
    _embed_all(stored, embedder)
    (app,) = stored.find_chunks(ChunkQuery(symbol="pkg.app.App.__init__"))
    assert app.embed_windows == WINDOWS
    (query,) = embedder.embed([WINDOWS[0]])
    stored.replace_file("fw", "pkg/app.py", [_long(WINDOWS[:1])])  # one window fewer
    (app,) = stored.find_chunks(ChunkQuery(symbol="pkg.app.App.__init__"))
    assert app.embed_windows == WINDOWS[:1]
    assert [cid for cid, _, _ in stored.dense_windows(query, SearchFilters(), None, 5)] == [app.id]
    stored.replace_file("fw", "pkg/app.py", [_long([])])
    assert stored.dense_windows(query, SearchFilters(), None, 5) == []
    stored.replace_file("fw", "pkg/app.py", [_long(WINDOWS)])
    assert stored.count_missing_embeddings(embedder.id) == 0  # the vectors stayed cached
    assert stored.remove_file("fw", "pkg/app.py") == 1
    assert stored.dense_windows(query, SearchFilters(), None, 5) == []
