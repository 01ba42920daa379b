from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from ctxhub.core.errors import ModelMismatchError, StoreError
from ctxhub.core.knowledge import Deprecation, SearchFilters, content_hash
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.search.analyzer import analyze, bm25_terms
from ctxhub.store.protocol import FileState
from ctxhub.store.sqlite.schema import SCHEMA_VERSION, migrate
from ctxhub.store.sqlite.store import SQLiteStore
from tests.conftest import make_chunk


def _embed_all(store: SQLiteStore, embedder: HashingEmbedder) -> None:
    store.bind_model(embedder.id, embedder.dim)
    missing = store.missing_embeddings(embedder.id, limit=10_000)
    vecs = embedder.embed([t for _, t in missing])
    store.put_embeddings(embedder.id, [(h, v) for (h, _), v in zip(missing, vecs, strict=True)])


def test_round_trip_keeps_every_field(store: SQLiteStore) -> None:
    chunk = make_chunk(
        symbol="pkg.mod.A.run",
        content="def run(self):\n    self.go()",
        chunk_type="method",
        calls=["go"],
        signature="def run(self)",
        extra={"note": "x"},
    )
    result = store.replace_file("src", "pkg/mod.py", [chunk])
    assert (result.added, result.updated, result.removed) == (1, 0, 0)
    [back] = store.get_chunks([chunk.id])
    assert back == chunk


def test_replace_is_incremental(store: SQLiteStore) -> None:
    a = make_chunk(symbol="pkg.mod.a", content="one")
    b = make_chunk(symbol="pkg.mod.b", content="two")
    store.replace_file("src", "pkg/mod.py", [a, b])
    b2 = b.model_copy(update={"content": "two changed", "content_hash": ""})
    b2 = type(b)(**b2.model_dump(exclude={"content_hash"}))
    c = make_chunk(symbol="pkg.mod.c", content="three")
    result = store.replace_file("src", "pkg/mod.py", [b2, c])
    assert (result.added, result.updated, result.removed, result.unchanged) == (1, 1, 1, 0)
    assert [x.id for x in store.get_chunks([a.id, b.id, c.id])] == [b.id, c.id]
    assert store.get_chunks([b.id])[0].content == "two changed"
    # FTS follows: the removed chunk's words are gone, the new ones are found
    assert store.bm25(["one"], SearchFilters(), None, 10) == []
    assert [i for i, _ in store.bm25(["changed"], SearchFilters(), None, 10)] == [b.id]


def test_failure_mid_write_leaves_nothing(
    store: SQLiteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = make_chunk(symbol="pkg.mod.keep", content="kept words")
    store.replace_file("src", "pkg/mod.py", [good])
    generation = store.generation()
    calls = {"n": 0}
    original = store._insert

    def failing_insert(chunk, file):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("disk on fire")
        original(chunk, file)

    monkeypatch.setattr(store, "_insert", failing_insert)
    new = [make_chunk(symbol=f"pkg.mod.n{i}", content=f"fresh{i}") for i in range(3)]
    with pytest.raises(RuntimeError, match="disk on fire"):
        store.replace_file("src", "pkg/mod.py", new, FileState(path="pkg/mod.py", hash="h"))
    # the old content is intact, none of the new rows, FTS entries or file state exist
    assert [c.id for c in store.get_chunks([good.id])] == [good.id]
    assert store.get_chunks([c.id for c in new]) == []
    assert store.bm25(["fresh0"], SearchFilters(), None, 10) == []
    assert store.file_states("src") == {}
    assert store.generation() == generation
    assert store.conn.execute("SELECT COUNT(*) FROM chunks").fetchone()[0] == 1


def test_model_guard(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    with SQLiteStore(path) as s:
        s.bind_model("model-a", 384)
        s.bind_model("model-a", 384)  # same model: fine
    with SQLiteStore(path) as s:
        with pytest.raises(ModelMismatchError, match="ctxhub refresh --reembed"):
            s.bind_model("model-b", 384)
        with pytest.raises(ModelMismatchError):
            s.bind_model("model-a", 768)
        s.rebind_model("model-b", 384)
        s.bind_model("model-b", 384)


def test_migrations_are_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    SQLiteStore(path).close()
    conn = sqlite3.connect(path, isolation_level=None)
    assert migrate(conn) == SCHEMA_VERSION
    assert migrate(conn) == SCHEMA_VERSION
    conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    conn.close()
    with pytest.raises(StoreError, match="newer"):
        SQLiteStore(path)


def test_fts_input_never_raises(store: SQLiteStore) -> None:
    store.replace_file(
        "src",
        "t.py",
        [
            make_chunk(
                path="t.py",
                symbol="pkg.t.DailyTransport.configure",
                content="def configure(self): ...",
            )
        ],
    )
    for query in ["DailyTransport.configure", 'a" OR "b', "NEAR(x y)", "col:val", "*", "-x ^y"]:
        store.bm25(bm25_terms(analyze(query)), SearchFilters(), None, 10)
        store.bm25(query.split(), SearchFilters(), None, 10)  # raw words: plain words too
    assert store.bm25(bm25_terms(analyze("DailyTransport.configure")), SearchFilters(), None, 5)
    assert store.bm25([], SearchFilters(), None, 5) == []


@pytest.fixture
def filled(store: SQLiteStore, embedder: HashingEmbedder) -> SQLiteStore:
    store.replace_file(
        "fw",
        "src/fw/stt.py",
        [
            make_chunk(
                "fw",
                "src/fw/stt.py",
                "fw.stt.DeepSTT.run_stt",
                "async def run_stt(self):\n yield TranscriptionFrame()",
                chunk_type="method",
                module="fw.stt",
                class_name="DeepSTT",
                yields=["TranscriptionFrame"],
                calls=["push_frame"],
                language="python",
                version="1.0",
            ),
            make_chunk(
                "fw",
                "src/fw/stt.py",
                "fw.stt.DeepSTT",
                "class DeepSTT(STTService): speech to text",
                chunk_type="class",
                module="fw.stt",
                class_name="DeepSTT",
                bases=["STTService"],
                is_dataclass=False,
                version="1.0",
            ),
            make_chunk(
                "fw",
                "src/fw/stt.py",
                "fw.stt.Params",
                "class Params: fields",
                chunk_type="class",
                module="fw.stt",
                class_name="Params",
                is_dataclass=True,
                version="1.0",
            ),
        ],
    )
    store.replace_file(
        "docs",
        "guides/stt.mdx",
        [
            make_chunk(
                "docs",
                "guides/stt.mdx",
                None,
                "Speech to text guide",
                kind="doc",
                chunk_type="section",
                language="markdown",
            ),
        ],
    )
    store.replace_file(
        "ex",
        "examples/bot",
        [
            make_chunk(
                "ex",
                "examples/bot/bot.py",
                None,
                "bot example speech",
                kind="example",
                chunk_type="example_file",
                tags=["STT", "daily"],
                execution_mode="cloud",
                language="python",
            ),
        ],
    )
    _embed_all(store, embedder)
    return store


@pytest.mark.parametrize(
    ("filters", "kinds", "expected"),
    [
        (SearchFilters(source=["docs"]), None, {"guides/stt.mdx"}),
        (SearchFilters(kind=["example"]), None, {"examples/bot/bot.py"}),
        (SearchFilters(), ["doc", "example"], {"guides/stt.mdx", "examples/bot/bot.py"}),
        (SearchFilters(path_prefix="guides"), None, {"guides/stt.mdx"}),
        (SearchFilters(path_prefix="guides/stt"), None, {"guides/stt.mdx"}),
        (
            SearchFilters(symbol_prefix="fw.stt.DeepSTT"),
            None,
            {"fw.stt.DeepSTT", "fw.stt.DeepSTT.run_stt"},
        ),
        (
            SearchFilters(module_prefix="fw"),
            None,
            {"fw.stt.DeepSTT", "fw.stt.DeepSTT.run_stt", "fw.stt.Params"},
        ),
        (SearchFilters(class_prefix="DeepSTT"), None, {"fw.stt.DeepSTT", "fw.stt.DeepSTT.run_stt"}),
        (SearchFilters(chunk_type=["class"]), None, {"fw.stt.DeepSTT", "fw.stt.Params"}),
        (SearchFilters(calls="push_frame"), None, {"fw.stt.DeepSTT.run_stt"}),
        (SearchFilters(yields="TranscriptionFrame"), None, {"fw.stt.DeepSTT.run_stt"}),
        (SearchFilters(base_class="STTService"), None, {"fw.stt.DeepSTT"}),
        (SearchFilters(is_dataclass=True), None, {"fw.stt.Params"}),
        (SearchFilters(tags=["stt", "daily"]), None, {"examples/bot/bot.py"}),
        (SearchFilters(tags=["stt", "twilio"]), None, set()),
        (SearchFilters(language="Python", kind=["example"]), None, {"examples/bot/bot.py"}),
        (SearchFilters(execution_mode="cloud"), None, {"examples/bot/bot.py"}),
        (
            SearchFilters(version="1.0"),
            None,
            {"fw.stt.DeepSTT", "fw.stt.DeepSTT.run_stt", "fw.stt.Params"},
        ),
        (SearchFilters(kind=["doc"]), ["api"], set()),
    ],
)
def test_every_filter_applies_before_ranking(
    filled: SQLiteStore,
    embedder: HashingEmbedder,
    filters: SearchFilters,
    kinds: list[str] | None,
    expected: set[str],
) -> None:
    ids, total = filled.list_ids(filters, kinds, 100)
    names = {c.symbol or c.path for c in filled.get_chunks(ids)}
    assert names == expected and total == len(expected)
    # the dense path over the same filter returns only members of the filtered set
    dense = filled.dense(embedder.embed(["speech"])[0], filters, kinds, 100)
    assert {c.symbol or c.path for c in filled.get_chunks([i for i, _ in dense])} == expected
    bm = filled.bm25(["speech", "def", "class", "bot"], filters, kinds, 100)
    assert {c.symbol or c.path for c in filled.get_chunks([i for i, _ in bm])} <= expected


def test_symbol_lookup_prefers_longer_matches(filled: SQLiteStore) -> None:
    found = filled.symbol_lookup(["DeepSTT.run_stt"], SearchFilters(), None, 10)
    assert [c.symbol for c in filled.get_chunks([found[0][0]])] == ["fw.stt.DeepSTT.run_stt"]
    found = filled.symbol_lookup(["DeepSTT", "DeepSTT.run_stt"], SearchFilters(), None, 10)
    symbols = [filled.get_chunks([i])[0].symbol for i, _ in found]
    assert symbols == ["fw.stt.DeepSTT.run_stt", "fw.stt.DeepSTT"]
    assert filled.symbol_lookup(["fw.stt.deepstt"], SearchFilters(), None, 10)[0][1] == 3.5


def test_counts_and_delete_source(filled: SQLiteStore) -> None:
    assert filled.counts() == {"docs": {"doc": 1}, "ex": {"example": 1}, "fw": {"api": 3}}
    assert filled.delete_source("fw") == 3
    assert "fw" not in filled.counts()
    assert filled.symbol_lookup(["DeepSTT"], SearchFilters(), None, 10) == []
    assert filled.bm25(["DeepSTT"], SearchFilters(), None, 10) == []
    assert filled.conn.execute("SELECT COUNT(*) FROM chunk_terms").fetchone()[0] == 2


def test_dense_matrix_follows_generation(store: SQLiteStore, embedder: HashingEmbedder) -> None:
    store.replace_file("s", "a.md", [make_chunk("s", "a.md", None, "alpha", kind="doc")])
    _embed_all(store, embedder)
    q = embedder.embed(["beta words"])[0]
    assert len(store.dense(q, SearchFilters(), None, 10)) == 1
    store.replace_file("s", "b.md", [make_chunk("s", "b.md", None, "beta words", kind="doc")])
    _embed_all(store, embedder)
    top = store.dense(q, SearchFilters(), None, 10)
    assert len(top) == 2 and store.get_chunks([top[0][0]])[0].path == "b.md"


def test_embedding_cache_is_shared_by_identical_text(
    store: SQLiteStore, embedder: HashingEmbedder
) -> None:
    a = make_chunk("s1", "a.md", None, "same text", kind="doc")
    b = make_chunk("s2", "a.md", None, "same text", kind="doc")
    store.bind_model(embedder.id, embedder.dim)
    store.replace_file("s1", "a.md", [a])
    store.replace_file("s2", "a.md", [b])
    assert store.count_missing_embeddings(embedder.id) == 1
    h = content_hash(a.embed_text)
    store.put_embeddings(embedder.id, [(h, np.ones(embedder.dim, np.float32))])
    assert store.count_missing_embeddings(embedder.id) == 0
    assert store.embedding_coverage(embedder.id) == (2, 2)


def test_deprecations_lookup(store: SQLiteStore) -> None:
    store.replace_file(
        "fw",
        "src/fw/task.py",
        [],
        deprecations=[
            Deprecation(
                source="fw",
                symbol="fw.task.PipelineTask",
                replacement="fw.worker.PipelineWorker",
                since="1.5",
                origin="alias",
            )
        ],
    )
    for query in ("fw.task.PipelineTask", "task.PipelineTask", "PipelineTask"):
        [d] = store.deprecations(query)
        assert d.replacement == "fw.worker.PipelineWorker"
    assert store.deprecations("PipelineWorker") == []
    store.replace_file("fw", "src/fw/task.py", [])
    assert store.deprecations("PipelineTask") == []
