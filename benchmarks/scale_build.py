"""Grow a copy of an eval store to N chunks in SQL: the synthetic store benchmarks/team.py
searches at scale (part 2), without a Python round trip per chunk and without growing the
HNSW index row by row (team.py's old builder, `replicate()` below, made 215 chunks/s on
PostgreSQL: over an hour for 1M).

The rows are those `replicate()` (below) writes through the store API (its data, not
its speed): the source store's chunks copied again and again until there are N, copy k
with its own sources (`name-k`), ids (`id-k`) and embedded text (`embed_text + "\\n#k"`,
so its own embed hash: sha256 hex, as `content_hash`), the same text index (content,
names, identifier parts; on PostgreSQL the same tsvector, token count and postings), the
rows hanging off the chunk's rowid copied with it (chunk_terms, symbol_names,
chunk_windows), and one vector per new embedded text: the original's plus Gaussian noise
N(0, 0.3/sqrt(dim)), renormalised (`--vectors rotate`, SQL builders only: the original's
times one random orthogonal matrix R_k per copy, R_0 the identity, so each copy keeps the
real vectors' local geometry without being a near-duplicate of another copy: a check of
whether HNSW recall at scale suffers from the noisy copies' clusters; `rotate-mean`: R_k
keeps the originals' mean direction, since `rotate` turns it too and so makes each copy an
island of its own; measured on PostgreSQL only). Nothing else: no sources, files, file
texts or deprecations rows and no window vectors (replicate() writes none of these
either). The last copy is cut short, chunks taken in replicate()'s order (source, unit,
rowid).
What differs: `row_hash` stays the original's (replicate() hashes the copy's JSON; it
only decides whether a refresh rewrites a row), the noise (another RNG order), rowids.

How: the source's rows are read once into temporary seed tables (on PostgreSQL after
`ctxhub migrate`'s code has copied the SQLite file in: tsvectors and postings as the
store makes them), the store's knowledge tables are emptied, their secondary indexes
dropped, copy after copy inserted with INSERT ... SELECT (rowid k*B + place), vectors
written in bulk (SQLite: executemany of the store's float32 blobs; PostgreSQL: binary
COPY), then the indexes made again. PostgreSQL: triggers and foreign-key checks off for
the load (session_replication_role = replica), postings copied from the originals' with
the new rowids (the rows the trigger would make: same tsvector, same length), the HNSW
index built once at the end by the store's own `vectors.ensure_index`, VACUUM ANALYZE.
SQLite: the FTS5 index rebuilt from the chunks table. Both: `generation` bumped.

    python benchmarks/scale_build.py ~/.cache/ctxhub-quality/pipecat/eval.db /tmp/s.db 200000
    python benchmarks/scale_build.py ~/.cache/ctxhub-quality/pipecat/eval.db \\
        'postgresql://postgres:@/scale?host=/tmp/srv' 200000
    python benchmarks/scale_build.py ... --python   # the same through replicate()
    python benchmarks/scale_build.py ... --vectors rotate-mean   # or rotate: not noisy

The source file is copied (SQLite) or read (PostgreSQL), never changed.
benchmarks/scale_check.py compares a store built here with one replicate() built.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import struct
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ctxhub.app.migrate import migrate
from ctxhub.core.knowledge import ChunkQuery, content_hash
from ctxhub.store.factory import open_store
from ctxhub.store.protocol import HubStore
from ctxhub.store.sqlite.rows import CHUNK_COLUMNS
from ctxhub.store.sqlite.vectors import to_blob
from scale_vectors import MAKERS, NOISE, Maker

SEED = 7
#: the knowledge tables replicate()'s store holds rows in, and those it leaves empty
KEPT = ("chunks", "chunk_terms", "symbol_names", "chunk_windows")
EMPTIED = ("embeddings", "sources", "files", "file_texts", "deprecations", "knowledge_feedback")
#: side tables: their columns after `chunk`
SIDE = {
    "chunk_terms": "field, value",
    "symbol_names": "name, depth",
    "chunk_windows": "seq, embed_hash, embed_text",
}
#: chunk columns copied as they are
SAME = [c for c in CHUNK_COLUMNS if c not in ("id", "source", "embed_text", "embed_hash")]

Say = Callable[[str], None]


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def copies(target: int, size: int) -> list[tuple[int, int]]:
    """(k, how many of the `size` originals) for each copy k until `target` chunks."""
    return [(k, min(size, target - k * size)) for k in range(-(-target // size))]


# -- through the store API (the reference) ---------------------------------------------
def replicate(src: HubStore, dst: HubStore, target: int, say: Any) -> int:
    """Copy `src`'s chunks into `dst` copy after copy until `target` chunks through the
    store API (team.py's builder before this module; 215 chunks/s on PostgreSQL): each
    copy its own sources, ids and embedded text; its vectors the originals plus noise."""
    model, dim = src.model or ("", 0)
    dst.bind_model(model, dim)
    rng = np.random.default_rng(SEED)
    total, copy = 0, 0
    units = [(s.name, u) for s in src.sources() for u in src.file_states(s.name)]
    while total < target:
        for name, unit in units:
            chunks = src.find_chunks(ChunkQuery(source=name, unit=unit))[: target - total]
            if not chunks:
                continue
            vecs = src.embeddings_for(model, [content_hash(c.embed_text) for c in chunks])
            copies, fresh = [], []
            for c in chunks:
                old = content_hash(c.embed_text)
                text = f"{c.embed_text}\n#{copy}"
                copies.append(
                    c.model_copy(
                        update={
                            "id": f"{c.id}-{copy}",
                            "source": f"{name}-{copy}",
                            "embed_text": text,
                        }
                    )
                )
                if old in vecs:
                    v = vecs[old] + rng.normal(0, NOISE / np.sqrt(dim), dim).astype(np.float32)
                    fresh.append((content_hash(text), (v / np.linalg.norm(v)).astype(np.float32)))
            dst.replace_file(f"{name}-{copy}", unit, copies)
            dst.put_embeddings(model, fresh)
            total += len(copies)
            if total >= target:
                break
        copy += 1
        say(f"  copy {copy}: {total:,} chunks")
    return total


# -- SQLite -----------------------------------------------------------------------------
def build_sqlite(
    source: Path, path: Path, target: int, say: Say = _say, vectors: str = "noise"
) -> int:
    """`source` copied to `path` and grown to `target` chunks (copy vectors: `MAKERS`)."""
    started = time.monotonic()
    shutil.copyfile(source, path)
    with open_store(str(path)) as store:  # its migrations: the schema of any store
        model, dim = store.model or ("", 0)
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.create_function("content_hash", 1, content_hash, deterministic=True)
        for pragma in ("journal_mode=DELETE", "synchronous=OFF", "cache_size=-2000000"):
            db.execute(f"PRAGMA {pragma}")
        db.execute("BEGIN")
        size = _seed(db, "ORDER BY source, file, rowid")
        base = _base_vectors(db, "e.vec", "?", model, dim)
        indexes = db.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
            f"AND tbl_name IN ({', '.join('?' for _ in KEPT)})",
            KEPT,
        ).fetchall()
        for name, _ in indexes:
            db.execute(f'DROP INDEX "{name}"')
        for table in (*KEPT, *EMPTIED):
            db.execute(f"DELETE FROM {table}")
        text = "s.embed_text || char(10) || '#' || ?"
        select = _chunk_select("?", text, f"content_hash({text})")
        rng = np.random.default_rng(SEED)
        for k, n in copies(target, size):
            _copy_rows(db, "?", k, n, size, select, SIDE)
            hashes, vecs = _new_vectors(db, "?", k, size, base, rng, MAKERS[vectors])
            db.executemany(
                "INSERT OR REPLACE INTO embeddings(model, text_hash, vec) VALUES (?, ?, ?)",
                [(model, h, to_blob(v)) for h, v in zip(hashes, vecs, strict=True)],
            )
            say(f"  sqlite copy {k}: {k * size + n:,} chunks, {time.monotonic() - started:.0f} s")
        for _, sql in indexes:
            db.execute(sql)
        say(f"  sqlite indexes made, {time.monotonic() - started:.0f} s")
        db.execute("INSERT INTO chunks_fts(chunks_fts) VALUES ('rebuild')")
        db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'")
        db.execute("COMMIT")
        db.execute("PRAGMA journal_mode=WAL")
    finally:
        db.close()
    say(f"  sqlite FTS rebuilt, {time.monotonic() - started:.0f} s")
    return target


# -- PostgreSQL -------------------------------------------------------------------------
def build_postgres(
    source: Path, url: str, target: int, say: Say = _say, vectors: str = "noise"
) -> int:
    """`source` (a SQLite store) copied into the empty database `url` with `ctxhub
    migrate`'s code, then grown to `target` chunks (copy vectors: `MAKERS`)."""
    import psycopg

    from ctxhub.store.postgres import vectors as pg_vectors
    from ctxhub.store.postgres.schema import LOCK_NAMESPACE, MIGRATE_LOCK

    started = time.monotonic()

    def done(what: str) -> None:
        say(f"  postgres {what}, {time.monotonic() - started:.0f} s")

    with open_store(str(source), read_only=True) as src, open_store(url) as store:
        migrate(src, store)
        model, dim = store.model or ("", 0)
    done(f"{source.parent.name} copied in by migrate")
    with psycopg.connect(url, autocommit=True) as conn:
        for setting in (
            "session_replication_role = replica",  # no triggers, no foreign-key checks
            "maintenance_work_mem = '6GB'",
            "max_parallel_maintenance_workers = 2",
            "synchronous_commit = off",
            "work_mem = '256MB'",
        ):
            conn.execute(f"SET {setting}")
        size = _seed(conn, 'ORDER BY source COLLATE "C", file COLLATE "C", rowid')
        side = {**SIDE, "chunk_postings": "lexeme, tf, dl"}
        conn.execute(
            "CREATE TEMP TABLE seed_chunk_postings AS SELECT s.ord, p.lexeme, p.tf, p.dl "
            "FROM chunk_postings p JOIN seed s ON s.rowid = p.chunk"
        )
        base = _base_vectors(conn, "e.vec::text", "%s", model, dim)
        tables = [*KEPT, "chunk_postings", "embeddings"]
        indexes = conn.execute(
            "SELECT i.indexname, i.indexdef FROM pg_indexes i "
            "WHERE i.schemaname = current_schema() AND i.tablename = ANY(%s) "
            "AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)",
            (tables,),
        ).fetchall()
        for name, _ in indexes:
            conn.execute(f'DROP INDEX "{name}"')
        conn.execute("ALTER TABLE chunk_postings DROP CONSTRAINT chunk_postings_pkey")
        conn.execute(f"TRUNCATE {', '.join((*KEPT, 'chunk_postings', *EMPTIED))}")
        text = "s.embed_text || chr(10) || '#' || %s"
        digest = f"encode(sha256(convert_to({text}, 'UTF8')), 'hex')"
        select = _chunk_select("%s", text, digest) + ", s.tsv"
        rng = np.random.default_rng(SEED)
        for k, n in copies(target, size):
            _copy_rows(conn, "%s", k, n, size, select, side)
            hashes, vecs = _new_vectors(conn, "%s", k, size, base, rng, MAKERS[vectors])
            _copy_vectors(conn, model, hashes, vecs)
            done(f"copy {k}: {k * size + n:,} chunks")
        conn.execute(
            "SELECT setval(pg_get_serial_sequence('chunks', 'rowid'), "
            "(SELECT max(rowid) FROM chunks))"
        )
        conn.execute("ALTER TABLE chunk_postings ADD PRIMARY KEY (lexeme, chunk) INCLUDE (tf, dl)")
        done("postings primary key made")
        for name, sql in indexes:
            if "_hnsw_" not in name:
                conn.execute(sql)
        done("other indexes made")
        pg_vectors.ensure_index(conn, "embeddings", model, dim, (LOCK_NAMESPACE, MIGRATE_LOCK))
        done("HNSW index made (vectors.ensure_index)")
        conn.execute("UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'generation'")
        conn.execute("RESET session_replication_role")
        conn.execute("VACUUM ANALYZE")
        done("VACUUM ANALYZE")
    return target


# -- shared -----------------------------------------------------------------------------
def _seed(db: Any, order: str) -> int:
    """Temporary seed tables: each original chunk with its place `ord` (1..B) in
    replicate()'s order, and its side rows by place. Returns B."""
    db.execute(
        f"CREATE TEMP TABLE seed AS SELECT row_number() OVER ({order}) AS ord, * FROM chunks"
    )
    for table, columns in SIDE.items():
        own = ", ".join("t." + c.strip() for c in columns.split(","))
        db.execute(
            f"CREATE TEMP TABLE seed_{table} AS SELECT s.ord, {own} "
            f"FROM {table} t JOIN seed s ON s.rowid = t.chunk"
        )
    return int(db.execute("SELECT count(*) FROM seed").fetchone()[0])


def _base_vectors(db: Any, vec: str, mark: str, model: str, dim: int) -> npt.NDArray[np.float32]:
    """The originals' vectors in seed order (row i: place i + 1)."""
    rows = db.execute(
        f"SELECT {vec} FROM seed s JOIN embeddings e ON e.model = {mark} "
        "AND e.text_hash = s.embed_hash ORDER BY s.ord",
        (model,),
    ).fetchall()
    size = int(db.execute("SELECT count(*) FROM seed").fetchone()[0])
    if len(rows) != size:  # replicate() would leave those copies without a vector
        raise SystemExit(f"{size - len(rows)} of the source's chunks have no vector")
    if rows and isinstance(rows[0][0], str):  # pgvector's text form
        return np.array([r[0].strip("[]").split(",") for r in rows], dtype=np.float32)
    return np.frombuffer(b"".join(r[0] for r in rows), dtype="<f4").reshape(size, dim)


def _chunk_select(mark: str, text: str, digest: str) -> str:
    """The copy's chunk columns over seed `s` (parameters: k for id, source, the text and
    the text in its digest)."""
    same = ", ".join("s." + c for c in SAME)
    return f"s.id || '-' || {mark}, s.source || '-' || {mark}, {same}, {text}, {digest}"


def _copy_rows(
    db: Any, mark: str, k: int, n: int, size: int, select: str, side: dict[str, str]
) -> None:
    """Copy k: the first `n` seed chunks at rowids k*size + place, and their side rows."""
    pg = mark != "?"
    db.execute(
        f"INSERT INTO chunks(rowid, id, source, {', '.join(SAME)}, embed_text, embed_hash"
        f"{', tsv' if pg else ''}) {'OVERRIDING SYSTEM VALUE ' if pg else ''}"
        f"SELECT {mark} + s.ord, {select} FROM seed s WHERE s.ord <= {mark} ORDER BY s.ord",
        (k * size, str(k), str(k), str(k), str(k), n),
    )
    for table, columns in side.items():
        db.execute(
            f"INSERT INTO {table}(chunk, {columns}) SELECT {mark} + s.ord, {columns} "
            f"FROM seed_{table} s WHERE s.ord <= {mark}",
            (k * size, n),
        )


def _new_vectors(
    db: Any,
    mark: str,
    k: int,
    size: int,
    base: npt.NDArray[np.float32],
    rng: np.random.Generator,
    make: Maker = MAKERS["noise"],
) -> tuple[list[str], npt.NDArray[np.float32]]:
    """(embed hash, vector) of copy k's chunks, one per distinct hash, made by `make`."""
    rows = db.execute(
        f"SELECT rowid, embed_hash FROM chunks WHERE rowid > {mark} ORDER BY rowid", (k * size,)
    ).fetchall()
    first = {h: r for r, h in reversed(rows)}  # two originals with one text: one vector
    places = [r - k * size - 1 for r in first.values()]
    return list(first), make(base, places, k, rng)


def _copy_vectors(conn: Any, model: str, hashes: list[str], vecs: npt.NDArray[np.float32]) -> None:
    """COPY ... FROM STDIN (FORMAT BINARY) into embeddings: rows of (model, text_hash,
    vec), pgvector's binary form (int16 dim, int16 0, float4 big-endian each)."""
    name, dim = model.encode(), vecs.shape[1]
    row = np.dtype(
        [
            ("fields", ">i2"),
            ("model_len", ">i4"),
            ("model", f"S{len(name)}"),
            ("hash_len", ">i4"),
            ("hash", "S64"),
            ("vec_len", ">i4"),
            ("dim", ">u2"),
            ("unused", ">u2"),
            ("vec", ">f4", (dim,)),
        ]
    )
    rows = np.zeros(len(hashes), dtype=row)
    rows["fields"], rows["model_len"], rows["model"] = 3, len(name), name
    rows["hash_len"], rows["hash"] = 64, np.array(hashes, dtype="S64")
    rows["vec_len"], rows["dim"], rows["vec"] = 4 + 4 * dim, dim, vecs
    data = b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0) + rows.tobytes() + b"\xff\xff"
    with conn.cursor().copy(
        "COPY embeddings(model, text_hash, vec) FROM STDIN (FORMAT BINARY)"
    ) as cp:
        cp.write(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="a SQLite store (never changed)")
    parser.add_argument("dest", help="a new SQLite file, or an empty postgresql:// database")
    parser.add_argument("target", type=int)
    parser.add_argument("--python", action="store_true", help="replicate() (the reference)")
    parser.add_argument(
        "--vectors",
        choices=sorted(MAKERS),
        default="noise",
        help="copy vectors: the original's plus noise (default, as replicate()), or turned "
        "by one random orthogonal matrix per copy, copy 0 the originals (rotate-mean: one "
        "that keeps the originals' mean direction)",
    )
    args = parser.parse_args()
    if args.python and args.vectors != "noise":
        parser.error("--python (replicate()) makes noisy vectors only")
    started = time.monotonic()
    source = args.source.expanduser()
    if args.python:
        with open_store(str(source), read_only=True) as src, open_store(args.dest) as dst:
            replicate(src, dst, args.target, _say)
    elif args.dest.startswith("postgresql:"):
        build_postgres(source, args.dest, args.target, vectors=args.vectors)
    else:
        build_sqlite(source, Path(args.dest), args.target, vectors=args.vectors)
    with open_store(args.dest, read_only=True) as store:
        print(f"{store.chunk_count():,} chunks in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
