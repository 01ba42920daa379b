"""Document frequencies of query terms, as the FTS index itself tokenises them.

A long agent question ORs twenty words; the common ones ("frame", "service") match most
of the index, cost most of the BM25 time, and add almost nothing to the ranking (BM25's
IDF of a word in half the documents is ~0). Knowing each term's document frequency lets
the retriever drop them. The query words are stemmed by FTS5 itself (a temporary FTS
table with the same tokenizer), so the counts are exact for what MATCH will see.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from ctxhub.store.sqlite.schema import FTS_TOKENIZER


def match_any(terms: Sequence[str], max_terms: int = 64) -> str | None:
    """An FTS5 MATCH for "any of these": each term quoted as a phrase (so operators,
    column names and stray quotes in it are plain words), OR-joined; None if empty."""
    quoted = []
    for term in terms[:max_terms]:
        words = term.replace('"', "")
        if words.strip():
            quoted.append(f'"{words}"')
    return " OR ".join(quoted) if quoted else None


def _ensure_temp_tables(conn: sqlite3.Connection) -> None:
    conn.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_terms "
        f"USING fts5(t, tokenize={FTS_TOKENIZER})"
    )
    conn.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_vocab "
        "USING fts5vocab(temp, query_terms, instance)"
    )


def document_frequencies(conn: sqlite3.Connection, terms: Sequence[str]) -> dict[str, int]:
    """{term: number of chunks containing it}; a term the tokenizer splits into several
    tokens gets the frequency of its rarest token (what a quoted phrase can match at most)."""
    if not terms:
        return {}
    _ensure_temp_tables(conn)
    conn.execute("DELETE FROM temp.query_terms")
    conn.executemany(
        "INSERT INTO temp.query_terms(rowid, t) VALUES (?, ?)",
        [(i + 1, t) for i, t in enumerate(terms)],
    )
    tokens = conn.execute("SELECT doc, term FROM temp.query_vocab").fetchall()
    conn.execute("DELETE FROM temp.query_terms")
    stems = sorted({str(t) for _, t in tokens})
    freq: dict[str, int] = {}
    if stems:
        marks = ", ".join("?" for _ in stems)
        freq = {
            str(r[0]): int(r[1])
            for r in conn.execute(
                f"SELECT term, doc FROM main.chunks_vocab WHERE term IN ({marks})", stems
            )
        }
    out: dict[str, int] = {}
    for doc, token in tokens:
        term = terms[int(doc) - 1]
        n = freq.get(str(token), 0)
        out[term] = min(out.get(term, n), n)
    for term in terms:
        out.setdefault(term, 0)
    return out
