"""Grow a PostgreSQL store to N chunks for BM25 timing, in SQL: copy after copy of its
chunks, each copy its own source (`name-k`) and ids (`id-k`), the same text and so the
same tsvector, as benchmarks/team.py's synthetic builder makes them (minutes instead of
an hour: no Python per chunk, no vectors; the postings triggers run as on any write).

    python benchmarks/pg_replicate.py postgresql://.../scale 200000
"""

from __future__ import annotations

import argparse
import time

import psycopg

from ctxhub.store.sqlite.rows import CHUNK_COLUMNS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("location")
    parser.add_argument("target", type=int)
    args = parser.parse_args()
    copied = [c for c in CHUNK_COLUMNS if c not in ("id", "source")]
    started = time.monotonic()
    with psycopg.connect(args.location, autocommit=True) as conn:

        def count(where: str) -> int:
            row = conn.execute(f"SELECT count(*) FROM chunks WHERE {where}").fetchone()
            return int(row[0]) if row else 0

        base = count("source !~ '-[0-9]+$'")
        copy = 0
        while (total := count("TRUE")) < args.target:
            copy += 1
            conn.execute(
                f"INSERT INTO chunks(id, source, {', '.join(copied)}, tsv) "
                f"SELECT id || '-' || %s, source || '-' || %s, {', '.join(copied)}, tsv "
                "FROM chunks WHERE source !~ '-[0-9]+$' ORDER BY rowid LIMIT %s",
                (copy, copy, min(base, args.target - total)),
            )
            print(f"copy {copy}: {total:,} chunks, {time.monotonic() - started:.0f} s")
        conn.execute("UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'generation'")
        conn.execute("VACUUM ANALYZE chunks")
        conn.execute("VACUUM ANALYZE chunk_postings")
        print(f"{total:,} chunks in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
