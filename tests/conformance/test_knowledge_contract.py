"""What every Store answers the same way: writes, structured lookups, the four
retrieval queries, the model guard. Typed on the protocol; no SQL."""

from __future__ import annotations

import pytest

from ctxhub.core.errors import ModelMismatchError
from ctxhub.core.knowledge import Chunk, ChunkQuery, SearchFilters
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.store.protocol import FileState, HubStore
from tests.conftest import make_chunk


def _method(symbol: str, path: str = "pkg/proc.py", **meta: object) -> Chunk:
    chunk = make_chunk(source="fw", path=path, symbol=symbol, chunk_type="method", **meta)
    return chunk.model_copy(update={"line_start": 10, "line_end": 20})


@pytest.fixture
def filled(hub_store: HubStore) -> HubStore:
    processor = make_chunk(
        source="fw",
        path="pkg/proc.py",
        symbol="pkg.proc.FrameProcessor",
        chunk_type="class",
        content="class FrameProcessor: pushes frames downstream",
    ).model_copy(update={"line_start": 1, "line_end": 40})
    push = _method("pkg.proc.FrameProcessor.push_frame", calls=["queue_frame"])
    worker = _method("pkg.worker.Worker.run", path="pkg/worker.py", calls=["push_frame"])
    hub_store.replace_file("fw", "pkg/proc.py", [processor, push])
    hub_store.replace_file("fw", "pkg/worker.py", [worker], texts={"pkg/worker.py": "W\n"})
    guide = make_chunk("docs", "guide/start.md", kind="doc", content="Start a pipeline quickly")
    page2 = make_chunk("docs", "guide/start.md", kind="doc", content="Then stop it", ordinal=1)
    hub_store.replace_file("docs", "guide/start.md", [guide, page2])
    bot = make_chunk("ex", "bots/echo/bot.py", kind="example", content="echo bot main")
    hub_store.replace_file(
        "ex", "bots/echo", [bot], texts={"bots/echo/bot.py": "print(1)\n", "bots/echo/README": "hi"}
    )
    return hub_store


def test_get_chunks_keeps_the_order_asked_and_skips_unknown_ids(filled: HubStore) -> None:
    ids = [c.id for c in filled.find_chunks(ChunkQuery(source="fw"))]
    assert len(ids) == 3
    got = filled.get_chunks([ids[2], "nope", ids[0]])
    assert [c.id for c in got] == [ids[2], ids[0]]


def test_find_chunks_by_each_field(filled: HubStore) -> None:
    def symbols(**fields: object) -> set[str | None]:
        return {c.symbol for c in filled.find_chunks(ChunkQuery.model_validate(fields))}

    assert symbols(symbol="pkg.proc.FrameProcessor") == {"pkg.proc.FrameProcessor"}
    # a dotted suffix, case-insensitive
    assert symbols(symbol_name="PUSH_FRAME") == {"pkg.proc.FrameProcessor.push_frame"}
    assert symbols(symbol_name="FrameProcessor.push_frame") == {
        "pkg.proc.FrameProcessor.push_frame"
    }
    assert symbols(symbol_name="Processor.push_frame") == set()  # parts, not characters
    assert symbols(kind="api", chunk_types=("class",)) == {"pkg.proc.FrameProcessor"}
    assert symbols(calls="push_frame") == {"pkg.worker.Worker.run"}
    assert symbols(path="pkg/proc.py", covering_line=15) == {
        "pkg.proc.FrameProcessor",
        "pkg.proc.FrameProcessor.push_frame",
    }
    assert symbols(path="pkg/proc.py", covering_line=30) == {"pkg.proc.FrameProcessor"}
    assert symbols(unit="pkg/worker.py") == {"pkg.worker.Worker.run"}
    assert len(filled.find_chunks(ChunkQuery(kind="doc", source="docs"))) == 2
    assert len(filled.find_chunks(ChunkQuery(source="fw", limit=1))) == 1
    assert filled.find_chunks(ChunkQuery(source="elsewhere")) == []


def test_units_pages_and_file_texts(filled: HubStore) -> None:
    (bot,) = filled.find_chunks(ChunkQuery(kind="example"))
    assert filled.unit_of(bot.id) == ("ex", "bots/echo")
    assert filled.unit_of("nope") is None
    assert filled.unit_texts("ex", "bots/echo") == [
        ("bots/echo/README", "hi"),
        ("bots/echo/bot.py", "print(1)\n"),
    ]
    assert filled.doc_pages() == [("docs", "guide/start.md")]
    assert filled.doc_pages("fw") == []
    assert filled.file_text("fw", "pkg/worker.py") == "W\n"
    assert filled.file_text("fw", "pkg/none.py") is None


@pytest.mark.parametrize(
    "hostile", ['a" OR "b', "NEAR(x y)", "col:val", "*", "-x ^y", '"', "AND", "{content}:x"]
)
def test_bm25_treats_every_term_as_plain_words(filled: HubStore, hostile: str) -> None:
    filled.bm25([hostile], SearchFilters(), None, 10)  # never a syntax error


def test_bm25_matches_words_and_exact_phrases(filled: HubStore) -> None:
    (start,) = [c for c in filled.find_chunks(ChunkQuery(kind="doc")) if "Start" in c.content]
    assert [i for i, _ in filled.bm25(["start a pipeline"], SearchFilters(), None, 5)] == [start.id]
    assert filled.bm25(["pipeline start"], SearchFilters(), None, 5) == []  # a phrase
    found = filled.bm25(["pipeline", "echo"], SearchFilters(), ["example"], 5)
    assert len(found) == 1  # kinds filter before ranking
    assert filled.bm25([], SearchFilters(), None, 5) == []


def test_bm25_finds_a_function_by_the_messages_it_emits_by_key(hub_store: HubStore) -> None:
    # The source holds only the key; the text comes from the message table it reads.
    raiser = _method(
        "pkg.schema.Schema._deserialize",
        path="pkg/schema.py",
        content='errors.append(self.error_messages["unknown"])',
        extra={"messages": ["Unknown field."]},
    )
    hub_store.replace_file("fw", "pkg/schema.py", [raiser])
    found = hub_store.bm25(["Unknown field"], SearchFilters(), ["api"], 5)
    assert [i for i, _ in found] == [raiser.id]


def test_chunks_by_the_keys_of_their_message_templates_most_first(hub_store: HubStore) -> None:
    # keys (core/message_templates.py): "missing required" and "but got"; " parameter "
    # and " for path " say too little to be stored
    extractor = _method(
        "pkg.extract.query_extractor",
        path="pkg/extract.py",
        extra={
            "message_templates": [
                ["Missing required ", "", " parameter ", "", " for path ", ""],
                ["Expected a number ", "", " but got ", ""],
            ]
        },
    )
    other = _method(
        "pkg.extract.header_extractor",
        path="pkg/extract.py",
        extra={"message_templates": [["Missing required header"]]},
    )
    hub_store.replace_file("fw", "pkg/extract.py", [extractor, other])

    def matches(*keys: str, kinds: list[str] | None = None) -> list[tuple[str, int]]:
        return hub_store.term_matches("msgsegs", keys, SearchFilters(), kinds, 10)

    wanted = ("missing required header", "missing required", "but got", "expected number")
    assert matches(*wanted) == [(extractor.id, 2), (other.id, 1)]
    assert matches(*wanted, kinds=["doc"]) == []
    assert hub_store.term_matches("msgsegs", wanted, SearchFilters(source=["x"]), None, 9) == []
    assert hub_store.term_matches("msgsegs", wanted, SearchFilters(), None, 1) == [
        (extractor.id, 2)
    ]
    assert matches("for path", "parameter") == []  # not stored: one telling word each
    assert matches() == []


def test_symbol_lookup_and_listing(filled: HubStore) -> None:
    found = filled.symbol_lookup(["push_frame"], SearchFilters(), ["api"], 5)
    (push,) = filled.find_chunks(ChunkQuery(symbol="pkg.proc.FrameProcessor.push_frame"))
    assert found and found[0][0] == push.id
    first, total = filled.list_ids(SearchFilters(), None, 2)
    rest, again = filled.list_ids(SearchFilters(), None, 10, offset=2)
    assert total == again == 6 and len(first) == 2 and not set(first) & set(rest)


def test_bare_names_by_their_first_letters(filled: HubStore) -> None:
    # last parts of the symbols, lowercase, once each, in order
    assert filled.bare_names("F", 10) == ["frameprocessor"]
    assert filled.bare_names("r", 10) == ["run"]
    assert filled.bare_names("pu", 10) == ["push_frame"]
    assert filled.bare_names("p", 1) == ["push_frame"]
    assert filled.bare_names("x", 10) == []


def test_dense_search_and_the_model_guard(filled: HubStore) -> None:
    embedder = HashingEmbedder(dim=64)
    filled.bind_model(embedder.id, embedder.dim)
    assert filled.model == (embedder.id, 64)
    missing = filled.missing_embeddings(embedder.id)
    assert filled.count_missing_embeddings(embedder.id) == len(missing) == 6
    vectors = embedder.embed([text for _, text in missing])
    filled.put_embeddings(embedder.id, list(zip([h for h, _ in missing], vectors, strict=True)))
    assert filled.embedding_coverage(embedder.id) == (6, 6)
    (query,) = embedder.embed(["echo bot main"])
    (bot,) = filled.find_chunks(ChunkQuery(kind="example"))
    assert filled.dense(query, SearchFilters(), None, 3)[0][0] == bot.id
    with pytest.raises(ModelMismatchError):
        filled.bind_model("another-model", 64)


def test_generation_moves_on_writes_and_sources_are_removed(filled: HubStore) -> None:
    before = filled.generation()
    filled.mark_file("fw", FileState(path="pkg/bad.py", hash="x", status="skipped", reason="r"))
    assert filled.file_states("fw")["pkg/bad.py"].reason == "r"
    assert filled.remove_file("fw", "pkg/worker.py") == 1
    assert filled.generation() > before
    assert filled.counts()["docs"] == {"doc": 2}
    assert filled.delete_source("docs") == 2
    assert "docs" not in filled.counts()
    assert filled.doc_pages() == []
