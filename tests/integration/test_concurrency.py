"""Two processes on one store: a writer committing batches, a reader searching.

WAL readers never wait for the writer; every search must succeed and stay fast while
batches commit, and the reader must see the writer's content once committed.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from ctxhub.core.knowledge import SearchFilters, SearchRequest
from ctxhub.embed import load_default_embedder
from ctxhub.ingest.refresh.embedding import embed_missing
from ctxhub.search.retriever import Retriever
from ctxhub.store.sqlite.store import SQLiteStore

pytestmark = pytest.mark.integration

WRITER = textwrap.dedent(
    """
    import sys, time
    from ctxhub.core.knowledge import Chunk, chunk_id
    from ctxhub.store.sqlite.store import SQLiteStore

    store = SQLiteStore(sys.argv[1])
    for batch in range(int(sys.argv[2])):
        chunks = [
            Chunk(id=chunk_id("w", f"f{batch}.py", f"m.f{batch}_{i}"), source="w",
                  kind="api", path=f"f{batch}.py", symbol=f"m.f{batch}_{i}",
                  content=f"def f{batch}_{i}(): return 'writer batch {batch} item {i}'",
                  embed_text=f"writer function {batch} {i}")
            for i in range(200)
        ]
        store.replace_file("w", f"f{batch}.py", chunks)
        time.sleep(0.01)
    print("done", flush=True)
    """
)


def test_reader_never_blocks_while_another_process_writes(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    embedder = load_default_embedder(tmp_path / "home")
    with SQLiteStore(db) as store:
        from tests.conftest import make_chunk

        store.replace_file(
            "base",
            "a.py",
            [
                make_chunk("base", "a.py", f"m.base_{i}", f"def base_{i}(): frames {i}")
                for i in range(50)
            ],
        )
        embed_missing(store, embedder)

    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db), "40"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    latencies: list[float] = []
    saw_writer = False
    with SQLiteStore(db) as reader:
        retriever = Retriever(reader, embedder)
        while writer.poll() is None or not latencies:
            started = time.perf_counter()
            response = retriever.search(SearchRequest(query="writer batch frames", limit=5))
            latencies.append(time.perf_counter() - started)
            assert response.hits, "a search during writes came back empty"
            if reader.list_ids(SearchFilters(source=["w"]), None, 1)[1]:
                saw_writer = True
        out, err = writer.communicate(timeout=60)
        assert writer.returncode == 0, err
        assert "done" in out
        # after the writer's last commit everything it wrote is visible
        assert reader.list_ids(SearchFilters(source=["w"]), None, 1)[1] == 40 * 200
    assert saw_writer, "the reader never saw committed batches while the writer ran"
    assert len(latencies) >= 5
    # a blocked reader would wait for busy_timeout (30 s); none comes near a second
    assert max(latencies) < 1.0, f"slowest search {max(latencies):.2f}s"
