"""Vectors on PostgreSQL: pgvector values, HNSW indexes per model, nearest-neighbour SQL.

A store can hold two models' vectors for a while (`refresh --reembed`), so the vector
columns have no fixed dimension; each model gets a partial HNSW index on the cast
`vec::vector(dim)` (pgvector's way to index columns of mixed sizes). A search on a
filtered set runs exactly (a sequential cosine over the rows the filter admits) when
that set is small, and through the index otherwise, with pgvector's iterative index
scan so that a filter never leaves fewer than `limit` hits behind a truncated KNN.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from ctxhub.core.knowledge import MAX_WINDOWS
from ctxhub.embed.base import Vectors

if TYPE_CHECKING:  # numpy loads with the first vector read, not with the store
    import numpy as np
    import numpy.typing as npt

#: At most this many candidate rows are ranked exactly; larger sets use the HNSW index.
EXACT_MAX = 20_000
#: How the HNSW graph is built, and how many candidates a search keeps (pgvector's
#: defaults: ef_construction 64, ef_search 40). Measured at 200,000 chunks (real vectors
#: rotated into copies that are not near-duplicates; docs/BENCHMARKS.md): recall@10
#: against exact search 0.49 with (64, 200), 0.87 with (64, 1000), 1.00 with (200,
#: 1000); a search then takes 22-77 ms instead of 9-25, the index 2.6x longer to build.
HNSW_M = 16
EF_CONSTRUCTION = 200
EF_SEARCH = 1000


def vector_text(vec: Vectors | Any) -> str:
    """pgvector's text form; float32 values print exactly and parse back to the same."""
    values = vec.tolist() if hasattr(vec, "tolist") else list(vec)
    return "[" + ",".join(repr(float(x)) for x in values) + "]"


def parse_vector(text: str) -> npt.NDArray[np.float32]:
    import numpy as np

    inner = text.strip()[1:-1]
    return np.array(inner.split(",") if inner else [], dtype=np.float32)


def dimension(vec: Vectors | Any) -> int:
    shape = getattr(vec, "shape", None)
    return int(shape[-1]) if shape else len(vec)


def index_name(table: str, model: str, dim: int) -> str:
    digest = hashlib.sha1(f"{model}\x00{dim}".encode()).hexdigest()[:12]
    return f"{table}_hnsw_{digest}"


def ensure_index(conn: Any, table: str, model: str, dim: int, lock: tuple[int, int]) -> None:
    """The partial HNSW index of `model` on `table` (made once, under `lock`)."""
    from psycopg import sql

    name = index_name(table, model, dim)
    have = "SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = %s"
    if conn.execute(have, (name,)).fetchone():
        return
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", lock)
        conn.execute(
            sql.SQL(
                "CREATE INDEX IF NOT EXISTS {} ON {} USING hnsw "
                "((vec::vector({})) vector_cosine_ops) WITH (m = {}, ef_construction = {}) "
                "WHERE model = {}"
            ).format(
                sql.Identifier(name),
                sql.Identifier(table),
                sql.Literal(int(dim)),
                sql.Literal(HNSW_M),
                sql.Literal(EF_CONSTRUCTION),
                sql.Literal(model),
            )
        )


def drop_indexes_except(conn: Any, table: str, keep: str) -> None:
    """Drop the HNSW indexes of every other model on `table`."""
    from psycopg import sql

    rows = conn.execute(
        "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() "
        "AND tablename = %s AND indexname LIKE %s AND indexname != %s",
        (table, f"{table}\\_hnsw\\_%", keep),
    ).fetchall()
    for (name,) in rows:
        conn.execute(sql.SQL("DROP INDEX IF EXISTS {}").format(sql.Identifier(name)))


def nearest_sql(model: str, dim: int, where: str, exact: bool) -> Any:
    """The nearest-chunks statement (parameters: the query vector, `where`'s, the limit).

    Index path: the distance is the index's own expression (the cast to `vector(dim)`)
    and the ORDER BY is that distance alone, since any second sort key makes the planner
    sort every row instead of reading the HNSW index in order. Exact path: the bare
    column, ties broken by rowid."""
    from psycopg import sql

    if exact:
        distance, order = "e.vec <=> %s::vector", "d, c.rowid"
    else:
        distance = f"(e.vec::vector({int(dim)})) <=> %s::vector({int(dim)})"
        order = "d"
    return sql.SQL(
        "SELECT c.id, " + distance + " AS d FROM embeddings e "
        "JOIN chunks c ON c.embed_hash = e.text_hash "
        # a lookup-only chunk's text may have a cached vector: it still has none here
        "WHERE e.model = {model} AND c.lookup_only = 0 AND "
        + where
        + " ORDER BY "
        + order
        + " LIMIT %s"
    ).format(model=sql.Literal(model))


def _index_settings(conn: Any) -> None:
    """For this transaction's HNSW reads: iterative scans (a filter that rejects most of
    the index's candidates makes pgvector read on, not return fewer than asked) and
    EF_SEARCH candidates."""
    from psycopg import sql

    conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
    conn.execute(sql.SQL("SET LOCAL hnsw.ef_search = {}").format(sql.Literal(EF_SEARCH)))


def nearest_chunks(
    conn: Any,
    model: str,
    dim: int,
    query: Vectors,
    where: str,
    params: list[object],
    limit: int,
    exact: bool,
) -> list[tuple[str, float]]:
    """(chunk id, cosine) of the chunks nearest `query` among those `where` admits."""
    statement = nearest_sql(model, dim, where, exact)
    with conn.transaction():
        if not exact:
            _index_settings(conn)
        rows = conn.execute(statement, [vector_text(query), *params, limit]).fetchall()
    # relaxed order: the index may return near-ties out of order; sort them here
    found = [(str(r[0]), 1.0 - float(r[1])) for r in rows if r[1] == r[1]]  # no NaN
    return sorted(found, key=lambda x: -x[1])


def nearest_windows_sql(model: str, dim: int, where: str, exact: bool) -> Any:
    """The nearest-windows statement (parameters: the query vector, `where`'s, the number
    of windows to read, the query vector again, the limit): each chunk scored by its best
    window, with its own cosine beside it.

    Exact: every window row of the chunks `where` admits. Index path: the windows nearest
    the query through the model's HNSW index (window vectors live in `embeddings` with
    the chunks' own, under the same index), read in distance order as `nearest_sql`
    reads chunks; a chunk has at most MAX_WINDOWS windows, so reading that many times the
    limit leaves at least `limit` chunks after grouping."""
    from psycopg import sql

    if exact:
        distance = "e.vec <=> %s::vector"
    else:
        distance = f"(e.vec::vector({int(dim)})) <=> %s::vector({int(dim)})"
    return sql.SQL(
        "WITH near AS (SELECT w.chunk, " + distance + " AS d FROM embeddings e "
        "JOIN chunk_windows w ON w.embed_hash = e.text_hash "
        "JOIN chunks c ON c.rowid = w.chunk "
        "WHERE e.model = {model} AND " + where + " ORDER BY d LIMIT %s) "
        "SELECT c.id, MIN(near.d) AS d, MIN(c_e.vec <=> %s::vector) AS own FROM near "
        "JOIN chunks c ON c.rowid = near.chunk "
        "LEFT JOIN embeddings c_e ON c_e.model = {model} AND c_e.text_hash = c.embed_hash "
        "GROUP BY c.id, c.rowid ORDER BY d, c.rowid LIMIT %s"
    ).format(model=sql.Literal(model))


def nearest_windows(
    conn: Any,
    model: str,
    dim: int,
    query: Vectors,
    where: str,
    params: list[object],
    limit: int,
    exact: bool,
) -> list[tuple[str, float, float]]:
    """(chunk id, own cosine, best window cosine) of the chunks whose best window is
    nearest `query` among those `where` admits (see `Store.dense_windows`)."""
    q = vector_text(query)
    statement = nearest_windows_sql(model, dim, where, exact)
    # exact: every admitted window is read anyway (no cut before grouping)
    windows = limit * MAX_WINDOWS if not exact else 2**62
    with conn.transaction():
        if not exact:
            _index_settings(conn)
        rows = conn.execute(statement, [q, *params, windows, q, limit]).fetchall()
    out = []
    for cid, d, own in rows:
        if d != d:  # NaN: a zero vector
            continue
        best = 1.0 - float(d)
        out.append((str(cid), best if own is None or own != own else 1.0 - float(own), best))
    # relaxed order: near-ties may come back out of order; sort them here
    return sorted(out, key=lambda x: -x[2])


def nearest_records(
    conn: Any,
    space: str,
    model: str,
    query: Vectors,
    where: str,
    params: list[object],
    limit: int,
) -> list[tuple[str, float]]:
    """(record id, cosine), exact: memory holds thousands of records, not millions."""
    rows = conn.execute(
        "SELECT r.id, v.vec <=> %s AS d FROM record_vectors v "
        "JOIN records r ON r.rowid = v.record "
        "WHERE v.space = %s AND v.model = %s AND " + where + " ORDER BY d, r.rowid LIMIT %s",
        [vector_text(query), space, model, *params, limit],
    ).fetchall()
    return [(str(r[0]), 1.0 - float(r[1])) for r in rows if r[1] == r[1]]
