"""The text index on PostgreSQL: `tsvector` columns built from the same text SQLite's
FTS5 indexes, tokenised the same way, and a BM25-like ranking.

FTS5 (unicode61, `_` a token character) splits on everything but letters, digits and
`_`; PostgreSQL's parser would read `pkg.proc.Frame` as a host name and `a/b.py` as a
file path. So ctxhub splits the text itself (`fts_text`): words of letters, digits and
`_`, with the `_` dropped so `push_frame` stays one token (its parts are indexed apart
in the identifier column, as in SQLite). Stems: Snowball English, no stop words.

Ranking: FTS5's BM25 weighs a rare word above a common one; `ts_rank` alone does not.
Each term's rank is multiplied by its BM25 IDF (from the document frequencies the
retriever asks for anyway), and the column weights are SQLite's, scaled to 1.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from ctxhub.store.postgres.schema import FTS_CONFIG

_WORD = re.compile(r"\w+")

#: ts_rank weights {D, C, B, A}: content (D) 1.0, identifier parts (B) 1.5, names (A)
#: 4.0 as in SQLite's BM25_WEIGHTS, divided by 4 (ts_rank takes weights up to 1).
CHUNK_RANK_WEIGHTS = "{0.25, 0.0, 0.375, 1.0}"


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


def rank_sum(column: str, idfs: Sequence[float], weights: str) -> str:
    """Σ idf(t) * ts_rank(column, t) over the query's terms (length-normalised)."""
    parts = [f"{w!r} * ts_rank('{weights}', {column}, q.q{i}, 1)" for i, w in enumerate(idfs)]
    return "(" + " + ".join(parts) + ")" if parts else "0"
