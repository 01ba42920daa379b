from __future__ import annotations

import logging

import pytest

from ctxhub.core.errors import StoreCorruptError, StoreQueryError
from ctxhub.core.knowledge import SearchFilters, SearchRequest
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.search.retriever import Retriever, SearchOptions
from ctxhub.store.sqlite.store import SQLiteStore
from tests.conftest import embed_all, make_chunk


@pytest.fixture
def retriever(store: SQLiteStore, embedder: HashingEmbedder) -> Retriever:
    store.replace_file(
        "fw",
        "src/fw/pipe.py",
        [
            make_chunk(
                "fw",
                "src/fw/pipe.py",
                "fw.pipe.Worker.queue_frames",
                "async def queue_frames(self, frames):\n"
                "    for f in frames: await self.queue_frame(f)",
                chunk_type="method",
                calls=["queue_frame"],
            ),
            make_chunk(
                "fw",
                "src/fw/pipe.py",
                "fw.pipe.Worker.queue_frame",
                "async def queue_frame(self, frame):\n    await self._queue.put(frame)",
                chunk_type="method",
            ),
            make_chunk(
                "fw",
                "src/fw/pipe.py",
                "fw.pipe.Worker",
                "class Worker: runs a pipeline of processors and queues frames",
                chunk_type="class",
            ),
        ],
    )
    store.replace_file(
        "docs",
        "guide.mdx",
        [
            make_chunk(
                "docs",
                "guide.mdx",
                None,
                f"Recording audio part {i}: buffer audio chunks",
                kind="doc",
                ordinal=i,
            )
            for i in range(3)
        ],
    )
    return Retriever(store, embed_all(store, embedder))


def test_symbol_query_ranks_definition_first_and_explains(retriever: Retriever) -> None:
    response = retriever.search(SearchRequest(query="Worker.queue_frames where is it defined"))
    top = response.hits[0]
    assert top.symbol == "fw.pipe.Worker.queue_frames"
    assert set(top.signals) >= {"bm25", "symbol"}
    assert top.signals["symbol"].rank == 1
    assert 0 < top.score <= 1
    assert response.confidence > 0.5 and not response.low_confidence


def test_a_failing_path_is_logged_and_the_others_fuse(
    retriever: Retriever, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: object, **kwargs: object) -> list[tuple[str, float]]:
        raise StoreQueryError("database is locked")

    monkeypatch.setattr(retriever.store, "dense", broken)
    with caplog.at_level(logging.WARNING):
        response = retriever.search(SearchRequest(query="queue_frames"))
    assert response.hits and "dense" not in response.hits[0].signals
    assert "retrieval path dense failed (database is locked)" in caplog.text


def test_a_bug_in_a_path_is_raised_not_hidden_as_worse_ranking(
    retriever: Retriever, monkeypatch: pytest.MonkeyPatch
) -> None:
    def buggy(*args: object, **kwargs: object) -> list[tuple[str, float]]:
        raise TypeError("unsupported operand")

    monkeypatch.setattr(retriever.store, "bm25", buggy)
    with pytest.raises(TypeError, match="unsupported operand"):
        retriever.search(SearchRequest(query="queue_frames"))


@pytest.mark.parametrize("path", ["bm25", "dense", "symbol"])
def test_a_damaged_store_is_not_a_failing_path(
    retriever: Retriever, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    def damaged(*args: object, **kwargs: object) -> list[tuple[str, float]]:
        raise StoreCorruptError("the store x is damaged (database disk image is malformed)")

    monkeypatch.setattr(retriever.store, "symbol_lookup" if path == "symbol" else path, damaged)
    with pytest.raises(StoreCorruptError, match="damaged"):
        retriever.search(SearchRequest(query="PipelineWorker.queue_frames"))


def test_single_path_options(retriever: Retriever) -> None:
    only_dense = retriever.search(
        SearchRequest(query="queue frames"), SearchOptions(paths=("dense",))
    )
    assert only_dense.hits and all(set(h.signals) == {"dense"} for h in only_dense.hits)


def test_doc_chunks_collapse_to_one_hit_per_page(retriever: Retriever) -> None:
    response = retriever.search(SearchRequest(query="recording audio buffer", kinds=["doc"]))
    assert [h.path for h in response.hits] == ["guide.mdx"]
    expanded = retriever.search(
        SearchRequest(query="recording audio buffer", kinds=["doc"]), SearchOptions(collapse=False)
    )
    assert len(expanded.hits) == 3


def test_budget_trims_snippets_but_keeps_citations(retriever: Retriever) -> None:
    full = retriever.search(SearchRequest(query="frames queue worker", max_tokens=8000))
    medium = retriever.search(SearchRequest(query="frames queue worker", max_tokens=600))
    tight = retriever.search(SearchRequest(query="frames queue worker", max_tokens=200))
    # metadata and snippet tails give way first; a hit is kept only with its code's first
    # lines (never a bare "…"), and the hits that go are counted, not cut silently
    assert [h.id for h in medium.hits] == [h.id for h in full.hits][: len(medium.hits)]
    assert len(medium.hits) + medium.left_out == len(full.hits) and medium.left_out
    assert all(h.snippet and h.snippet != "…" for h in medium.hits)
    assert medium.truncated
    # when even the citations do not fit, the lowest-ranked hits go, never a citation
    assert tight.hits and [h.id for h in tight.hits] == [h.id for h in full.hits][: len(tight.hits)]
    for short, whole in zip(tight.hits, full.hits, strict=False):
        assert (short.path, short.line_start, short.line_end, short.symbol) == (
            whole.path,
            whole.line_start,
            whole.line_end,
            whole.symbol,
        )
    assert tight.truncated and tight.left_out == len(full.hits) - len(tight.hits)


def test_filters_reach_every_path(retriever: Retriever) -> None:
    response = retriever.search(
        SearchRequest(query="Worker queue frames", filters=SearchFilters(calls="queue_frame"))
    )
    assert [h.symbol for h in response.hits] == ["fw.pipe.Worker.queue_frames"]


def test_words_the_index_lacks_lower_the_confidence(
    retriever: Retriever, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ctxhub.search import confidence as conf

    seen: list[float] = []
    real = conf.features

    def spy(*args: object, **kwargs: object) -> conf.ConfidenceFeatures:
        f = real(*args, **kwargs)  # type: ignore[arg-type]
        seen.append(f.coverage)
        return f

    monkeypatch.setattr(conf, "features", spy)
    known = retriever.search(SearchRequest(query="worker queue frames"))
    foreign = retriever.search(SearchRequest(query="worker queue frames terraform helm kubectl"))
    assert seen == [1.0, 0.5]
    assert foreign.confidence < known.confidence


def test_unrelated_query_is_low_confidence_with_follow_ups(retriever: Retriever) -> None:
    response = retriever.search(SearchRequest(query="kubernetes helm chart ingress"))
    assert response.low_confidence
    assert response.next_queries


def test_what_is_not_current_is_demoted_with_its_reason() -> None:
    from ctxhub.core.knowledge import Chunk, ChunkMeta
    from ctxhub.search.analyzer import analyze
    from ctxhub.search.rank import Candidate, Currency, rerank

    def cand(cid: str, **meta: object) -> Candidate:
        chunk = Chunk(
            id=cid, source="s", kind="api", path="a.py", content="x", embed_text="x",
            metadata=ChunkMeta.model_validate(meta),
        )  # fmt: skip
        return Candidate(chunk=chunk, fused=1.0, signals={})

    ranked = [
        cand("old", deprecated=True),
        cand("pinned", extra={"compatible": False}),
        cand("current"),
    ]
    rerank(analyze("speak"), ranked, [Currency()])
    scores = {c.chunk.id: (round(c.score, 3), c.boosts) for c in ranked}
    assert scores["old"] == (0.85, {"currency": 0.85})
    assert scores["pinned"] == (0.8, {"currency": 0.8})
    assert scores["current"] == (1.0, {})


def test_public_definitions_come_before_private_ones_for_usage_questions() -> None:
    """The same text under a public and a private name: a "how do I" question through
    search_api lists the public one first (the private one stays, explained); a question
    about the internals or a pasted error ranks them as the paths do."""
    from ctxhub.search.analyzer import analyze
    from ctxhub.search.rank import Candidate, PublicApi, rerank

    def cand(symbol: str, fused: float) -> Candidate:
        return Candidate(chunk=make_chunk(symbol=symbol), fused=fused, signals={})

    def order(query: str) -> list[str]:
        ranked = [cand("pkg._internal.run_later", 1.0), cand("pkg.tasks.BackgroundTask", 0.9),
                  cand("pkg.tasks.BackgroundTask.__init__", 0.85)]  # fmt: skip
        return [c.chunk.symbol or "" for c in rerank(analyze(query), ranked, [PublicApi()])]

    assert order("run a task after the response is sent") == [
        "pkg.tasks.BackgroundTask",
        "pkg.tasks.BackgroundTask.__init__",
        "pkg._internal.run_later",
    ]
    assert order("how does the framework decide when a task runs")[0] == "pkg._internal.run_later"
    assert order("RuntimeError: task failed after response")[0] == "pkg._internal.run_later"


def test_spread_offers_more_than_one_class_for_a_usage_question() -> None:
    """Five methods of one class crowd out the configuration class a user needs; a
    candidate whose class already has a better hit steps back for usage questions only."""
    from ctxhub.search.analyzer import analyze
    from ctxhub.search.rank import Candidate, Spread, rerank

    def cand(symbol: str, cls: str | None, fused: float) -> Candidate:
        module = "pkg.cors" if cls != "CORSMiddleware" else "pkg.middleware"
        chunk = make_chunk(symbol=symbol, module=module, class_name=cls)
        return Candidate(chunk=chunk, fused=fused, signals={})

    def order(query: str) -> list[str]:
        ranked = [
            cand("pkg.cors.CORSConfig", "CORSConfig", 1.0),
            cand("pkg.cors.CORSConfig.is_origin_allowed", "CORSConfig", 0.95),
            cand("pkg.cors.CORSConfig.simple_headers", "CORSConfig", 0.9),
            cand("pkg.middleware.CORSMiddleware", "CORSMiddleware", 0.8),
            cand("pkg.cors.allowed", None, 0.75),
        ]
        return [c.chunk.symbol or "" for c in rerank(analyze(query), ranked, [Spread()])]

    as_found = [
        "pkg.cors.CORSConfig",
        "pkg.cors.CORSConfig.is_origin_allowed",
        "pkg.cors.CORSConfig.simple_headers",
        "pkg.middleware.CORSMiddleware",
        "pkg.cors.allowed",
    ]
    assert order("ValueError: origin not allowed by the CORS policy") == as_found  # an error
    usage = order("allow my frontend origin to call the API")
    assert usage[:3] == [
        "pkg.cors.CORSConfig",
        "pkg.middleware.CORSMiddleware",
        "pkg.cors.allowed",
    ]
    internals = order("how does the framework check an allowed origin")
    assert internals[1] == "pkg.cors.CORSConfig.is_origin_allowed"


def test_a_named_class_lifts_the_methods_it_inherits() -> None:
    """`fields.DateTime` does its formatting in its base's `_serialize`: a method of a
    base class of the class the query names gets the symbol boost of one part; a method
    of an unrelated class, or of a same-named base in another source, does not."""
    from ctxhub.search.analyzer import analyze
    from ctxhub.search.rank import Candidate, SymbolBoost, rerank

    def cand(symbol: str, fused: float, source: str = "src", *bases: str) -> Candidate:
        owner = symbol.split(".")[2]
        kind = "method" if symbol.count(".") > 2 else "class"
        chunk = make_chunk(source, symbol=symbol, module="pkg.fields", class_name=owner,
                           chunk_type=kind, bases=list(bases))  # fmt: skip
        return Candidate(chunk=chunk, fused=fused, signals={})

    def ranked() -> list[Candidate]:
        return [
            cand("pkg.fields.DateTime", 1.0, "src", "_TemporalField[dt.datetime]"),
            cand("pkg.fields.Number._format", 0.5),
            cand("pkg.fields._TemporalField._format", 0.5, "other"),
            cand("pkg.fields._TemporalField._serialize", 0.45),
        ]

    final = rerank(analyze("where does fields.DateTime pick its format"), ranked(), [SymbolBoost()])
    assert [c.chunk.symbol for c in final][:2] == [
        "pkg.fields.DateTime",
        "pkg.fields._TemporalField._serialize",
    ]
    assert final[1].boosts == {"symbol": 1.35}
    assert all("symbol" not in c.boosts for c in final[2:])
    # no class named: nothing inherits a boost
    plain = rerank(analyze("where is a date formatted"), ranked(), [SymbolBoost()])
    assert all("symbol" not in c.boosts for c in plain)


def test_boosted_hits_keep_distinct_scores_in_rank_order() -> None:
    """Boosts (a named symbol x1.7, the declared API x1.4) lift several hits above what a
    first place on every path fuses to; capped at 1.0 each, the top seven all read 1.00.
    Scaled by the best, the first reads 1.0 and the rest keep their order and gaps."""
    from ctxhub.search.budget import display_norm, to_hits
    from ctxhub.search.rank import Candidate

    norm = 2 / 61  # two paths, each ranking one hit first
    scores = [norm * f for f in (1.9, 1.6, 1.4, 1.2, 0.5)]
    ranked = [
        Candidate(chunk=make_chunk(symbol=f"pkg.f{i}"), fused=s, signals={})
        for i, s in enumerate(scores)
    ]
    hits, _, _ = to_hits(ranked, display_norm(norm, scores), max_tokens=4000)
    shown = [h.score for h in hits]
    assert shown[0] == 1.0 and shown == sorted(shown, reverse=True)
    assert len(set(shown)) == len(shown)
    assert shown[-1] == pytest.approx(0.5 / 1.9, abs=1e-4)
    # nothing boosted past the norm: scores read as before, relative to the norm
    assert display_norm(norm, [norm * 0.8, norm * 0.5]) == norm
