"""Grow a store to N chunks for BM25 timing, in SQL: copy after copy of its chunks, each
copy its own source (`name-k`) and ids (`id-k`), the same text and so the same text
index, as benchmarks/team.py's synthetic builder makes them (minutes instead of an hour:
no Python per chunk, no new vectors). PostgreSQL: the postings triggers run as on any
write. SQLite (a file path): FTS5 rebuilds its index from the chunks table at the end.

    python benchmarks/bm25_replicate.py postgresql://.../scale 200000
    python benchmarks/bm25_replicate.py /tmp/scale.db 200000
"""

from __future__ import annotations

import argparse
import sqlite3
import time
from typing import Any

import psycopg

from ctxhub.store.sqlite.rows import CHUNK_COLUMNS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("location")
    parser.add_argument("target", type=int)
    args = parser.parse_args()
    started = time.monotonic()
    if args.location.startswith("postgresql:"):
        with psycopg.connect(args.location, autocommit=True) as conn:
            total = grow(conn, args.target, "%s", "source !~ '-[0-9]+$'", ["tsv"])
            conn.execute(
                "UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'generation'"
            )
            conn.execute("VACUUM ANALYZE chunks")
            conn.execute("VACUUM ANALYZE chunk_postings")
    else:
        with sqlite3.connect(args.location, isolation_level=None) as db:
            total = grow(db, args.target, "?", "source NOT GLOB '*-[0-9]*'", [])
            db.execute("INSERT INTO chunks_fts(chunks_fts) VALUES ('rebuild')")
            db.execute(
                "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'"
            )
    print(f"{total:,} chunks in {time.monotonic() - started:.0f} s")


def grow(conn: Any, target: int, mark: str, original: str, extra: list[str]) -> int:
    """Copies of the original chunks (`original`: their WHERE) until `target` chunks."""
    copied = [c for c in CHUNK_COLUMNS if c not in ("id", "source")] + extra

    def count(where: str) -> int:
        row = conn.execute(f"SELECT count(*) FROM chunks WHERE {where}").fetchone()
        return int(row[0]) if row else 0

    base, copy, started = count(original), 0, time.monotonic()
    while (total := count("TRUE")) < target:
        copy += 1
        conn.execute(
            f"INSERT INTO chunks(id, source, {', '.join(copied)}) "
            f"SELECT id || '-' || {mark}, source || '-' || {mark}, {', '.join(copied)} "
            f"FROM chunks WHERE {original} ORDER BY rowid LIMIT {mark}",
            (copy, copy, min(base, target - total)),
        )
        print(f"copy {copy}: {total:,} chunks, {time.monotonic() - started:.0f} s")
    return total


if __name__ == "__main__":
    main()
