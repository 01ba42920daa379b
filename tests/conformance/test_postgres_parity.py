"""PostgreSQL only: the same corpus indexed into SQLite and PostgreSQL answers the same.
BM25 scores (FTS5's formula, recomputed from tsvectors), cosines, and the Hits the
retriever builds from them: ids, ranks per path, scores and confidence."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ctxhub.config import Settings
from ctxhub.core.knowledge import SearchFilters
from ctxhub.core.records import MemoryFilters, Record
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.session import HubSession
from ctxhub.sources.base import SourceSpec
from ctxhub.store.factory import open_store

CORPUS = Path(__file__).parents[1] / "fixtures" / "corpus"
EMBEDDER = HashingEmbedder(dim=384)
BM25_QUERIES = [
    ["pipeline", "start"],
    ["push_frame"],
    ["echo", "bot", "example"],
    ["text to speech", "voice"],
    ["phone", "transport"],
]
QUESTIONS = [
    "how do I push a frame",
    "start a pipeline",
    "echo bot example",
    "what does run return",
]


@pytest.fixture
def both(pg_url: str, tmp_path: Path) -> dict[str, str]:
    locations = {"sqlite": str(tmp_path / "ctxhub.db"), "postgres": pg_url}
    for name, location in locations.items():
        with open_store(location) as store:
            spec = SourceSpec(name="corpus", path=str(CORPUS))
            refresh(store, [spec], tmp_path / f"sources-{name}", EMBEDDER)  # type: ignore[arg-type]
    return locations


def _rounded(pairs: list[tuple[str, float]]) -> list[tuple[str, float]]:
    return [(i, round(s, 6)) for i, s in pairs]


def test_bm25_scores_match_sqlite(both: dict[str, str]) -> None:
    found: dict[str, list[Any]] = {}
    for name, location in both.items():
        with open_store(location) as store:
            found[name] = [_rounded(store.bm25(q, SearchFilters(), None, 8)) for q in BM25_QUERIES]
            found[name].append(_rounded(store.bm25(["frame"], SearchFilters(), ["doc"], 8)))
    assert found["postgres"] == found["sqlite"]
    assert all(found["postgres"])


def test_hits_match_sqlite(both: dict[str, str], tmp_path: Path) -> None:
    from ctxhub.tools.search_tools import search

    answers: dict[str, list[Any]] = {}
    for name, location in both.items():
        with HubSession(Settings(home=tmp_path / name, db=location), embedder=EMBEDDER) as hub:
            for question in QUESTIONS:
                response = search(hub, question)
                hits = [
                    (
                        h.id,
                        round(h.score, 4),
                        {k: (s.rank, round(s.score, 4)) for k, s in h.signals.items()},
                    )
                    for h in response.hits[:4]  # below: chunks tied at cosine 0, in no set order
                ]
                answers.setdefault(name, []).append((hits, round(response.confidence, 4)))
    assert answers["postgres"] == answers["sqlite"]


def test_record_bm25_matches_sqlite(pg_url: str, tmp_path: Path) -> None:
    texts = [
        ("ssl", "pip install fails with SSL error", "set REQUESTS_CA_BUNDLE to the CA file"),
        ("copy", "docker COPY failed: no such file", "fix the build context; pip in docker"),
        ("wheel", "pip cannot build a wheel for numpy", "install the build tools, then pip"),
    ]
    found: dict[str, list[Any]] = {}
    for name, location in (("sqlite", str(tmp_path / "m.db")), ("postgres", pg_url)):
        with open_store(location) as store:
            for rid, problem, solution in texts:
                record = Record(id=rid, problem=problem, solution=solution, error_type="SSLError")
                store.put_record(record, f"h-{rid}", None, EMBEDDER.id)
            found[name] = [
                _rounded(store.record_bm25(["pip"], MemoryFilters(), 5)),
                _rounded(store.record_bm25(["pip", "docker"], MemoryFilters(), 5, ["solution"])),
                _rounded(store.record_bm25(["build context", "ssl"], MemoryFilters(), 5)),
            ]
    assert found["postgres"] == found["sqlite"]
    assert all(found["postgres"])


def test_memory_moves_from_sqlite_to_postgres_and_answers_the_same(
    pg_url: str, tmp_path: Path
) -> None:
    """Today's way to move solution memory into a PostgreSQL hub: export, import."""
    from ctxhub.core.records import RecordInput
    from ctxhub.memory.records.log import log_solution
    from ctxhub.memory.records.transfer import export_records, import_records
    from ctxhub.memory.search.retrieval import search_solutions

    reports = [
        ("pip install fails with SSL: CERTIFICATE_VERIFY_FAILED", "set REQUESTS_CA_BUNDLE"),
        ("docker COPY failed: no such file requirements.txt", "build from the project folder"),
        ("pytest cannot import my package: ModuleNotFoundError", "pip install -e . first"),
    ]
    sqlite = Settings(home=tmp_path / "a", db=str(tmp_path / "a.db"))
    postgres = Settings(home=tmp_path / "b", db=pg_url)
    dump = tmp_path / "memory.jsonl"
    with HubSession(sqlite, embedder=EMBEDDER) as hub:
        for problem, solution in reports:
            log_solution(hub, RecordInput(problem=problem, solution=solution))
        with dump.open("w") as out:
            assert export_records(hub, out, with_vectors=True) == 3
    with HubSession(postgres, embedder=EMBEDDER) as hub:
        summary = import_records(hub, dump)
        assert summary.created == 3 and not summary.skipped and summary.reembedded == 0
    answers: dict[str, list[Any]] = {}
    for name, settings in (("sqlite", sqlite), ("postgres", postgres)):
        with HubSession(settings, embedder=EMBEDDER) as hub:
            for question in (
                "pip install fails with SSL CERTIFICATE_VERIFY_FAILED",
                "ModuleNotFoundError in pytest",
            ):
                response = search_solutions(hub, question)
                answers.setdefault(name, []).append(
                    [(h.id, round(h.score, 4)) for h in response.hits]
                )
    assert answers["postgres"] == answers["sqlite"]
    assert all(answers["postgres"])
