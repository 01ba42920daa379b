"""The text index on PostgreSQL: `tsvector` columns built from the same text SQLite's
FTS5 indexes, tokenised the same way, and a BM25-like ranking.

FTS5 (unicode61, `_` a token character) splits on everything but letters, digits and
`_`; PostgreSQL's parser would read `pkg.proc.Frame` as a host name and `a/b.py` as a
file path. So ctxhub splits the text itself (`fts_text`): words of letters, digits and
`_`, with the `_` dropped so `push_frame` stays one token (its parts are indexed apart
in the identifier column, as in SQLite). Stems: Snowball English, no stop words.

Ranking: FTS5's own BM25 (`bm25_sql`), computed in SQL from what a tsvector keeps: each
lexeme's positions (its term frequency) and their weights (the column it came from),
and a stored token count per row (`dl`, a generated column) for the length
normalisation. Same k1, b, IDF and column weights as SQLite, so both backends rank alike;
where they differ: Snowball stems instead of Porter's, and an exact phrase's frequency
is that of its rarest word (an upper bound of FTS5's phrase count).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from ctxhub.store.postgres.schema import FTS_CONFIG

_WORD = re.compile(r"\w+")

#: FTS5's BM25 constants.
K1, B = 1.2, 0.75


def fts_text(text: str) -> str:
    """`text` as the words the index keeps, space-separated (see the module)."""
    words = (w.replace("_", "") for w in _WORD.findall(text))
    return " ".join(w for w in words if w)


def phrases(terms: Sequence[str], max_terms: int = 64) -> list[str]:
    """The terms as index words (each one word or an exact phrase), empty ones and
    repeats left out, at most `max_terms` (as `match_any` takes them)."""
    out: dict[str, None] = {}
    for term in terms[:max_terms]:
        words = fts_text(term)
        if words:
            out.setdefault(words, None)
    return list(out)


def tsvector_sql(weight: str) -> str:
    """A weighted tsvector from one (already `fts_text`-ed) parameter."""
    return f"setweight(to_tsvector('{FTS_CONFIG}', %s), '{weight}')"


def query_cte(n: int) -> str:
    """`q(q0, q1, ...)`: one phrase tsquery per parameter."""
    columns = ", ".join(f"phraseto_tsquery('{FTS_CONFIG}', %s) AS q{i}" for i in range(n))
    return f"q AS (SELECT {columns})"


def any_of(n: int) -> str:
    """The tsquery matching any of q0..q(n-1)."""
    return "(" + " || ".join(f"q.q{i}" for i in range(n)) + ")"


def idf(df: int, total: int) -> float:
    """BM25's IDF as FTS5 computes it (never below a small positive floor)."""
    return max(1e-6, math.log((total - df + 0.5) / (df + 0.5)))


def bm25_sql(
    table: str,
    alias: str,
    fields: Sequence[tuple[str, float]],
    match: Sequence[str],
    where: str,
    n: int,
) -> str:
    """The BM25 statement over `table` `alias` (a table with `rowid`, `id` and `dl`).

    `fields`: (tsvector expression, column weight) whose term frequencies count;
    `match`: the tsvector expressions a term must match in; `n` terms. Parameters, in
    order: the n index words twice (queries, then lexemes), `where`'s, the IDF of each
    term (a list), the average row length, the limit."""
    matches = ["(" + " OR ".join(f"{column} @@ q.q{i}" for column in match) + ")" for i in range(n)]
    columns = ", ".join(f"{expr} AS f{k}" for k, (expr, _) in enumerate(fields))
    values = ", ".join(f"(m.f{k}, {float(w)!r}::float8)" for k, (_, w) in enumerate(fields))
    return f"""WITH {query_cte(n)},
    terms AS (
        SELECT w.i, lex.lexeme FROM unnest(ARRAY[{", ".join("%s" for _ in range(n))}]::text[])
            WITH ORDINALITY AS w(words, i),
        unnest(tsvector_to_array(to_tsvector('{FTS_CONFIG}', w.words))) AS lex(lexeme)),
    m AS (
        SELECT {alias}.rowid, {alias}.id, {alias}.dl, ARRAY[{", ".join(matches)}] AS hit,
            {columns}
        FROM {table} {alias}, q WHERE ({" OR ".join(matches)}) AND {where}),
    tf AS (
        SELECT m.rowid, u.lexeme, SUM(f.w * array_length(u.positions, 1)) AS f
        FROM m CROSS JOIN LATERAL (VALUES {values}) AS f(v, w)
        CROSS JOIN LATERAL unnest(f.v) AS u
        WHERE u.lexeme IN (SELECT lexeme FROM terms)
        GROUP BY m.rowid, u.lexeme),
    per AS (
        SELECT m.rowid, t.i,
            CASE WHEN m.hit[t.i] THEN MIN(COALESCE(tf.f, 0)) ELSE 0 END AS f
        FROM m CROSS JOIN terms t
        LEFT JOIN tf ON tf.rowid = m.rowid AND tf.lexeme = t.lexeme
        GROUP BY m.rowid, t.i, m.hit),
    p AS (SELECT %s::float8[] AS idf, GREATEST(%s::float8, 1e-9) AS avgdl)
    SELECT m.id, SUM(p.idf[per.i] * per.f * {K1 + 1!r}
        / (per.f + {K1!r} * (1 - {B!r} + {B!r} * m.dl / p.avgdl))) AS s
    FROM m JOIN per ON per.rowid = m.rowid CROSS JOIN p
    GROUP BY m.rowid, m.id ORDER BY s DESC, m.rowid LIMIT %s"""
