"""What every MemoryStore answers the same way: records, aliases, feedback counters,
the record search paths."""

from __future__ import annotations

from ctxhub.core.records import MemoryFilters, Record
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.store.protocol import HubStore
from tests.conftest import make_chunk

EMBEDDER = HashingEmbedder(dim=64)


def _put(store: HubStore, rid: str, problem: str, solution: str, **fields: object) -> Record:
    record = Record(id=rid, problem=problem, solution=solution, **fields)  # type: ignore[arg-type]
    problem_vec, solution_vec = EMBEDDER.embed([problem, solution])
    vectors = {"problem": problem_vec, "solution": solution_vec}
    store.put_record(record, f"hash-{rid}", vectors, EMBEDDER.id)
    return record


def test_records_round_trip_in_the_order_asked(hub_store: HubStore) -> None:
    _put(hub_store, "a", "pip install fails with SSL error", "set REQUESTS_CA_BUNDLE")
    _put(hub_store, "b", "docker COPY failed", "fix the build context", language="docker")
    got = hub_store.get_records(["b", "missing", "a"])
    assert [r.id for r in got] == ["b", "a"]
    assert got[0].language == "docker"
    assert hub_store.record_text_hash("a") == "hash-a"
    assert set(hub_store.record_vectors("a", EMBEDDER.id)) >= {"problem", "solution"}


def test_feedback_counts_and_unknown_targets(hub_store: HubStore) -> None:
    _put(hub_store, "a", "pip install fails with SSL error", "set REQUESTS_CA_BUNDLE")
    assert hub_store.add_feedback("a", "memory", True) == (1, 0)
    assert hub_store.add_feedback("a", "memory", False, note="not on macOS") == (1, 1)
    assert hub_store.add_feedback("nope", "memory", True) is None
    (record,) = hub_store.get_records(["a"])
    assert (record.worked, record.not_worked) == (1, 1)


def test_aliases_and_deletion(hub_store: HubStore) -> None:
    _put(hub_store, "a", "pip install fails with SSL error", "set REQUESTS_CA_BUNDLE")
    hub_store.add_alias("old-id", "a")
    assert hub_store.resolve_alias("old-id") == "a"
    assert hub_store.delete_record("a") is True
    assert hub_store.get_records(["a"]) == []
    assert hub_store.delete_record("a") is False


def test_unhelpful_queries_and_what_they_got(hub_store: HubStore) -> None:
    chunks = [make_chunk(path="m.py", symbol=f"m.f{n}", ordinal=n) for n in range(4)]
    hub_store.replace_file("src", "m.py", chunks)
    c1, c2, c3, c4 = (c.id for c in chunks)
    for target, query in ((c1, "q one"), (c2, "q one"), (c1, "q one"), (c3, "q two")):
        assert hub_store.add_feedback(target, "knowledge", False, query=query) is not None
    hub_store.add_feedback(c4, "knowledge", True, query="q one")  # useful: not listed
    assert hub_store.unhelpful_queries() == [("q one", 3), ("q two", 1)]
    assert hub_store.unhelpful_targets("q one") == [(c1, 2), (c2, 1)]
    assert hub_store.unhelpful_targets("q one", limit=1) == [(c1, 2)]
    assert hub_store.unhelpful_targets("nothing") == []


def test_set_record_tags_replaces_them(hub_store: HubStore) -> None:
    _put(hub_store, "a", "pip install fails with SSL error", "set CA bundle", tags=["ssl", "pip"])
    hub_store.add_feedback("a", "memory", True)
    assert hub_store.set_record_tags("a", ["proxy", "ssl", "proxy"]) is True
    (record,) = hub_store.get_records(["a"])
    assert record.tags == ["proxy", "ssl"]
    assert record.worked == 1  # history stays
    listed, total = hub_store.list_records(MemoryFilters(tags=["proxy"]), limit=10)
    assert [r.id for r in listed] == ["a"] and total == 1
    assert hub_store.list_records(MemoryFilters(tags=["pip"]), limit=10)[1] == 0
    assert hub_store.set_record_tags("a", []) is True
    assert hub_store.get_records(["a"])[0].tags == []
    assert hub_store.set_record_tags("missing", ["x"]) is False


def test_record_search_paths(hub_store: HubStore) -> None:
    _put(hub_store, "ssl", "pip install fails with SSL error", "set REQUESTS_CA_BUNDLE")
    _put(hub_store, "copy", "docker COPY failed: no such file", "fix the build context")
    found = hub_store.record_bm25(["ssl"], MemoryFilters(), 5)
    assert [rid for rid, _ in found] == ["ssl"]
    assert hub_store.record_bm25(["build context"], MemoryFilters(), 5, ("problem",)) == []
    assert [r for r, _ in hub_store.record_bm25(["build context"], MemoryFilters(), 5)] == ["copy"]
    assert hub_store.record_bm25(['" OR *', "NEAR("], MemoryFilters(), 5) == []
    (query,) = EMBEDDER.embed(["docker COPY failed: no such file"])
    dense = hub_store.record_dense("problem", query, EMBEDDER.id, MemoryFilters(), 5)
    assert dense[0][0] == "copy"
    records, total = hub_store.list_records(MemoryFilters(), 10)
    assert total == 2 and {r.id for r in records} == {"ssl", "copy"}


def test_ids_by_prefix(hub_store: HubStore) -> None:
    """A typed prefix finds ids in id order, never treating `%` or `_` as wildcards."""
    for rid in ("abc1-x", "abc2-y", "abd3-z", "a%c_-w"):
        _put(hub_store, rid, f"problem {rid}", "solution")
    assert hub_store.record_ids_with_prefix("abc") == ["abc1-x", "abc2-y"]
    assert hub_store.record_ids_with_prefix("abc", limit=1) == ["abc1-x"]
    assert hub_store.record_ids_with_prefix("abd3") == ["abd3-z"]
    assert hub_store.record_ids_with_prefix("a%") == ["a%c_-w"]
    assert hub_store.record_ids_with_prefix("a_") == []
    assert hub_store.record_ids_with_prefix("zz") == []
