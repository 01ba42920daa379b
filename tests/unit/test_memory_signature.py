"""Exact error signatures (masking, matching), the signature path that ranks the record of
a pasted error first, the rule that never abstains on one, and ratings that demote a
record without hiding it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.config import Settings
from ctxhub.core.records import RecordInput, record_id_for
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.memory.records.feedback import rate
from ctxhub.memory.records.log import upsert_record
from ctxhub.memory.search.evidence import DEPTH
from ctxhub.memory.search.retrieval import MIN_RATINGS, search_solutions
from ctxhub.memory.search.signature import best_match, mask, matches, signatures
from ctxhub.session import HubSession
from ctxhub.tools.render_memory import solution_response


def test_literals_identifiers_numbers_and_paths_are_masked() -> None:
    words = mask("No module named 'mypkg' in /srv/app/main.py line 42 for user_id 0x1f")
    expected = "no module named <q> in <p> line <n> for <id> <n>"
    assert words == expected.split()


def test_one_error_with_other_literals_and_operand_order_is_one_signature() -> None:
    pasted = signatures(
        "ValueError: You are trying to merge on object and int64 columns for key 'sku'"
    )
    stored = signatures(
        'Traceback (most recent call last):\n  File "etl/join.py", line 41, in build\n'
        "ValueError: You are trying to merge on int64 and object columns for key"
        " 'customer_id'. If you wish to proceed you should use pd.concat"
    )
    assert matches(pasted, stored)


@pytest.mark.parametrize(
    ("query", "record"),
    [
        # the same tool, a sibling code
        (
            "error[E0506]: cannot assign to `x` because it is borrowed",
            "error[E0502]: cannot borrow `v` as mutable because it is also borrowed as immutable",
        ),
        # the same exception, another cause
        (
            "System.InvalidOperationException: Sequence contains no elements",
            "System.InvalidOperationException: No database provider has been configured for"
            " this DbContext",
        ),
    ],
)
def test_siblings_do_not_share_a_signature(query: str, record: str) -> None:
    assert not matches(signatures(query), signatures(record))


def test_error_codes_are_kinds_of_their_own() -> None:
    kinds = {
        s.kind
        for text in (
            "error TS2345: Argument of type 'string | undefined' is not assignable",
            "Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/app/src/db' imported from x",
            "ERROR 1055 (42000): Expression #2 of SELECT list is not in GROUP BY clause",
            "error[E0502]: cannot borrow `v` as mutable because it is also borrowed",
        )
        for s in signatures(text)
    }
    assert kinds == {"ts2345", "err_module_not_found", "1055", "e0502"}


def test_a_message_quoted_in_prose_ends_at_its_quote() -> None:
    stored = signatures(
        "An Android fragment crashes with 'UninitializedPropertyAccessException: lateinit"
        " property adapter has not been initialized' in onResume after the user returns."
    )
    pasted = signatures(
        "kotlin.UninitializedPropertyAccessException: lateinit property listAdapter has not"
        " been initialized"
    )
    assert best_match(pasted, stored) >= 0.8


def test_a_short_message_is_not_a_signature() -> None:
    assert signatures("TypeError: oops") == set()


def test_prose_and_questions_are_not_signatures() -> None:
    for prose in (
        "I get this error: the file is missing from disk",
        "FastAPI: How do I stream a response body",
        "my build broke after the upgrade, any idea why",
    ):
        assert signatures(prose) == set(), prose
    tools = signatures(
        "React warning: Each child in a list should have a unique key prop\n"
        "DisallowedHost: Invalid HTTP_HOST header 'api.internal:8000'"
    )
    assert {s.kind for s in tools} == {"warning", "disallowedhost"}


def test_a_tool_prefix_inside_a_line_is_read_after_the_words_that_tell_of_it() -> None:
    told = signatures("pip install psycopg2 fails with Error: pg_config executable not found")
    assert {(s.kind, "executable" in s.words) for s in told} == {("error", True)}
    git = signatures("git merge says fatal: refusing to merge unrelated histories")
    assert {s.kind for s in git} == {"fatal"}
    # after a determiner it is the asker's prose; lowercase `error:` is prose's spelling
    assert signatures("we hit this Error: something is wrong with the build") == set()
    assert signatures("the build fails with an error: something is wrong here") == set()


RECORDS = {
    "mypkg": dict(
        problem="Running the tests fails with ModuleNotFoundError: No module named 'mypkg'",
        error_type="ModuleNotFoundError",
        stack_trace='Traceback (most recent call last):\n  File "tests/test_a.py", line 1\n'
        "ModuleNotFoundError: No module named 'mypkg'",
        solution="Install the project in editable mode: pip install -e .",
    ),
    "docker": dict(
        problem="Docker build fails: COPY failed: file not found in build context",
        error_type="COPY failed",
        solution="Remove the path from .dockerignore or fix the COPY source",
        code_snippet="COPY requirements.txt /app/\nRUN pip install -r /app/requirements.txt",
    ),
    "cors": dict(
        problem="The browser blocks API calls: no Access-Control-Allow-Origin header",
        solution="Add the CORS middleware with the front end's origin",
    ),
    "tz": dict(
        problem="Timestamps are off by one hour after the daylight saving change",
        solution="Store UTC and convert with zoneinfo at the edge",
    ),
}


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    h = HubSession(Settings(home=tmp_path), embedder=HashingEmbedder(dim=256))
    for key, fields in RECORDS.items():
        upsert_record(h, record_id_for("s", key), RecordInput.model_validate(fields))
    yield h
    h.close()


def test_the_record_holding_a_pasted_error_ranks_first(hub: HubSession) -> None:
    r = search_solutions(hub, "ModuleNotFoundError: No module named 'mypkg'")
    ranked = r.hits or r.nearest
    assert ranked[0].id == record_id_for("s", "mypkg")
    assert "signature" in ranked[0].signals
    assert ranked[0].metadata["evidence"]["signature"] == 1.0
    # another package's name is a literal: still the same error
    other = search_solutions(hub, "ModuleNotFoundError: No module named 'acme_tools'")
    assert (other.hits or other.nearest)[0].id == record_id_for("s", "mypkg")


def test_an_exact_signature_is_never_abstained_on(tmp_path: Path) -> None:
    # a threshold no probability reaches: only the signature rule can answer
    strict = Settings(home=tmp_path, memory_floor=1.0)
    h = HubSession(strict, embedder=HashingEmbedder(dim=256))
    try:
        for key, fields in RECORDS.items():
            upsert_record(h, record_id_for("s", key), RecordInput.model_validate(fields))
        exact = search_solutions(h, "ModuleNotFoundError: No module named 'otherpkg'")
        assert not exact.nothing_relevant and exact.hits[0].id == record_id_for("s", "mypkg")
        described = search_solutions(h, "my tests cannot import the package mypkg")
        assert described.nothing_relevant and described.hits == []
    finally:
        h.close()


def test_a_quoted_error_no_record_holds_is_evidence_against_them(hub: HubSession) -> None:
    quoted = "ImportError: cannot import name 'mypkg' from partially initialized module"
    other = search_solutions(hub, quoted)
    listed = other.hits or other.nearest
    assert listed and all(h.metadata["evidence"]["signature_missing"] == 1.0 for h in listed)
    same = search_solutions(hub, "ModuleNotFoundError: No module named 'mypkg'")
    assert (same.hits or same.nearest)[0].metadata["evidence"]["signature_missing"] == 0.0
    described = search_solutions(hub, "my tests cannot import the package")
    listed = described.hits or described.nearest
    assert listed and all(h.metadata["evidence"]["signature_missing"] == 0.0 for h in listed)


def test_hit_scores_are_probabilities_that_separate_the_answer(hub: HubSession) -> None:
    r = search_solutions(hub, "ModuleNotFoundError: No module named 'mypkg'", limit=4)
    listed = r.hits or r.nearest
    assert all(0.0 <= h.score <= 1.0 for h in listed)
    assert listed[0].score == r.confidence
    assert all(listed[0].score > h.score for h in listed[1:])


def test_every_hit_shown_carries_its_probability(hub: HubSession) -> None:
    for i in range(6):
        upsert_record(
            hub,
            record_id_for("s", f"filler{i}"),
            RecordInput(problem=f"tests fail to import module number {i}", solution="fix it"),
        )
    r = search_solutions(hub, "tests fail to import the module", limit=8)
    listed = r.hits or r.nearest
    assert len(listed) > 5  # deeper than the candidates the decision reads
    assert all("evidence" in h.metadata and 0.0 < h.score < 1.0 for h in listed)
    # the candidates the model reads are listed by their probability, best first
    head = [h.score for h in listed[:DEPTH]]
    assert head == sorted(head, reverse=True)


def test_failures_demote_a_record_but_never_hide_it(hub: HubSession) -> None:
    query = "ModuleNotFoundError: No module named 'mypkg'"
    upsert_record(
        hub,
        record_id_for("s", "twin"),
        RecordInput(  # the same error, fixed another way (another context)
            problem="pytest fails with ModuleNotFoundError: No module named 'mypkg'",
            stack_trace="ModuleNotFoundError: No module named 'mypkg'",
            solution="Add the src folder to pythonpath in pytest.ini",
        ),
    )
    first, second = [h.id for h in (lambda r: r.hits or r.nearest)(search_solutions(hub, query))][
        :2
    ]
    for _ in range(MIN_RATINGS):
        rate(hub, first, False)
    r = search_solutions(hub, query)
    after = [h.id for h in r.hits or r.nearest]
    assert after.index(second) < after.index(first)  # demoted below the unrated one
    hit = next(h for h in r.hits or r.nearest if h.id == first)
    assert hit.metadata["multipliers"]["worked_ratio"] == 0.5
    assert "rated 0/3 worked" in solution_response(r)
    # it failed somewhere; it may still be the answer here: never cut from the list
    one = search_solutions(hub, query, limit=1)
    assert [h.id for h in one.hits or one.nearest] == [first]
