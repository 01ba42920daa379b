"""Lookup-only chunks (core/knowledge.LOOKUP_ONLY), on every backend: rows that symbol,
structural and call lookups read, with no text-index entry and no vector, so BM25 and
dense rank exactly as if they were not stored; `SearchFilters.ranked_only` leaves them
out of the row lookups too."""

from __future__ import annotations

from typing import Any

import pytest

from ctxhub.core.knowledge import LOOKUP_ONLY, Chunk, ChunkQuery, SearchFilters
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.store.protocol import HubStore
from ctxhub.store.sqlite.store import SQLiteStore
from tests.conftest import make_chunk

EMBEDDER = HashingEmbedder(dim=64)
QUERIES = (["retry", "predicate"], ["exception"], ["state", "outcome"])
ANY = SearchFilters()
RANKED = SearchFilters(ranked_only=True)


def _ranked() -> list[Chunk]:
    return [
        make_chunk(
            "tn",
            "tn/retry.py",
            "tn.retry.retry_if_exception",
            chunk_type="class",
            content="class retry_if_exception(retry_base): retry if the exception verifies "
            "a predicate",
        ),
        make_chunk(
            "tn",
            "tn/retry.py",
            "tn.retry.retry_if_exception.__call__",
            chunk_type="method",
            calls=["exception"],
            content="def __call__(self, state):\n    exception = state.outcome.exception()\n"
            "    return self.predicate(exception)",
        ),
        make_chunk(
            "tn",
            "tn/stop.py",
            "tn.stop.stop_after_attempt",
            chunk_type="class",
            content="class stop_after_attempt: stop when the retry state reached a number "
            "of attempts",
        ),
    ]


def _trivial(
    path: str = "tn/retry.py", symbol: str = "tn.retry.retry_if_exception.__init__"
) -> Chunk:
    chunk = make_chunk(
        "tn",
        path,
        symbol,
        chunk_type="method",
        bases=["retry_base"],  # a structural term: lookups must still see it
        extra={LOOKUP_ONLY: True},
        content="def __init__(self, predicate):\n    self.predicate = predicate  # retry state "
        "exception outcome predicate predicate",
    )
    if path == "tn/retry.py":
        # the same embedded text as a ranked chunk: its vector is in the cache, yet it
        # has none (the other one's text is its own: it must never wait for a vector)
        chunk.embed_text = _ranked()[1].embed_text
    chunk.embed_windows = ["retry predicate exception window"]
    return chunk


def _embed(store: HubStore) -> None:
    missing = store.missing_embeddings(EMBEDDER.id, 1000)
    vectors = EMBEDDER.embed([t for _, t in missing])
    store.put_embeddings(EMBEDDER.id, list(zip([h for h, _ in missing], vectors, strict=True)))


def _rankings(store: HubStore) -> list[Any]:
    """Everything BM25 and dense answer, scores included, and the BM25 statistics."""
    out: list[Any] = [store.term_frequencies(["retry", "predicate", "exception", "state"])]
    for terms in QUERIES:
        out.append(store.bm25(terms, ANY, None, 50))
        out.append(store.bm25(terms, SearchFilters(source=["tn"]), ["api"], 50))
        query = EMBEDDER.embed([" ".join(terms)])[0]
        out.append(store.dense(query, ANY, None, 50))
        out.append(store.dense(query, SearchFilters(source=["tn"]), ["api"], 50))
        out.append(store.dense_windows(query, ANY, None, 50))
    out.append(store.embedding_coverage(EMBEDDER.id))
    return out


def _fts_consistent(store: HubStore) -> None:
    if isinstance(store, SQLiteStore):  # FTS5 checks its own index (not the content table)
        store.conn.execute("INSERT INTO chunks_fts(chunks_fts) VALUES ('integrity-check')")


@pytest.fixture
def store(hub_store: HubStore) -> HubStore:
    hub_store.bind_model(EMBEDDER.id, EMBEDDER.dim)
    return hub_store


def test_lookup_only_chunks_leave_bm25_and_dense_as_they_were(store: HubStore) -> None:
    ranked = _ranked()
    store.replace_file("tn", "tn/retry.py", ranked[:2])
    store.replace_file("tn", "tn/stop.py", ranked[2:])
    _embed(store)
    before = _rankings(store)
    store.replace_file("tn", "tn/retry.py", [*ranked[:2], _trivial()])
    store.replace_file("tn", "tn/abc.py", [_trivial("tn/abc.py", "tn.abc.retry_base.__call__")])
    # never waiting for a vector, even with a window text of its own
    assert store.missing_embeddings(EMBEDDER.id, 1000) == []
    assert store.count_missing_embeddings(EMBEDDER.id) == 0
    _embed(store)
    assert _rankings(store) == before
    _fts_consistent(store)


def test_lookup_only_chunks_are_rows_every_lookup_reads(store: HubStore) -> None:
    store.replace_file("tn", "tn/retry.py", [*_ranked()[:2], _trivial()])
    symbol = "tn.retry.retry_if_exception.__init__"
    (found,) = store.find_chunks(ChunkQuery(symbol=symbol))
    assert found.lookup_only and "self.predicate = predicate" in found.content
    assert [s for s, _ in store.symbol_lookup(["retry_if_exception.__init__"], ANY, None, 5)] == [
        found.id
    ]
    assert found.id in store.list_ids(SearchFilters(base_class="retry_base"), None, 10)[0]
    assert [c for c, _ in store.term_matches("bases", ["retry_base"], ANY, None, 10)] == [found.id]
    assert store.counts()["tn"]["api"] == 3
    # the search paths that read rows ask for ranked chunks only
    assert store.symbol_lookup(["retry_if_exception.__init__"], RANKED, None, 5) == []
    assert found.id not in store.list_ids(RANKED, None, 10)[0]
    assert store.term_matches("bases", ["retry_base"], RANKED, None, 10) == []


def test_find_chunks_reads_lookup_only_or_ranked_rows_alone(store: HubStore) -> None:
    ranked = _ranked()
    store.replace_file("tn", "tn/retry.py", [*ranked[:2], _trivial()])
    looked = store.find_chunks(ChunkQuery(source="tn", lookup_only=True))
    assert [c.symbol for c in looked] == ["tn.retry.retry_if_exception.__init__"]
    plain = store.find_chunks(ChunkQuery(source="tn", lookup_only=False))
    assert [c.id for c in plain] == [c.id for c in ranked[:2]]
    assert len(store.find_chunks(ChunkQuery(source="tn"))) == 3  # None: both


def test_replacing_and_removing_lookup_only_chunks_keeps_the_text_index(
    store: HubStore,
) -> None:
    ranked = _ranked()
    store.replace_file("tn", "tn/retry.py", ranked[:2])
    store.replace_file("tn", "tn/stop.py", ranked[2:])
    _embed(store)
    before = _rankings(store)
    trivial = _trivial()
    store.replace_file("tn", "tn/retry.py", [*ranked[:2], trivial])
    # changed (deleted and written again), then gone with its file's other chunks
    trivial.content += "\n# changed"
    store.replace_file("tn", "tn/retry.py", [*ranked[:2], trivial])
    _fts_consistent(store)
    store.replace_file("tn", "tn/retry.py", ranked[:2])
    _fts_consistent(store)
    assert _rankings(store) == before
    store.replace_file("tn", "tn/retry.py", [*ranked[:2], trivial])
    store.remove_file("tn", "tn/retry.py")
    store.delete_source("tn")
    _fts_consistent(store)
    assert store.bm25(["predicate"], ANY, None, 10) == []
