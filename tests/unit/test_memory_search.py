"""search_solutions / search_by_approach: query shapes, filters before ranking, the
multipliers (confidence, recency, worked ratio), abstention, and explained scores."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.config import Settings
from ctxhub.core.errors import InputError
from ctxhub.core.records import MemoryFilters, RecordInput, record_id_for
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.memory.records.feedback import rate
from ctxhub.memory.records.log import upsert_record
from ctxhub.memory.search.retrieval import MIN_RATINGS, search_by_approach, search_solutions
from ctxhub.memory.search.shape import analyze_memory_query, error_codes
from ctxhub.session import HubSession

RECORDS = {
    "esm": dict(
        problem="Node crashes with ERR_REQUIRE_ESM when a CommonJS file requires chalk",
        error_type="ERR_REQUIRE_ESM",
        solution="Load it with a dynamic import() or pin chalk to version 4",
        language="javascript",
    ),
    "pytest": dict(
        problem="pytest cannot import the package from a src layout",
        error_type="ModuleNotFoundError",
        solution="Add pythonpath = src under [pytest] in pytest.ini",
        code_snippet="[pytest]\npythonpath = src",
        language="python",
    ),
    "rust": dict(
        problem="cargo build fails with error E0463 can't find crate for core on a new target",
        error_type="E0463",
        solution="Install the target's standard library with rustup target add",
        language="rust",
    ),
}


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    h = HubSession(Settings(home=tmp_path), embedder=HashingEmbedder(dim=256))
    for key, fields in RECORDS.items():
        upsert_record(h, record_id_for("t", key), RecordInput.model_validate(fields))
    yield h
    h.close()


def rid(key: str) -> str:
    return record_id_for("t", key)


def test_query_shapes_choose_weights() -> None:
    assert analyze_memory_query("why does my bot forget the conversation").shape == "natural"
    assert analyze_memory_query("Error [ERR_REQUIRE_ESM]: require of ES module").shape == "error"
    assert analyze_memory_query("what is wrong here", "def f(x):\n    return x").shape == "code"
    mixed = analyze_memory_query("TypeError: x is not iterable", "for a, b in pairs(): pass")
    assert mixed.shape == "mixed"
    assert mixed.weights["bm25"] > analyze_memory_query("plain words here").weights["bm25"]


def test_error_codes_are_exact_tokens_not_constants() -> None:
    assert error_codes("error[E0463]: can't find crate; ERR_REQUIRE_ESM; TS2307") == {
        "E0463",
        "ERR_REQUIRE_ESM",
        "TS2307",
    }
    assert error_codes("set API_URL and HTTP_HOST; ERROR: failed") == set()


def test_exact_error_code_ranks_its_record_first_and_explains_it(hub: HubSession) -> None:
    r = search_solutions(hub, "error[E0463]: can't find crate for `core`")
    assert not r.nothing_relevant
    top = r.hits[0]
    assert top.id == rid("rust") and top.kind == "memory"
    assert top.signals["bm25"].rank == 1
    assert set(top.metadata["multipliers"]) >= {"confidence", "recency"}
    assert top.metadata["error_type"] == "E0463"
    assert 0 < top.score <= 1


def test_code_context_searches_the_code_space(hub: HubSession) -> None:
    r = search_solutions(hub, "tests fail to import", code_context="[pytest]\npythonpath = src")
    assert r.shape == "code"
    assert r.hits[0].id == rid("pytest") and "code" in r.hits[0].signals


def test_filters_apply_before_ranking(hub: HubSession) -> None:
    r = search_solutions(
        hub, "ERR_REQUIRE_ESM chalk", filters=MemoryFilters(language="Python"), limit=5
    )
    ids = {h.id for h in r.hits + r.nearest}
    assert rid("esm") not in ids
    assert all(h.metadata["language"] == "python" for h in r.hits + r.nearest)


def test_unrelated_query_says_nothing_relevant(hub: HubSession) -> None:
    r = search_solutions(hub, "kubernetes ingress tls certificate renewal schedule")
    assert r.nothing_relevant and r.hits == []
    assert "log_solution" in r.message
    assert r.confidence < 0.5


def _twins(hub: HubSession, **second: object) -> tuple[str, str]:
    base = dict(problem="websocket closes after sixty seconds idle", solution="send pings")
    a, b = record_id_for("twin", "a"), record_id_for("twin", "b")
    upsert_record(hub, a, RecordInput.model_validate(base))
    upsert_record(hub, b, RecordInput.model_validate({**base, **second}))
    return a, b


def test_worked_ratio_counts_only_after_enough_ratings(hub: HubSession) -> None:
    a, b = _twins(hub, solution="send pings every 20 seconds")
    for _ in range(MIN_RATINGS - 1):
        rate(hub, a, False)
    r = search_solutions(hub, "websocket closes after sixty seconds idle")
    assert "worked_ratio" not in next(h for h in r.hits if h.id == a).metadata["multipliers"]
    rate(hub, a, False)
    r = search_solutions(hub, "websocket closes after sixty seconds idle")
    order = [h.id for h in r.hits]
    assert order.index(b) < order.index(a)
    assert next(h for h in r.hits if h.id == a).metadata["multipliers"]["worked_ratio"] == 0.5


def test_recency_and_confidence_multiply_the_score(hub: HubSession) -> None:
    old = time.time() - 400 * 86400
    a, b = _twins(hub, solution="ping it", last_seen=old, created_at=old, confidence=0.3)
    r = search_solutions(hub, "websocket closes after sixty seconds idle")
    hits = {h.id: h for h in r.hits}
    assert [h.id for h in r.hits].index(a) < [h.id for h in r.hits].index(b)
    factors = hits[b].metadata["multipliers"]
    assert factors["recency"] < 0.75 and factors["confidence"] == pytest.approx(0.65)
    assert hits[b].metadata["rank_score"] < hits[a].metadata["rank_score"]


def test_search_by_approach_searches_solutions(hub: HubSession) -> None:
    r = search_by_approach(hub, "rustup target add the standard library")
    assert r.hits and r.hits[0].id == rid("rust")
    assert "solution" in r.hits[0].signals


def test_bad_arguments_are_precise(hub: HubSession) -> None:
    with pytest.raises(InputError, match="query must not be empty"):
        search_solutions(hub, "   ")
    with pytest.raises(InputError, match="limit"):
        search_solutions(hub, "x", limit=0)


def _features(
    query: str, record: RecordInput, cosine: float, coverage: float = 0.0, backdrop: float = 0.0
) -> dict[str, float]:
    import numpy as np

    from ctxhub.core.records import Record
    from ctxhub.memory.search import evidence

    stored = {"problem": np.array([cosine, (1 - cosine**2) ** 0.5], dtype=np.float32)}
    vectors = {"query": np.array([1.0, 0.0], dtype=np.float32)}
    full = Record(id="r", **record.model_dump(exclude_none=True))
    q = analyze_memory_query(query)
    return evidence.features(
        full,
        stored,
        q,
        vectors,
        "problem",
        first=True,
        coverage=coverage,
        backdrop=backdrop,
        signature_match=False,
    )


def test_lift_is_the_cosine_above_what_the_store_scores_for_the_question() -> None:
    from ctxhub.memory.search.evidence import background

    record = RecordInput(problem="docker image build downloads torch every time")
    # ranks 4-13 of the question's dense scores stand for the rest of the store
    scores = [0.9, 0.8, 0.7] + [0.3] * 10 + [0.0] * 5
    assert background(scores) == pytest.approx(0.3)
    assert background([0.9, 0.8]) == 0.0  # too small a store to say
    f = _features("docker rebuild slow", record, 0.6, backdrop=background(scores))
    assert f["lift"] == pytest.approx(0.3, abs=1e-3)


def test_probability_is_on_a_0_1_scale_and_rises_with_evidence() -> None:
    from ctxhub.memory.search import evidence

    weak = {"cosine": 0.3, "lift": 0.0, "coverage": 0.1}
    strong = {**weak, "cosine": 0.8, "lift": 0.4, "coverage": 0.9, "first": 1.0}
    assert 0.0 <= evidence.probability(weak) < evidence.probability(strong) <= 1.0
    assert evidence.probability({"cosine": 1e9}) <= 1.0  # no overflow


def test_generic_exception_names_do_not_count_as_a_shared_code() -> None:
    numpy = RecordInput(problem="AttributeError: module 'numpy' has no attribute 'int'")
    f = _features("AttributeError: 'NoneType' object has no attribute 'split'", numpy, 0.5)
    assert f["code_match"] == 0.0 and f["code_mismatch"] == 0.0
    esm = RecordInput(problem="ERR_REQUIRE_ESM when requiring chalk", error_type="ERR_REQUIRE_ESM")
    assert _features("Error [ERR_REQUIRE_ESM]: require()", esm, 0.5)["code_match"] == 1.0
    jest = RecordInput(problem="Jest fails: SyntaxError: Unexpected token 'export'")
    other = _features("Error [ERR_PACKAGE_PATH_NOT_EXPORTED]: subpath", jest, 0.5)
    assert other["code_mismatch"] == 1.0


def test_lowercase_log_prefixes_are_pasted_errors() -> None:
    for pasted in (
        "git status says fatal: not a git repository (or any parent up to mount point /)",
        "error[E0382]: borrow of moved value: `config`",
        "CUDA error: an illegal memory access was encountered",
        "panic: runtime error: index out of range [3] with length 3",
    ):
        assert analyze_memory_query(pasted).shape == "error", pasted
    for described in ("how should I handle errors in a retry loop", "fatal flaw in my design"):
        assert analyze_memory_query(described).shape == "natural", described


def test_exception_prefixes_and_quoted_output_are_pasted_errors() -> None:
    for pasted in (
        "Django SuspiciousOperation: Attempted access to '/etc/passwd' denied",
        "DisallowedHost: Invalid HTTP_HOST header",
        "the build dies with 'unable to allocate a pseudo terminal' on the runner",
        'the log only says "connection reset by peer while reading" and exits',
    ):
        assert analyze_memory_query(pasted).shape == "error", pasted
    for described in (
        "FastAPI: how do I stream a response body",  # a product name, then a question
        "FastAPI: How do I stream a response body",
        "PostgreSQL: Which index type suits a jsonb column",
        "TypeScript: What is the difference between unknown and any",
        "the worker won't start and it's not obvious why",  # apostrophes, not quotes
        "how do I configure 'dependency injection' in this app",  # a quoted term
        'What does "eventual consistency" promise for my reads',
    ):
        assert analyze_memory_query(described).shape == "natural", described


def test_coverage_counts_words_as_the_store_tokenizes_them() -> None:
    from ctxhub.memory.search.evidence import coverage_terms

    q = analyze_memory_query("DisallowedHost: Invalid HTTP_HOST header in sqlalchemy.exc")
    # one token each, as FTS5 indexes them: no `disallowed` / `host` parts that no
    # record could ever hold, and no stopwords
    assert coverage_terms(q) == [
        "disallowedhost",
        "invalid",
        "http_host",
        "header",
        "sqlalchemy",
        "exc",
    ]


def test_term_stats_count_records_and_name_the_candidates_holding_each_term(
    hub: HubSession,
) -> None:
    stats = hub.store.record_term_stats(
        ["chalk", "pytest", "neverwritten"], [rid("esm"), rid("rust")]
    )
    assert stats.records == 3
    assert stats.doc_freq == {"chalk": 1, "pytest": 1, "neverwritten": 0}
    assert stats.present == {rid("esm"): {"chalk"}, rid("rust"): set()}


def test_word_coverage_weighs_rare_and_unknown_words_most() -> None:
    from ctxhub.core.records import TermStats
    from ctxhub.memory.search.evidence import word_coverage

    stats = TermStats(
        records=100,
        doc_freq={"docker": 40, "port": 20, "allocated": 1, "bind": 0},
        present={"sibling": {"docker", "port"}, "same": {"docker", "port", "allocated", "bind"}},
    )
    terms = ["docker", "port", "allocated", "bind"]
    assert word_coverage(terms, stats, "same") == pytest.approx(1.0)
    # the sibling holds half the words but far less than half their weight
    assert word_coverage(terms, stats, "sibling") < 0.3
    assert word_coverage(terms, stats, "absent") == 0.0
    assert word_coverage([], stats, "same") == 0.0


def test_pasted_errors_are_told_from_descriptions() -> None:
    record = RecordInput(problem="git pull says fatal: Need to specify how to reconcile")
    pasted = _features("fatal: not a git repository", record, 0.6, coverage=0.8)
    assert (pasted["pasted"], pasted["coverage"]) == (1.0, 0.8)
    natural = _features("my branches will not merge", record, 0.6, coverage=0.8)
    assert (natural["pasted"], natural["coverage"]) == (0.0, 0.8)


def test_a_sibling_error_covers_less_of_the_pasted_message(tmp_path: Path) -> None:
    from ctxhub.memory.search.retrieval import rank_records

    h = HubSession(Settings(home=tmp_path), embedder=HashingEmbedder(dim=256))
    try:
        for key, problem in {
            "pull": "git pull fails: fatal: Need to specify how to reconcile divergent branches",
            "push": "git push rejected: non-fast-forward, updates were rejected",
            "lfs": "git push fails: remote: error: File model.bin exceeds the size limit",
        }.items():
            upsert_record(
                h, record_id_for("g", key), RecordInput(problem=problem, solution="see docs")
            )

        def covered(query: str) -> float:
            scored = rank_records(h, analyze_memory_query(query), MemoryFilters())
            top = next(s for s in scored if s.record.id == record_id_for("g", "pull"))
            return top.features["coverage"]

        same = covered("fatal: Need to specify how to reconcile divergent branches")
        sibling = covered("git pull says fatal: couldn't find remote ref feature/login")
        assert same > 0.9 and sibling < 0.5
    finally:
        h.close()


def test_a_failing_path_is_logged_and_the_others_still_answer(
    hub: HubSession, caplog: pytest.LogCaptureFixture
) -> None:
    hub.store.conn.execute("DROP TABLE records_fts")  # the text index is unusable
    with caplog.at_level("WARNING"):
        found = search_solutions(hub, "cargo build fails with E0463 can't find crate for core")
    ranked = found.hits or found.nearest
    assert ranked and ranked[0].id == rid("rust")  # the dense paths still found it
    assert "bm25" not in ranked[0].signals
    assert any("path bm25 failed" in r.getMessage() for r in caplog.records)


def test_a_damaged_store_is_not_hidden_as_a_failing_path(hub: HubSession) -> None:
    from ctxhub.core.errors import StoreCorruptError

    def damaged(*args: object, **kwargs: object) -> list[tuple[str, float]]:
        raise StoreCorruptError("the store x is damaged")

    hub.store.record_bm25 = damaged  # type: ignore[method-assign]
    with pytest.raises(StoreCorruptError):
        search_solutions(hub, "cargo build fails with E0463")


def test_message_missing_says_how_much_of_the_quoted_message_a_record_lacks() -> None:
    from ctxhub.core.records import Record
    from ctxhub.memory.search import evidence

    record = Record(
        id="r",
        problem="git pull stops with fatal: Need to specify how to reconcile divergent branches",
    )
    same = analyze_memory_query("fatal: Need to specify how to reconcile divergent branches")
    sibling = analyze_memory_query("fatal: refusing to merge unrelated histories")
    described = analyze_memory_query("my branches will not merge after a pull")
    words = evidence.message_words(sibling)
    # literals and stopwords are not the message's words
    assert {"refusing", "merge", "unrelated", "histories"} <= words
    assert evidence.message_missing(evidence.message_words(same), record) == 0.0
    assert evidence.message_missing(words, record) == 1.0
    # a question that quotes no message has nothing missing
    assert evidence.message_words(described) == frozenset()
    assert evidence.message_missing(frozenset(), record) == 0.0
    f = _features(
        "fatal: refusing to merge unrelated histories", RecordInput(problem=record.problem), 0.6
    )
    assert f["message_missing"] == 1.0
