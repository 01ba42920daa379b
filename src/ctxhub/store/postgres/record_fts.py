"""BM25 over memory records from `record_postings` (schema 6), as `fts.postings_bm25_sql`
does for chunks: a search reads the postings of its few lexemes instead of every
matching record's five tsvectors (1.1 s -> milliseconds at 20,000 records,
docs/BENCHMARKS.md).

A record has five text fields, each its own tsvector; a posting is (lexeme, field,
record, frequency, record length). A search may restrict the fields (as an FTS5 column
filter does), so the field weights (`RECORD_BM25_WEIGHTS`) are applied here, over the
chosen fields only. Same scores as `fts.bm25_sql` over the tsvectors: a term's frequency
in a record is the smallest of its lexemes' weighted frequencies, and a phrase counts
only where one chosen field matches it (checked on the records that hold all of its
lexemes)."""

from __future__ import annotations

from collections.abc import Sequence

from ctxhub.store.postgres.fts import postings_query_ctes, postings_tail
from ctxhub.store.postgres.schema import FTS_CONFIG, RECORD_TEXT_FIELDS


def field_ids(fields: Sequence[str]) -> list[int]:
    """The postings' `field` values of `fields`."""
    return [RECORD_TEXT_FIELDS.index(f) for f in fields]


def phrase_matches(fields: Sequence[str], record: str, query: str) -> str:
    """`record` (an alias of `records`) matches tsquery `query` in one of `fields`."""
    return "(" + " OR ".join(f"{record}.tsv_{f} @@ {query}" for f in fields) + ")"


def record_bm25_sql(fields: Sequence[str], weights: Sequence[float], where: str, n: int) -> str:
    """The ranking statement over `records r` for `n` terms in `fields` (with their
    BM25 weights). Parameters, in order: the n index words twice (phrase queries, then
    lexemes), the IDF of each term (a list), the average record length, `where`'s (over
    `r`), the limit. Unfiltered (`where` TRUE), the best records are cut before a
    record row is read."""
    chosen = ", ".join(
        f"({i}::smallint, {float(w)!r}::float8)"
        for i, w in zip(field_ids(fields), weights, strict=True)
    )
    ranked = f"""WITH {postings_query_ctes(n)},
    fw AS (SELECT * FROM (VALUES {chosen}) AS fw(field, w)),
    lex AS (
        SELECT t.i, t.lexeme, x.record, SUM(fw.w * x.tf) AS f, MIN(x.dl) AS dl
        FROM terms t JOIN record_postings x ON x.lexeme = t.lexeme
        JOIN fw ON fw.field = x.field GROUP BY t.i, t.lexeme, x.record),
    per AS (
        SELECT lex.i, lex.record, MIN(lex.f) AS f, MIN(lex.dl) AS dl, count(*) AS n
        FROM lex GROUP BY lex.i, lex.record),
    r AS (
        SELECT per.i, per.record, per.f, per.dl FROM per JOIN sizes ON sizes.i = per.i
        WHERE per.n = sizes.n AND (NOT sizes.phrase OR EXISTS (
            SELECT 1 FROM records t, q WHERE t.rowid = per.record
            AND {phrase_matches(fields, "t", "q.qs[per.i]")})))"""
    return postings_tail(ranked, "records", "r", "record", where)


def record_frequencies_sql(fields: Sequence[str]) -> str:
    """How many records hold each index word of the parameter (a text array) in one of
    `fields`, in order; then the second parameter: the fields' ids (a smallint array).
    A one-lexeme word counts its postings; a phrase is checked on the records holding its
    first lexeme."""
    match = phrase_matches(fields, "r", f"phraseto_tsquery('{FTS_CONFIG}', w.words)")
    return f"""
    SELECT CASE WHEN strpos(w.words, ' ') = 0 AND cardinality(w.lexemes) = 1
        THEN (SELECT count(DISTINCT x.record) FROM record_postings x
              WHERE x.lexeme = w.lexemes[1] AND x.field = ANY(f.ids))
        ELSE (SELECT count(*) FROM records r WHERE r.rowid IN (
                SELECT x.record FROM record_postings x
                WHERE x.lexeme = w.lexemes[1] AND x.field = ANY(f.ids))
              AND {match}) END
    FROM (SELECT u.words, u.i, tsvector_to_array(to_tsvector('{FTS_CONFIG}', u.words))
          AS lexemes FROM unnest(%s::text[]) WITH ORDINALITY AS u(words, i)) AS w,
        (SELECT %s::smallint[] AS ids) AS f
    ORDER BY w.i"""
