"""The text index on PostgreSQL: `tsvector` columns built from the same text SQLite's
FTS5 indexes, tokenised the same way, and a BM25-like ranking.

FTS5 (unicode61, `_` a token character) splits on everything but letters, digits and
`_`; PostgreSQL's parser would read `pkg.proc.Frame` as a host name and `a/b.py` as a
file path. So ctxhub splits the text itself (`fts_text`): words of letters, digits and
`_`, with the `_` dropped so `push_frame` stays one token (its parts are indexed apart
in the identifier column, as in SQLite). Stems: Snowball English, no stop words.

Ranking: FTS5's own BM25, computed in SQL from what a tsvector keeps: each lexeme's
positions (its term frequency) and their weights (the column it came from), and a stored
token count per row (`dl`, a generated column) for the length normalisation. Chunks are
ranked from postings (`postings_bm25_sql`: a table of (lexeme, chunk, column-weighted
term frequency, dl) that triggers keep, schema migration 5), memory records from
`record_postings` (record_fts.py, schema 6); `bm25_sql`, the statement over the
tsvectors, is the reference both are tested against. Same k1, b, IDF and column weights
as SQLite, so both backends rank alike; where they differ: Snowball stems instead of
Porter's, and an exact phrase's frequency is that of its rarest word (an upper bound of
FTS5's phrase count).
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
    columns: Sequence[str],
    fields: Sequence[tuple[str, float]],
    where: str,
    n: int,
) -> str:
    """The BM25 statement over `table` `alias` (a table with `rowid`, `id` and `dl`).

    `columns`: the tsvector columns a term must match in; `fields`: (expression over
    `v.<column>`, column weight) whose term frequencies count; `n` terms. Parameters, in
    order: the n index words twice (queries, then lexemes), the IDF of each term (a
    list), the average row length, `where`'s, the limit.

    Speed: a tsvector is stored out of line (TOAST), and every reference to the column
    reads it again; so each matching row's columns are read once, cut down to the query's
    lexemes (positions and weights kept, so phrases still match), and every row is scored
    on its own from those few lexemes instead of joining all rows with all terms."""
    any_query = any_of(n)
    found = " OR ".join(f"{alias}.{c} @@ {any_query}" for c in columns)
    read = ", ".join(f"{alias}.{c} || ''::tsvector AS {c}" for c in columns)
    cut = ", ".join(
        f"ts_delete(raw.{c}, tsvector_to_array(ts_delete(raw.{c}, wanted.lexemes))) AS {c}"
        for c in columns
    )
    hits = ", ".join("(" + " OR ".join(f"v.{c} @@ q.q{i}" for c in columns) + ")" for i in range(n))
    values = ", ".join(f"({expr}, {float(w)!r}::float8)" for expr, w in fields)
    return f"""WITH {query_cte(n)},
    terms AS (
        SELECT w.i, lex.lexeme FROM unnest(ARRAY[{", ".join("%s" for _ in range(n))}]::text[])
            WITH ORDINALITY AS w(words, i),
        unnest(tsvector_to_array(to_tsvector('{FTS_CONFIG}', w.words))) AS lex(lexeme)),
    wanted AS (SELECT array_agg(DISTINCT lexeme) AS lexemes FROM terms),
    p AS (SELECT %s::float8[] AS idf, GREATEST(%s::float8, 1e-9) AS avgdl)
    SELECT {alias}.id, s.s
    FROM {table} {alias} CROSS JOIN q CROSS JOIN wanted CROSS JOIN p
    CROSS JOIN LATERAL (SELECT {read} OFFSET 0) AS raw
    CROSS JOIN LATERAL (SELECT {cut} OFFSET 0) AS v
    CROSS JOIN LATERAL (SELECT ARRAY[{hits}] AS hit OFFSET 0) AS h
    CROSS JOIN LATERAL (
        SELECT SUM(p.idf[per.i] * per.f * {K1 + 1!r}
            / (per.f + {K1!r} * (1 - {B!r} + {B!r} * {alias}.dl / p.avgdl))) AS s
        FROM (
            SELECT t.i, CASE WHEN h.hit[t.i] THEN MIN(COALESCE(tf.f, 0)) ELSE 0 END AS f
            FROM terms t LEFT JOIN (
                SELECT u.lexeme, SUM(f.w * array_length(u.positions, 1)) AS f
                FROM (VALUES {values}) AS f(v, w) CROSS JOIN LATERAL unnest(f.v) AS u
                GROUP BY u.lexeme) AS tf ON tf.lexeme = t.lexeme
            GROUP BY t.i) AS per) AS s
    WHERE ({found}) AND {where}
    ORDER BY s.s DESC, {alias}.rowid LIMIT %s"""


def postings_query_ctes(n: int) -> str:
    """The CTEs a postings statement starts with, for `n` terms: `q` (each term's phrase
    query), `terms` (term number, its words, each of its lexemes), `sizes` (a term's
    lexeme count, and whether it is a phrase) and `p` (the IDFs and average length).
    Parameters: the n index words twice, the IDF list, the average row length."""
    queries = ", ".join(f"phraseto_tsquery('{FTS_CONFIG}', %s)" for _ in range(n))
    return f"""q AS (SELECT ARRAY[{queries}] AS qs),
    terms AS (
        SELECT w.i::int AS i, w.words, lex.lexeme
        FROM unnest(ARRAY[{", ".join("%s" for _ in range(n))}]::text[])
            WITH ORDINALITY AS w(words, i),
        unnest(tsvector_to_array(to_tsvector('{FTS_CONFIG}', w.words))) AS lex(lexeme)),
    sizes AS (
        SELECT i, count(*) AS n, bool_or(strpos(words, ' ') > 0) OR count(*) > 1 AS phrase
        FROM terms GROUP BY i),
    p AS (SELECT %s::float8[] AS idf, GREATEST(%s::float8, 1e-9) AS avgdl)"""


#: BM25 summed per row over `r` (term `i`, frequency `f`, row length `dl`) with `p`'s
#: IDFs, in term order (in hash order, copies of one text differed in the last bit)
POSTINGS_SCORE = (
    f"SUM(p.idf[r.i] * r.f * {K1 + 1!r} / (r.f + {K1!r} * (1 - {B!r} + {B!r} * r.dl"
    " / p.avgdl)) ORDER BY r.i)"
)


def postings_bm25_sql(where: str, n: int) -> str:
    """BM25 over `chunks c` from `chunk_postings`: the same scores as `bm25_sql` with
    the chunk fields, reading only the postings of the query's lexemes (as FTS5 reads
    its doclists), so the cost follows the lexemes' postings, not the rows' tsvectors.

    A term's frequency in a row is the smallest of its lexemes' (as in `bm25_sql`); a row
    has a term when it has all of the term's lexemes, and, for a phrase, when its
    tsvector matches the phrase (read for those candidate rows only). Parameters as
    `bm25_sql`'s. Unfiltered (`where` TRUE), the best rows are cut before any chunk row
    is read. A one-word term's postings are its frequencies as they stand; only phrases
    (and words of several lexemes) are grouped per row first (half the time at 200k).
    Terms are summed in one order (`ORDER BY r.i`): in hash order, copies of one text
    differed in the last bit and equal scores lost their row order."""
    ranked = f"""WITH {postings_query_ctes(n)},
    per AS (
        SELECT t.i, x.chunk, MIN(x.tf) AS f, MIN(x.dl) AS dl, count(*) AS n
        FROM terms t JOIN sizes ON sizes.i = t.i AND sizes.phrase
        JOIN chunk_postings x ON x.lexeme = t.lexeme GROUP BY t.i, x.chunk),
    r AS (
        SELECT t.i, x.chunk, x.tf AS f, x.dl
        FROM terms t JOIN sizes ON sizes.i = t.i AND NOT sizes.phrase
        JOIN chunk_postings x ON x.lexeme = t.lexeme
        UNION ALL
        SELECT per.i, per.chunk, per.f, per.dl FROM per JOIN sizes ON sizes.i = per.i
        WHERE per.n = sizes.n AND EXISTS (
            SELECT 1 FROM chunks t, q WHERE t.rowid = per.chunk AND t.tsv @@ q.qs[per.i]))"""
    return postings_tail(ranked, "chunks", "c", "chunk", where)


def postings_tail(ctes: str, table: str, alias: str, key: str, where: str) -> str:
    """The end of a postings statement over `table` `alias` (chunks or records): `ctes`
    (CTEs ending in `r`: term `i`, row `key`, frequency `f`, row length `dl`) summed into
    a score per row, and the best rows' ids and scores, `where` (over `alias`) applied.
    Parameter: the limit. Unfiltered (`where` TRUE), the best rows are cut before a
    `table` row is read."""
    scored = f"""{ctes},
    s AS (SELECT r.{key}, {POSTINGS_SCORE} AS s FROM r, p GROUP BY r.{key})"""
    if where == "TRUE":
        return f"""{scored},
    top AS (SELECT s.{key}, s.s FROM s ORDER BY s.s DESC, s.{key} LIMIT %s)
    SELECT {alias}.id, top.s FROM top JOIN {table} {alias} ON {alias}.rowid = top.{key}
    ORDER BY top.s DESC, top.{key}"""
    return f"""{scored}
    SELECT {alias}.id, s.s FROM s JOIN {table} {alias} ON {alias}.rowid = s.{key}
    WHERE {where} ORDER BY s.s DESC, {alias}.rowid LIMIT %s"""


#: Chunks holding each of the index words in the parameter (a text array), in order:
#: a one-lexeme word counts its postings (an index-only count), a phrase its matches.
CHUNK_FREQUENCIES_SQL = f"""
    SELECT CASE WHEN strpos(w.words, ' ') = 0 AND cardinality(w.lexemes) = 1
        THEN (SELECT count(*) FROM chunk_postings p WHERE p.lexeme = w.lexemes[1])
        ELSE (SELECT count(*) FROM chunks c
              WHERE c.tsv @@ phraseto_tsquery('{FTS_CONFIG}', w.words)) END
    FROM (SELECT u.words, u.i, tsvector_to_array(to_tsvector('{FTS_CONFIG}', u.words))
          AS lexemes FROM unnest(%s::text[]) WITH ORDINALITY AS u(words, i)) AS w
    ORDER BY w.i"""
