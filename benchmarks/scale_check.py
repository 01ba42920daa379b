"""Check benchmarks/scale_build.py against team.py's `replicate()`: two stores of one
backend grown to the same N, one by each, compared table by table and search by search.

    python benchmarks/scale_check.py /tmp/sql30k.db /tmp/py30k.db
    python benchmarks/scale_check.py postgresql://.../s30 postgresql://.../p30
    python benchmarks/scale_check.py postgresql://.../scale   # one store: time its paths

Printed: row counts per table; whether the chunks (every column but rowid and row_hash,
keyed by id; on PostgreSQL the tsvector and token count too), their side rows, postings
(PostgreSQL) and vector keys are identical; rows whose chunk is missing; the cosine of the
two stores' vectors of one text (each the same original plus its own noise); and for
the eval questions team.py asks, how the two stores' top 10 agree: the same ids, and the
same originals (the id without its copy suffix `-k`: copies are near neighbours, and which
copy wins is the noise's choice).
"""

from __future__ import annotations

import argparse
import hashlib
import re
import statistics
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from ctxhub.core.knowledge import SearchRequest
from ctxhub.embed import load_default_embedder
from ctxhub.search.retriever import Retriever
from ctxhub.store.factory import open_store

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pg_recall import questions

TABLES = (
    "chunks",
    "chunk_terms",
    "symbol_names",
    "chunk_windows",
    "embeddings",
    "sources",
    "files",
    "file_texts",
    "deprecations",
)
COLUMNS = (
    "id, source, file, kind, path, symbol, title, section, line_start, line_end, url, "
    "version, content, embed_text, content_hash, embed_hash, chunk_type, module, "
    "class_name, language, execution_mode, is_dataclass, deprecated, names, idents, meta"
)
SIDE = {
    "chunks": f"SELECT {COLUMNS}{{pg}} FROM chunks ORDER BY id",
    "chunk_terms": "SELECT c.id, t.field, t.value FROM chunk_terms t "
    "JOIN chunks c ON c.rowid = t.chunk ORDER BY 1, 2, 3",
    "symbol_names": "SELECT c.id, t.name, t.depth FROM symbol_names t "
    "JOIN chunks c ON c.rowid = t.chunk ORDER BY 1, 2, 3",
    "chunk_windows": "SELECT c.id, t.seq, t.embed_hash, t.embed_text FROM chunk_windows t "
    "JOIN chunks c ON c.rowid = t.chunk ORDER BY 1, 2",
    "vector keys": "SELECT model, text_hash FROM embeddings ORDER BY 1, 2",
}
POSTINGS = (
    "SELECT c.id, p.lexeme, p.tf, p.dl FROM chunk_postings p "
    "JOIN chunks c ON c.rowid = p.chunk ORDER BY 1, 2"
)


class Db:
    """A raw read connection to one store: a SQLite file or a PostgreSQL URL."""

    def __init__(self, location: str) -> None:
        self.pg = location.startswith("postgresql:")
        if self.pg:
            import psycopg

            self.conn: Any = psycopg.connect(location, autocommit=True)
        else:
            import sqlite3

            self.conn = sqlite3.connect(f"file:{location}?mode=ro", uri=True)

    def one(self, sql: str) -> Any:
        return self.conn.execute(sql).fetchone()[0]

    def digest(self, sql: str) -> str:
        """A digest of the rows `sql` returns (the same order on one backend)."""
        h = hashlib.sha256()
        for row in self.conn.execute(sql):
            h.update(repr(tuple(row)).encode())
        return h.hexdigest()[:16]

    def vectors(self, hashes: list[str]) -> dict[str, Any]:
        mark = "%s" if self.pg else "?"
        vec = "vec::text" if self.pg else "vec"
        out = {}
        for h in hashes:
            row = self.conn.execute(
                f"SELECT {vec} FROM embeddings WHERE text_hash = {mark}", (h,)
            ).fetchone()
            if row is not None:
                v = row[0]
                out[h] = (
                    np.array(v.strip("[]").split(","), dtype=np.float32)
                    if isinstance(v, str)
                    else np.frombuffer(v, dtype="<f4")
                )
        return out


def base(chunk_id: str) -> str:
    """The original's id of a copy's (`id-k`)."""
    return re.sub(r"-\d+$", "", chunk_id)


def overlap(a: Iterable[str], b: Iterable[str]) -> float:
    sa, sb = set(a), set(b)
    return len(sa & sb) / max(1, len(sa | sb))


def compare(new: str, old: str, queries: int) -> None:
    a, b = Db(new), Db(old)
    print(f"built in SQL: {new}\nreplicate(): {old}")
    tables = [*TABLES, "chunk_postings"] if a.pg else list(TABLES)
    for table in tables:
        n, m = a.one(f"SELECT count(*) FROM {table}"), b.one(f"SELECT count(*) FROM {table}")
        print(f"  rows {table:<14} {n:>10,} {m:>10,}  {'same' if n == m else 'DIFFER'}")
    checks = {k: v.format(pg=", tsv::text, dl" if a.pg else "") for k, v in SIDE.items()}
    if a.pg:
        checks["chunk_postings"] = POSTINGS
    for what, sql in checks.items():
        same = a.digest(sql) == b.digest(sql)
        print(f"  content {what:<14} {'identical' if same else 'DIFFER'}")
    for db, name in ((a, "SQL"), (b, "replicate()")):
        orphans = sum(
            db.one(f"SELECT count(*) FROM {t} x WHERE NOT EXISTS "
                   "(SELECT 1 FROM chunks c WHERE c.rowid = x.chunk)")
            for t in ("chunk_terms", "symbol_names", "chunk_windows")
        )  # fmt: skip
        unvectored = db.one(
            "SELECT count(*) FROM chunks c WHERE NOT EXISTS "
            "(SELECT 1 FROM embeddings e WHERE e.text_hash = c.embed_hash)"
        )
        generation = db.one("SELECT value FROM meta WHERE key = 'generation'")
        print(f"  {name}: side rows without their chunk {orphans}, chunks without a vector "
              f"{unvectored}, generation {generation}")  # fmt: skip
    sample = [r[0] for r in a.conn.execute("SELECT embed_hash FROM chunks ORDER BY rowid")][::97]
    va, vb = a.vectors(sample), b.vectors(sample)
    cos = [float(va[h] @ vb[h]) for h in sample if h in va and h in vb]
    norms = [float(np.linalg.norm(va[h])) for h in va]
    print(f"  vectors of one text, SQL vs replicate(): cosine mean {statistics.mean(cos):.3f} "
          f"({len(cos)} sampled), norms {min(norms):.4f}-{max(norms):.4f}")  # fmt: skip
    embedder = load_default_embedder(Path("~/.ctxhub").expanduser())
    asked = questions()[:queries]
    with open_store(new, read_only=True) as sa, open_store(old, read_only=True) as sb:
        for store in (sa, sb):
            store.check_integrity()
        ra, rb = Retriever(sa, embedder), Retriever(sb, embedder)
        same_ids, same_bases, top1 = [], [], 0
        for q in asked:
            ha = [h.id for h in ra.search(SearchRequest(query=q, limit=10)).hits]
            hb = [h.id for h in rb.search(SearchRequest(query=q, limit=10)).hits]
            same_ids.append(overlap(ha, hb))
            same_bases.append(overlap(map(base, ha), map(base, hb)))
            top1 += bool(ha and hb and base(ha[0]) == base(hb[0]))
    print(f"  search, {len(asked)} questions, top 10 (Jaccard): same ids "
          f"{statistics.mean(same_ids):.2f}, same originals {statistics.mean(same_bases):.2f}; "
          f"best hit the same original {top1}/{len(asked)}")  # fmt: skip


def time_paths(store: Any) -> dict[str, list[float]]:
    """Time the store calls a search makes (each retrieval path's), by name, from now on:
    the returned lists fill as the store is searched."""
    ms: dict[str, list[float]] = {}

    def timer(call: Any, into: list[float]) -> Any:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return call(*args, **kwargs)
            finally:
                into.append((time.perf_counter() - started) * 1000)

        return timed

    for name in ("term_frequencies", "bm25", "dense", "dense_windows", "symbol_lookup"):
        ms[name] = []
        setattr(store, name, timer(getattr(store, name), ms[name]))
    return ms


def hnsw_recall(store: Any, queries: Any) -> str:
    """A PostgreSQL store's dense path forced exact and forced through its HNSW index
    (`vectors.EXACT_MAX`, as benchmarks/pg_recall.py): recall@10 by id and by original
    (copies of one chunk are near-duplicates: any of them is as near), the cosine of the
    10th hit each way, and p50 of each."""
    from ctxhub.core.knowledge import SearchFilters
    from ctxhub.store.postgres import vectors

    ids, originals, tenth = [], [], {True: [], False: []}  # type: ignore[var-annotated]
    ms: dict[bool, list[float]] = {True: [], False: []}
    keep = vectors.EXACT_MAX
    try:
        for q in queries:
            found = {}
            for exact in (True, False):
                vectors.EXACT_MAX = 10**12 if exact else 0
                started = time.perf_counter()
                found[exact] = store.dense(q, SearchFilters(), None, 10)
                ms[exact].append((time.perf_counter() - started) * 1000)
                tenth[exact].append(found[exact][-1][1])
            want, got = ({i for i, _ in found[e]} for e in (True, False))
            ids.append(len(want & got) / max(1, len(want)))
            originals.append(overlap(map(base, want), map(base, got)))
    finally:
        vectors.EXACT_MAX = keep
    return (
        f"HNSW vs exact, {len(ids)} questions: recall@10 by id mean {statistics.mean(ids):.3f} "
        f"(min {min(ids):.2f}), same originals (Jaccard) {statistics.mean(originals):.3f}; "
        f"10th hit cosine exact {statistics.mean(tenth[True]):.4f}, "
        f"HNSW {statistics.mean(tenth[False]):.4f}; dense p50 exact "
        f"{statistics.median(ms[True]):.1f} ms, HNSW {statistics.median(ms[False]):.1f} ms"
    )


def profile(location: str, queries: int) -> None:
    """Search one store with team.py's questions (after its 10 warm-up questions): p50 of
    the search and of each store call, and on PostgreSQL HNSW against exact search."""
    embedder = load_default_embedder(Path("~/.ctxhub").expanduser())
    asked = questions()
    warm, asked = asked[-10:], asked[:queries]
    with open_store(location, read_only=True) as store:
        retriever = Retriever(store, embedder)
        for q in warm:
            retriever.search(SearchRequest(query=q, limit=10))
        paths, ms = time_paths(store), []
        for q in asked:
            started = time.perf_counter()
            retriever.search(SearchRequest(query=q, limit=10))
            ms.append((time.perf_counter() - started) * 1000)
        calls = (f"{k} {statistics.median(v):.1f}" for k, v in paths.items() if v)
        print(f"{store.chunk_count():,} chunks: search p50 {statistics.median(ms):.1f} ms; "
              f"store calls, p50 ms per call: {', '.join(calls)}")  # fmt: skip
        if location.startswith("postgresql:"):
            print(hnsw_recall(store, embedder.embed(asked)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("built", help="the store scale_build.py grew")
    parser.add_argument("replicated", nargs="?", help="the store replicate() grew, as large")
    parser.add_argument("--queries", type=int, default=30)
    args = parser.parse_args()
    if args.replicated:
        compare(args.built, args.replicated, args.queries)
    else:
        profile(args.built, args.queries)


if __name__ == "__main__":
    main()
