"""Records: normalisation, the three vector spaces, merge / variant / new, upserts that
keep feedback, symbol links that go stale when the knowledge changes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError

from ctxhub.config import Settings
from ctxhub.core.records import MemoryFilters, RecordInput, record_id_for
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.memory.records.feedback import rate
from ctxhub.memory.records.log import log_solution, upsert_record
from ctxhub.session import HubSession
from tests.conftest import make_chunk

ESM = "ERR_REQUIRE_ESM when requiring chalk 5 from a CommonJS script"


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    h = HubSession(Settings(home=tmp_path), embedder=HashingEmbedder(dim=256))
    yield h
    h.close()


def rec(problem: str = ESM, solution: str = "Use dynamic import() or pin chalk@4", **kw: object):
    return RecordInput.model_validate({"problem": problem, "solution": solution, **kw})


def test_labels_are_normalised_on_write_and_in_filters(hub: HubSession) -> None:
    r = rec(language=" Python ", framework="FastAPI", tags=["Pytest", "pytest", " CI "])
    assert (r.language, r.framework, r.tags) == ("python", "fastapi", ["pytest", "ci"])
    log_solution(hub, r)
    found, total = hub.store.list_records(MemoryFilters(language="PYTHON", tags=["PyTest"]), 10)
    assert total == 1 and found[0].framework == "fastapi"
    assert hub.store.list_records(MemoryFilters(language="rust"), 10)[1] == 0


def test_invalid_input_is_rejected_precisely() -> None:
    with pytest.raises(ValidationError, match="source must be"):
        rec(source="somewhere")
    with pytest.raises(ValidationError, match="problem"):
        RecordInput(problem="   ")
    with pytest.raises(ValidationError, match="confidence"):
        rec(confidence=2)


def test_code_vector_exists_only_with_code(hub: HubSession) -> None:
    plain = log_solution(hub, rec())
    coded = log_solution(
        hub, rec("pytest cannot import src package", "set pythonpath", code_snippet="[pytest]")
    )
    model = hub.embedder.id
    assert set(hub.store.record_vectors(plain.id, model)) == {"problem", "solution"}
    assert set(hub.store.record_vectors(coded.id, model)) == {"problem", "solution", "code"}


def test_same_problem_same_fix_merges_counts_and_unites_tags(hub: HubSession) -> None:
    first = log_solution(hub, rec(tags=["node"]))
    again = log_solution(hub, rec(tags=["esm"]))
    assert first.action == "created"
    assert again.action == "merged" and again.id == first.id
    (stored,) = hub.store.get_records([first.id])
    assert stored.occurrences == 2 and stored.tags == ["node", "esm"]
    assert hub.store.memory_counts()["records"] == 1


def test_same_problem_other_fix_is_a_variant_of_the_original(hub: HubSession) -> None:
    first = log_solution(hub, rec())
    other = log_solution(hub, rec(solution="Convert the package to ESM with type module"))
    third = log_solution(hub, rec(solution="Switch to the picocolors package entirely"))
    assert other.action == "variant" and other.matched_id == first.id
    assert third.action == "variant" and third.matched_id == first.id  # not a chain
    assert hub.store.get_records([other.id])[0].variant_of == first.id


def test_different_problem_or_language_is_new(hub: HubSession) -> None:
    log_solution(hub, rec(language="javascript"))
    assert log_solution(hub, rec("numpy int alias removed in 1.24", "use int")).action == "created"
    assert log_solution(hub, rec(language="python")).action == "created"


def test_upsert_updates_in_place_and_keeps_feedback(hub: HubSession) -> None:
    rid = record_id_for("github", "o/r", "7")
    assert upsert_record(hub, rid, rec(source="github:o/r")).action == "created"
    rate(hub, rid, True)
    rate(hub, rid, False)
    assert upsert_record(hub, rid, rec(source="github:o/r")).action == "unchanged"
    changed = upsert_record(hub, rid, rec(solution="Pin chalk to 4.1.2", source="github:o/r"))
    assert changed.action == "updated"
    (stored,) = hub.store.get_records([rid])
    assert (stored.solution, stored.worked, stored.not_worked) == ("Pin chalk to 4.1.2", 1, 1)
    assert hub.store.memory_counts()["records"] == 1


def test_linked_symbol_change_flags_the_record_stale(hub: HubSession) -> None:
    chunk = make_chunk(symbol="chime.audio.Mixer.set_volume", content="def set_volume(self): ...")
    hub.store.replace_file("src", "pkg/mod.py", [chunk])
    logged = log_solution(
        hub, rec("volume jumps after reconnect", "call `Mixer.set_volume` after connect")
    )
    assert logged.linked_symbols == ["chime.audio.Mixer.set_volume"]
    assert hub.store.get_records([logged.id])[0].stale_symbols == []
    changed = make_chunk(
        symbol="chime.audio.Mixer.set_volume", content="def set_volume(self, ramp): ..."
    )
    hub.store.replace_file("src", "pkg/mod.py", [changed])
    assert hub.store.get_records([logged.id])[0].stale_symbols == ["chime.audio.Mixer.set_volume"]


def test_generic_names_are_not_linked(hub: HubSession) -> None:
    chunks = [
        make_chunk(symbol=f"chime.m{i}.Worker.run_task", path=f"pkg/m{i}.py") for i in range(5)
    ]
    for i, c in enumerate(chunks):
        hub.store.replace_file("src", f"pkg/m{i}.py", [c])
    logged = log_solution(hub, rec("jobs stall", "await run_task instead of calling it"))
    assert logged.linked_symbols == []


def test_reembed_gives_every_record_vectors_of_the_new_model(
    hub: HubSession, tmp_path: Path
) -> None:
    from ctxhub.memory.records.log import reembed_records

    first = log_solution(hub, rec(code_snippet="const chalk = await import('chalk')"))
    second = log_solution(hub, rec("numpy int alias removed in 1.24", "use int"))
    new_model = HashingEmbedder(dim=128)
    assert reembed_records(hub.store, new_model) == 2
    assert reembed_records(hub.store, new_model) == 0  # nothing left to do
    assert set(hub.store.record_vectors(first.id, new_model.id)) == {"problem", "solution", "code"}
    assert hub.store.record_vectors(second.id, new_model.id)["problem"].shape == (128,)


def test_links_need_a_whole_dotted_part(hub: HubSession) -> None:
    hub.store.replace_file(
        "src", "pkg/mod.py", [make_chunk(symbol="chime.audio.Mixer.reset_volume")]
    )
    logged = log_solution(hub, rec("volume is wrong", "call `set_volume` after connecting"))
    assert logged.linked_symbols == []


class RatingEmbedder(HashingEmbedder):
    """Rates a record while it embeds: a rating landing in the middle of an import."""

    def __init__(self, store_path: Path, record_id: str) -> None:
        super().__init__(dim=256)
        self.store_path, self.record_id = store_path, record_id

    def embed(self, texts, batch_size=32, progress=None):  # type: ignore[no-untyped-def]
        from ctxhub.store.sqlite.store import SQLiteStore

        with SQLiteStore(self.store_path) as other:
            other.add_feedback(self.record_id, "memory", True)
        return super().embed(texts, batch_size, progress)


def test_a_rating_during_a_reimport_is_not_lost(tmp_path: Path) -> None:
    rid = record_id_for("github", "o/r", "9")
    settings = Settings(home=tmp_path)
    with HubSession(settings, embedder=HashingEmbedder(dim=256)) as first:
        upsert_record(first, rid, rec(source="github:o/r"))
    with HubSession(settings, embedder=RatingEmbedder(settings.store_location, rid)) as racing:
        assert upsert_record(racing, rid, rec(solution="pin chalk@4.1.2")).action == "updated"
        (stored,) = racing.store.get_records([rid])
    assert (stored.solution, stored.worked) == ("pin chalk@4.1.2", 1)


def test_reimport_unites_tags_added_by_merges(hub: HubSession) -> None:
    rid = record_id_for("github", "o/r", "10")
    upsert_record(hub, rid, rec(tags=["imported"], source="github:o/r"))
    hub.store.add_occurrence(rid, ["local-tag"], 0.0)
    upsert_record(hub, rid, rec(solution="another fix", tags=["imported"], source="github:o/r"))
    assert hub.store.get_records([rid])[0].tags == ["imported", "local-tag"]


def test_concurrent_logs_of_one_problem_make_one_record(tmp_path: Path) -> None:
    import threading

    settings = Settings(home=tmp_path)
    HubSession(settings, embedder=HashingEmbedder(dim=256)).close()  # create the store first
    results: list[str] = []

    def log_once() -> None:
        with HubSession(settings, embedder=HashingEmbedder(dim=256)) as h:
            results.append(log_solution(h, rec()).action)

    threads = [threading.Thread(target=log_once) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["created"] + ["merged"] * 5
    with HubSession(settings, embedder=HashingEmbedder(dim=256)) as h:
        assert h.store.memory_counts()["records"] == 1
        assert h.store.list_records(MemoryFilters(), 5)[0][0].occurrences == 6


def test_secrets_are_redacted_on_every_write(hub: HubSession) -> None:
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    logged = log_solution(
        hub, rec("push rejected: bad credentials", f"export GITHUB_TOKEN={token} then retry")
    )
    (stored,) = hub.store.get_records([logged.id])
    assert token not in stored.solution and "REDACTED" in stored.solution
    rid = record_id_for("t", "secret")
    upsert_record(hub, rid, rec(stack_trace=f"Authorization: Bearer {token}"))
    assert token not in (hub.store.get_records([rid])[0].stack_trace or "")


def test_delete_record_frees_its_variants_and_ratings(hub: HubSession) -> None:
    first = log_solution(hub, rec())
    variant = log_solution(hub, rec(solution="Convert the package to ESM"))
    rate(hub, first.id, True)
    assert hub.store.delete_record(first.id)
    assert hub.store.get_records([first.id]) == []
    assert hub.store.get_records([variant.id])[0].variant_of is None
    events = hub.store.conn.execute("SELECT COUNT(*) FROM feedback_events").fetchone()[0]
    assert events == 0 and not hub.store.delete_record(first.id)


def test_an_import_of_a_known_problem_merges_and_stays_merged(hub: HubSession) -> None:
    logged = log_solution(hub, rec(source="hook"))
    rid = record_id_for("session", "s1", "toolu_1")
    first = upsert_record(hub, rid, rec(source="session"))
    assert (first.action, first.id) == ("merged", logged.id)
    again = upsert_record(hub, rid, rec(source="session"))
    assert (again.action, again.id) == ("unchanged", logged.id)
    (stored,) = hub.store.get_records([logged.id])
    assert stored.occurrences == 2 and hub.store.memory_counts()["records"] == 1


def test_dropping_other_models_keeps_only_the_current_model_s_embeddings(hub: HubSession) -> None:
    from ctxhub.memory.records.log import reembed_records

    old, new = hub.embedder.id, HashingEmbedder(dim=128)
    record = log_solution(hub, rec("numpy int alias removed in 1.24", "use int"))
    hub.store.replace_file("src", "pkg/mod.py", [make_chunk(symbol="chime.mod.run")])
    missing = hub.store.missing_embeddings(old)
    hub.store.put_embeddings(old, [(h, hub.embedder.embed([t])[0]) for h, t in missing])
    fresh = zip([h for h, _ in missing], new.embed([t for _, t in missing]), strict=True)
    hub.store.put_embeddings(new.id, list(fresh))
    assert reembed_records(hub.store, new) == 1
    assert hub.store.record_vectors(record.id, old) == {}  # a record's vectors are replaced

    assert hub.store.drop_other_models(new.id) == 1
    assert len(hub.store.missing_embeddings(old)) == 1  # the old model's cache is gone
    assert hub.store.missing_embeddings(new.id) == []  # the current one's stays
    assert hub.store.drop_other_models(new.id) == 0


def test_language_aliases_fold_into_one_label(hub: HubSession) -> None:
    """GitHub says C++, file extensions say cpp: one filter finds both."""
    assert RecordInput(problem="x", language=" C++ ").language == "cpp"
    assert MemoryFilters(language="Golang").language == "go"
    assert RecordInput(problem="x", language="Rust").language == "rust"  # others: lowercased
    logged = log_solution(hub, rec("segfault in a destructor", "free once", language="c++"))
    found = hub.store.list_records(MemoryFilters(language="cpp"), 10)[0]
    assert [r.id for r in found] == [logged.id]
