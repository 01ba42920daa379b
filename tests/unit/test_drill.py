"""Drill-down: a class overview that ranks on its content brings its nearest methods in,
just above it (pure function, then a real SQLite store)."""

from __future__ import annotations

from collections.abc import Sequence

from ctxhub.core.knowledge import Chunk, SearchFilters, SearchRequest, Signal
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.search.analyzer import analyze
from ctxhub.search.drill import LEAD, MemberSearch, drill_down, member_filters
from ctxhub.search.rank import Candidate
from ctxhub.search.retriever import Retriever, SearchOptions
from ctxhub.store.sqlite.store import SQLiteStore
from tests.conftest import make_chunk

HOW = "how does fw decide that a flag is an on/off switch?"


def _chunk(symbol: str, chunk_type: str) -> Chunk:
    return make_chunk("fw", "fw/core.py", symbol, f"body of {symbol}", chunk_type=chunk_type)


def _cands(*items: tuple[Chunk, float]) -> list[Candidate]:
    return [Candidate(chunk=c, fused=score, signals={}) for c, score in items]


OPTION = _chunk("fw.core.Option", "class")
PARSE = _chunk("fw.core.Option._parse_decls", "method")
INIT = _chunk("fw.core.Option.__init__", "method")
GET_DEFAULT = _chunk("fw.core.Option.get_default", "method")
OTHER = _chunk("fw.util.echo", "function")
STORE = {c.id: c for c in (OPTION, PARSE, INIT, GET_DEFAULT, OTHER)}


def _load(ids: Sequence[str]) -> list[Chunk]:
    return [STORE[i] for i in ids]


def _members(found: list[str]) -> tuple[list[SearchFilters], MemberSearch]:
    asked: list[SearchFilters] = []

    def search(filters: SearchFilters, limit: int) -> list[tuple[str, float]]:
        asked.append(filters)
        return [(cid, 1.0 / (i + 1)) for i, cid in enumerate(found)][:limit]

    return asked, search


def test_window_led_class_brings_its_nearest_methods_just_above_it() -> None:
    ranked = _cands((OTHER, 1.0), (OPTION, 0.8))
    asked, search = _members([INIT.id, PARSE.id, GET_DEFAULT.id])
    out = drill_down(analyze(HOW), ranked, SearchFilters(), {OPTION.id}, search, _load)
    order = [c.chunk.id for c in out]
    # __init__ is left out (the overview shows the constructor); two methods, then the class
    assert order == [OTHER.id, PARSE.id, GET_DEFAULT.id, OPTION.id]
    parse = out[1]
    assert parse.score == 0.8 * LEAD
    assert parse.signals["drill"].rank == 1 and parse.boosts["drill"] == LEAD
    # the store was asked for the class's methods only, in the class's source
    assert asked[0].symbol_prefix == "fw.core.Option."
    assert asked[0].chunk_type == ["method", "function"] and asked[0].source == ["fw"]


def test_no_drill_for_usage_questions_or_errors() -> None:
    _, search = _members([PARSE.id])
    for query in (
        "how do I make a flag an on/off switch?",  # usage question
        "how does fw parse this? ValueError: bad flag",  # pasted error
    ):
        ranked = _cands((OTHER, 1.0), (OPTION, 0.8))
        out = drill_down(analyze(query), ranked, SearchFilters(), {OPTION.id}, search, _load)
        assert [c.chunk.id for c in out] == [OTHER.id, OPTION.id], query


def test_a_class_the_query_names_is_drilled_only_when_a_window_lifted_it() -> None:
    _, search = _members([PARSE.id])

    def order(named: bool, led: set[str]) -> list[str]:
        ranked = _cands((OTHER, 1.0), (OPTION, 0.8))
        if named:  # found by the symbol path: it ranks for its name
            ranked[1].signals = {"symbol": Signal(rank=1, score=2.0)}
        out = drill_down(analyze(HOW), ranked, SearchFilters(), led, search, _load)
        return [c.chunk.id for c in out]

    assert order(named=True, led=set()) == [OTHER.id, OPTION.id]
    assert order(named=True, led={OPTION.id}) == [OTHER.id, PARSE.id, OPTION.id]
    assert order(named=False, led=set()) == [OTHER.id, PARSE.id, OPTION.id]


def test_a_member_ranked_higher_keeps_its_place_and_only_top_classes_drill() -> None:
    _, search = _members([PARSE.id])
    ranked = _cands((PARSE, 2.0), (OPTION, 0.8))
    out = drill_down(analyze(HOW), ranked, SearchFilters(), {OPTION.id}, search, _load)
    assert [c.chunk.id for c in out] == [PARSE.id, OPTION.id] and out[0].score == 2.0
    assert "drill" not in out[0].boosts
    ranked = _cands((OTHER, 1.0), (OPTION, 0.8))
    out = drill_down(analyze(HOW), ranked, SearchFilters(), {OPTION.id}, search, _load, top=1)
    assert [c.chunk.id for c in out] == [OTHER.id, OPTION.id]


def test_member_filters_keep_the_request_filters() -> None:
    scoped = member_filters(OPTION, SearchFilters(calls="split", chunk_type=["method", "class"]))
    assert scoped is not None
    assert scoped.calls == "split" and scoped.chunk_type == ["method"]
    assert member_filters(OPTION, SearchFilters(chunk_type=["class"])) is None


def _index(store: SQLiteStore, embedder: HashingEmbedder, chunks: list[Chunk]) -> None:
    by_file: dict[str, list[Chunk]] = {}
    for c in chunks:
        by_file.setdefault(c.path, []).append(c)
    for path, group in by_file.items():
        store.replace_file("fw", path, group)
    store.bind_model(embedder.id, embedder.dim)
    missing = store.missing_embeddings(embedder.id, 1000)
    vectors = embedder.embed([t for _, t in missing])
    store.put_embeddings(embedder.id, list(zip([h for h, _ in missing], vectors, strict=True)))


def test_retriever_drills_into_a_class_found_by_its_window(
    store: SQLiteStore, embedder: HashingEmbedder
) -> None:
    words = "boolean flag switch secondary slash negative"
    overview = make_chunk(
        "fw", "fw/core.py", "fw.core.Option", "class Option: options", chunk_type="class"
    ).model_copy(update={"embed_windows": ["fw.core.Option\nprompt text", f"x\n{words}"]})
    method = make_chunk(
        "fw",
        "fw/core.py",
        "fw.core.Option._parse_decls",
        "def _parse_decls(self, decls): returns each declaration",
        chunk_type="method",
        module="fw.core",
        class_name="Option",
    )
    noise = [
        make_chunk("fw", f"fw/m{i}.py", f"fw.m{i}.thing", f"def thing(): {w} helper")
        for i, w in enumerate(words.split()[:3])
    ]
    _index(store, embedder, [overview, method, *noise])
    query = f"how does fw tell a {words} apart?"
    retriever = Retriever(store, embedder)
    request = SearchRequest(query=query, kinds=["api"], limit=20)

    def order(options: SearchOptions) -> list[str]:
        return [c.chunk.id for c in retriever.rank(request, options).candidates]

    without = order(SearchOptions(scorers=()))
    drilled = order(SearchOptions(scorers=("drill",)))
    assert without.index(method.id) > without.index(overview.id)
    assert drilled.index(method.id) == drilled.index(overview.id) - 1
    hit = next(c for c in retriever.rank(request).candidates if c.chunk.id == method.id)
    assert "drill" in hit.signals and "drill" in hit.boosts
