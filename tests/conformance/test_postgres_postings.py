"""PostgreSQL only: BM25 from the postings table (schema 5) ranks exactly as BM25 from
the tsvectors, and the triggers keep the postings in step with every chunk write."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ctxhub.core.knowledge import SearchFilters
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.sources.base import SourceSpec
from ctxhub.store.factory import open_store
from ctxhub.store.postgres import fts, reads
from ctxhub.store.postgres.filters import where_clause
from tests.conftest import make_chunk

CORPUS = Path(__file__).parents[1] / "fixtures" / "corpus"
QUERIES = [
    ["pipeline", "start"],
    ["push_frame", "frame"],
    ["text to speech", "voice"],  # a phrase
    ["frame frame"],  # a phrase of one lexeme twice: adjacency still required
    ["run", "pipeline task", "Pipeline", "nosuchwordanywhere"],
    ["transport"],
]


def _both(store: Any, terms: list[str], kinds: list[str] | None) -> tuple[Any, Any]:
    """(tsvector ranking, postings ranking) of `terms`, scores to 9 decimals."""
    words = fts.phrases(terms)
    total = store.chunk_count()
    freqs = store._frequencies(words)
    idfs = [fts.idf(freqs[w], total) for w in words]
    where, params = where_clause(SearchFilters(), kinds)
    args = (*words, *words, idfs, store._avgdl(), *params, 20)
    out = []
    for sql in (
        fts.bm25_sql("chunks", "c", ["tsv"], reads.CHUNK_FIELDS, where, len(words)),
        fts.postings_bm25_sql(where, len(words)),
    ):
        out.append([(str(r[0]), round(float(r[1]), 9)) for r in store._all(sql, args)])
    return out[0], out[1]


@pytest.mark.parametrize("kinds", [None, ["doc"], ["api", "example"]])
def test_postings_rank_as_the_tsvectors(pg_url: str, tmp_path: Path, kinds: Any) -> None:
    with open_store(pg_url) as store:
        spec = SourceSpec(name="corpus", path=str(CORPUS))
        refresh(store, [spec], tmp_path / "src", HashingEmbedder(dim=384))  # type: ignore[arg-type]
        found = [_both(store, q, kinds) for q in QUERIES]
    assert all(old == new for old, new in found), found
    assert sum(len(new) for _, new in found) > 10  # the queries do match


def test_postings_follow_replaces_and_deletes(pg_url: str) -> None:
    first = make_chunk("s", "a.py", "a.push_frame", content="push a frame downstream")
    second = make_chunk("s", "a.py", "a.stop", content="stop the frame pipeline now")
    other = make_chunk("t", "b.py", "b.frame", content="a frame, another frame")
    with open_store(pg_url) as store:
        store.replace_file("s", "a.py", [first, second])
        store.replace_file("t", "b.py", [other])

        def postings() -> dict[str, int]:
            rows = store._all(
                "SELECT c.id, count(*) FROM chunk_postings p JOIN chunks c "
                "ON c.rowid = p.chunk GROUP BY c.id"
            )
            return {str(r[0]): int(r[1]) for r in rows}

        assert set(postings()) == {first.id, second.id, other.id}
        assert (
            store._one(
                "SELECT count(*) FROM chunk_postings p LEFT JOIN chunks c "
                "ON c.rowid = p.chunk WHERE c.rowid IS NULL"
            )[0]
            == 0
        )
        store.replace_file("s", "a.py", [second])  # first gone, second rewritten
        assert set(postings()) == {second.id, other.id}
        assert [i for i, _ in store.bm25(["frame"], SearchFilters(), None, 5)] == [
            other.id,
            second.id,
        ]
        old, new = _both(store, ["frame", "stop"], None)
        assert old == new and len(new) == 2
        store.delete_source("t")
        assert set(postings()) == {second.id}
        assert store._one("SELECT count(*) FROM chunk_postings")[0] == postings()[second.id]


def test_equal_scores_keep_the_row_order(pg_url: str) -> None:
    # copies of one text score alike to the last bit (terms summed in one order), so
    # ties fall back to insertion order exactly as with the tsvector statement
    text = "start the pipeline task and push a frame to the transport output"
    with open_store(pg_url) as store:
        for n in range(12):
            chunk = make_chunk("s", f"f{n}.py", f"m{n}.run", content=text)
            store.replace_file("s", f"f{n}.py", [chunk])
        terms = ["pipeline", "frame", "transport", "push", "start", "output", "task"]
        old, new = _both(store, terms, None)
        assert len(new) == 12 and old == new
        assert [i for i, _ in store.bm25(terms, SearchFilters(), None, 20)] == [i for i, _ in new]
