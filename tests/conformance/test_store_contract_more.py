"""The rest of the contract: transactions, filters before ranking, generations,
counters, sources, deprecations, health, and the memory reads a backend must answer."""

from __future__ import annotations

import time

import pytest

from ctxhub.core.knowledge import ChunkQuery, Deprecation, SearchFilters, parameter_note
from ctxhub.core.records import MemoryFilters, Record
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.store.protocol import HubStore, SourceState
from tests.conftest import make_chunk

EMBEDDER = HashingEmbedder(dim=64)


def _fill(store: HubStore) -> None:
    store.replace_file(
        "fw",
        "pkg/a.py",
        [
            make_chunk(
                "fw",
                "pkg/a.py",
                "pkg.a.Speaker",
                chunk_type="class",
                bases=["Service"],
                is_dataclass=True,
                content="class Speaker: speaks text",
            ),
            make_chunk(
                "fw",
                "pkg/a.py",
                "pkg.a.Speaker.run",
                chunk_type="method",
                calls=["push_frame"],
                yields=["AudioFrame"],
                extra={"name_templates": ["key_*", "*_changed"]},
                content="def run: speak",
            ),
        ],
        deprecations=[
            Deprecation(
                source="fw",
                symbol="pkg.a.Speaker.old",
                replacement="run",
                since="1.1",
                origin="warn",
            ),
            Deprecation(
                source="fw",
                symbol="pkg.a.Speaker.run",
                replacement="voice",
                origin="warn",
                note=parameter_note("loud", "use voice"),
            ),
        ],
    )
    store.replace_file(
        "other",
        "lib/b.py",
        [make_chunk("other", "lib/b.py", "lib.b.speak", chunk_type="function", content="speak")],
    )
    store.replace_file(
        "docs",
        "guide.md",
        [make_chunk("docs", "guide.md", kind="doc", content="speak to users", tags=["tts"])],
    )


def _ids(store: HubStore, filters: SearchFilters, kinds: list[str] | None = None) -> set[str]:
    symbols = {c.id: c.symbol or c.path for c in store.find_chunks(ChunkQuery())}
    return {symbols[i] for i, _ in store.bm25(["speak", "speaks"], filters, kinds, 50)}


@pytest.mark.parametrize(
    ("filters", "kinds", "expected"),
    [
        (SearchFilters(source=["fw"]), None, {"pkg.a.Speaker", "pkg.a.Speaker.run"}),
        (SearchFilters(), ["doc"], {"guide.md"}),
        (SearchFilters(path_prefix="lib"), None, {"lib.b.speak"}),
        (
            SearchFilters(symbol_prefix="pkg.a.Speaker"),
            None,
            {"pkg.a.Speaker", "pkg.a.Speaker.run"},
        ),
        (SearchFilters(chunk_type=["method"]), None, {"pkg.a.Speaker.run"}),
        (SearchFilters(calls="push_frame"), None, {"pkg.a.Speaker.run"}),
        (SearchFilters(yields="AudioFrame"), None, {"pkg.a.Speaker.run"}),
        (SearchFilters(base_class="Service"), None, {"pkg.a.Speaker"}),
        (SearchFilters(is_dataclass=True), None, {"pkg.a.Speaker"}),
        (SearchFilters(tags=["tts"]), None, {"guide.md"}),
        (SearchFilters(name_templates=["on_*", "key_*"]), None, {"pkg.a.Speaker.run"}),
        (SearchFilters(name_templates=["*_changed"]), ["api"], {"pkg.a.Speaker.run"}),
        (SearchFilters(name_templates=["on_*"]), None, set()),
    ],
)
def test_filters_apply_before_ranking(
    hub_store: HubStore, filters: SearchFilters, kinds: list[str] | None, expected: set[str]
) -> None:
    _fill(hub_store)
    assert _ids(hub_store, filters, kinds) == expected
    _, total = hub_store.list_ids(filters, kinds, 50)
    assert total == len(expected)


def test_declared_only_keeps_the_definitions_a_module_exports(hub_store: HubStore) -> None:
    """The retriever's `declared` path: only what a public module's `__all__` or a
    package's re-exports name, wherever it is defined."""
    _fill(hub_store)
    module = make_chunk(
        "fw", "pkg/__init__.py", "pkg", chunk_type="module", extra={"exports": ["pkg.a.Speaker"]}
    )
    hub_store.replace_file("fw", "pkg/__init__.py", [module])
    assert _ids(hub_store, SearchFilters(declared_only=True)) == {"pkg.a.Speaker"}
    assert hub_store.list_ids(SearchFilters(declared_only=True), None, 50)[1] == 1


def test_a_failed_transaction_leaves_nothing_and_a_change_moves_the_generation(
    hub_store: HubStore,
) -> None:
    _fill(hub_store)
    before, counts = hub_store.generation(), hub_store.counts()
    with pytest.raises(RuntimeError), hub_store.transaction():
        hub_store.remove_file("fw", "pkg/a.py")
        raise RuntimeError("stop half-way")
    assert hub_store.counts() == counts and hub_store.generation() == before
    with hub_store.transaction():
        hub_store.remove_file("fw", "pkg/a.py")
        hub_store.remove_file("other", "lib/b.py")
    assert hub_store.generation() > before
    assert set(hub_store.counts()) == {"docs"}


def test_sources_deprecations_and_term_counts(hub_store: HubStore) -> None:
    _fill(hub_store)
    hub_store.upsert_source(SourceState(name="fw", kinds=["python"], version="1.2", status="ok"))
    (state,) = [s for s in hub_store.sources() if s.name == "fw"]
    assert state.version == "1.2" and state.status == "ok"
    (dep,) = hub_store.deprecations("pkg.a.Speaker.old")
    assert dep.replacement == "run" and dep.since == "1.1"
    (param,) = hub_store.parameter_deprecations("loud")  # by the parameter's name alone
    assert param.symbol == "pkg.a.Speaker.run" and param.replacement == "voice"
    assert hub_store.parameter_deprecations("lou") == []  # the whole name, not a prefix
    freqs, total = hub_store.term_frequencies(["speak", "nothing-like-it"])
    assert total == 4 and freqs["nothing-like-it"] == 0 and freqs["speak"] >= 2


def test_health_size_schema_and_switching_models(hub_store: HubStore) -> None:
    _fill(hub_store)
    assert all(ok for _, ok, _ in hub_store.health())
    assert hub_store.size_bytes() > 0 and hub_store.schema_version() >= 1
    hub_store.bind_model(EMBEDDER.id, EMBEDDER.dim)
    missing = hub_store.missing_embeddings(EMBEDDER.id)
    hub_store.put_embeddings(
        EMBEDDER.id,
        list(zip([h for h, _ in missing], EMBEDDER.embed([t for _, t in missing]), strict=True)),
    )
    hub_store.rebind_model("hashing-32", 32)
    assert hub_store.model == ("hashing-32", 32)
    assert hub_store.count_missing_embeddings("hashing-32") == 4
    assert hub_store.drop_other_models("hashing-32") == len(missing)


def _record(store: HubStore, rid: str, problem: str, **fields: object) -> None:
    record = Record(id=rid, problem=problem, solution=f"fix {rid}", **fields)  # type: ignore[arg-type]
    store.put_record(record, f"h-{rid}", {"problem": EMBEDDER.embed([problem])[0]}, EMBEDDER.id)


def test_memory_reads_counters_and_paging(hub_store: HubStore) -> None:
    now = time.time()
    for n in range(5):
        _record(
            hub_store,
            f"r{n}",
            f"problem number {n} with pip",
            last_seen=now - n,
            source="github:o/r" if n % 2 else "local",
        )
    generation = hub_store.memory_generation()
    hub_store.add_occurrence("r3", ["extra"], now + 10)
    assert hub_store.memory_generation() > generation
    (r3,) = hub_store.get_records(["r3"])
    assert r3.occurrences == 2 and "extra" in r3.tags
    first, total, after = hub_store.records_after(MemoryFilters(), 2)
    assert total == 5 and [r.id for r in first] == ["r3", "r0"] and after is not None
    rest, _, _ = hub_store.records_after(MemoryFilters(), 10, after)
    assert [r.id for r in rest] == ["r1", "r2", "r4"]
    github, n_github = hub_store.list_records(MemoryFilters(source="github:"), 10)
    assert n_github == 2 and {r.id for r in github} == {"r1", "r3"}
    assert {r.id for r in hub_store.iter_records(batch=2)} == {f"r{n}" for n in range(5)}
    stats = hub_store.record_term_stats(["pip", "number", "absent"], ["r0", "r1"])
    assert stats.records == 5 and stats.doc_freq["pip"] == 5 and stats.doc_freq["absent"] == 0
    assert stats.present["r0"] >= {"pip", "number"}
    assert set(hub_store.records_without_vectors("hashing-32")) == {f"r{n}" for n in range(5)}
    assert hub_store.records_without_vectors(EMBEDDER.id) == []
    counts = hub_store.memory_counts()
    assert counts["records"] == 5 and counts["by_source"] == {"local": 3, "github:o/r": 2}


def test_knowledge_feedback_and_unhelpful_queries(hub_store: HubStore) -> None:
    _fill(hub_store)
    chunk = hub_store.find_chunks(ChunkQuery(source="docs"))[0]
    assert hub_store.add_feedback(chunk.id, "knowledge", False, query="how to speak") == (0, 1)
    assert hub_store.add_feedback(chunk.id, "knowledge", True) == (1, 1)
    assert hub_store.knowledge_feedback([chunk.id, "nope"]) == {chunk.id: (1, 1)}
    assert hub_store.unhelpful_queries() == [("how to speak", 1)]


def test_a_memory_transaction_rolls_back_as_one(hub_store: HubStore) -> None:
    _record(hub_store, "a", "first problem")
    with pytest.raises(RuntimeError), hub_store.memory_transaction():
        _record(hub_store, "b", "second problem")
        hub_store.delete_record("a")
        raise RuntimeError("stop")
    assert [r.id for r in hub_store.get_records(["a", "b"])] == ["a"]


def test_relabel_version_touches_only_stale_labels(hub_store: HubStore) -> None:
    _fill(hub_store)
    assert hub_store.relabel_version("fw", "2.0") == 2
    assert {c.version for c in hub_store.find_chunks(ChunkQuery(source="fw"))} == {"2.0"}
    assert {c.version for c in hub_store.find_chunks(ChunkQuery(source="other"))} == {None}
    generation = hub_store.generation()
    assert hub_store.relabel_version("fw", "2.0") == 0
    assert hub_store.generation() == generation


def test_chunk_ids_by_prefix(hub_store: HubStore) -> None:
    _fill(hub_store)
    every = hub_store.chunk_ids_with_prefix("", limit=100)
    assert every == sorted(every)
    assert {c.id for c in hub_store.find_chunks(ChunkQuery(source="fw"))} <= set(every)
    first = every[0]
    assert hub_store.chunk_ids_with_prefix(first) == [first]
    assert hub_store.chunk_ids_with_prefix(first[:1], limit=100) == [
        i for i in every if i.startswith(first[:1])
    ]
    assert hub_store.chunk_ids_with_prefix("zz") == []


def test_declared_api_is_looked_up_by_qualified_name(hub_store: HubStore) -> None:
    _fill(hub_store)
    assert hub_store.exported(["pkg.a.Speaker", "pkg.a.Speaker.run"]) == set()
    package = make_chunk(
        "fw", "pkg/__init__.py", "pkg", chunk_type="module", extra={"exports": ["pkg.a.Speaker"]}
    )
    hub_store.replace_file("fw", "pkg/__init__.py", [package])
    wanted = ["pkg.a.Speaker", "pkg.a.Speaker.run", "lib.b.speak"]
    assert hub_store.exported(wanted) == {"pkg.a.Speaker"}
    assert hub_store.exported([]) == set()
    hub_store.replace_file("fw", "pkg/__init__.py", [])  # the declaration goes with its file
    assert hub_store.exported(wanted) == set()


def test_the_modules_that_declare_a_definition_are_looked_up(hub_store: HubStore) -> None:
    _fill(hub_store)
    wanted = ["pkg._a.Speaker", "pkg._a.Speaker.run", "lib.b.speak"]
    assert hub_store.exporters(wanted) == {}
    for path, module in (("pkg/__init__.py", "pkg"), ("pkg/api/__init__.py", "pkg.api")):
        declared = make_chunk(
            "fw", path, module, chunk_type="module", extra={"exports": ["pkg._a.Speaker"]}
        )
        hub_store.replace_file("fw", path, [declared])
    assert hub_store.exporters(wanted) == {"pkg._a.Speaker": {"pkg", "pkg.api"}}
    assert hub_store.exporters([]) == {}
    hub_store.replace_file("fw", "pkg/__init__.py", [])  # the declaration goes with its file
    assert hub_store.exporters(wanted) == {"pkg._a.Speaker": {"pkg.api"}}


def test_the_modules_that_import_a_definition_are_looked_up(hub_store: HubStore) -> None:
    _fill(hub_store)
    wanted = ["pkg._b.Speaker", "lib.b.speak"]
    assert hub_store.importers(wanted) == {}
    imports = ["pkg._b.Speaker"]
    importing = make_chunk("fw", "pkg/_a.py", "pkg._a", chunk_type="module", imports=imports)
    # only a module's imports count: a function's are what it calls with
    function = make_chunk("fw", "pkg/_c.py", "pkg._c.run", chunk_type="function", imports=imports)
    hub_store.replace_file("fw", "pkg/_a.py", [importing])
    hub_store.replace_file("fw", "pkg/_c.py", [function])
    assert hub_store.importers(wanted) == {"pkg._b.Speaker": {"pkg._a"}}
    assert hub_store.importers([]) == {}
    hub_store.replace_file("fw", "pkg/_a.py", [])  # the import goes with its file
    assert hub_store.importers(wanted) == {}
