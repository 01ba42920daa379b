"""Does memory hold an answer at all? Evidence, in cosine units, that a record answers the
query, and the floor below which search_solutions says nothing relevant was found.

Features of a candidate: the best cosine (query to the main space, the pasted code to the
code space), whether query and record share an exact error code, whether the query names
a code while the record names only others (a sibling error, not this one), whether the
retrieval paths agree (the record is the fused winner and BM25's first hit too), and, for
a pasted error (query shape error or mixed), an offset for that shape and how much of the
message's wording the record holds. A paraphrase may share no word with its answer; a
pasted message and the record of that same error share its rare words, while a sibling
error of the same tool shares the common ones (docker, port, failed) and lacks the rest.
Evidence is `cosine + sum(WEIGHTS[f] * f)`, taken from the candidate with the highest
cosine among the top five. The weights and the floor were fitted (logistic
regression, then the middle of the best balanced-accuracy range) by
`python benchmarks/memory.py --calibrate` on the calibration queries of
benchmarks/memory_set only; the feature set was chosen by cross-validation on those same
calibration queries. The test queries stay held out.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Protocol

import numpy as np

from ctxhub.core.records import Record, TermStats
from ctxhub.embed.base import Vectors
from ctxhub.memory.search.shape import MemoryQuery, error_codes, specific
from ctxhub.search.analyzer import STOPWORDS

#: weight of each feature next to the cosine (whose weight is 1: evidence is in cosine units)
WEIGHTS = {
    "code_match": 0.36,
    "code_mismatch": -0.42,
    "paths_agree": 0.24,
    "pasted_error": -0.53,
    "error_words_covered": 0.38,
}
#: Query shapes whose text is a pasted message rather than a description.
PASTED = frozenset({"error", "mixed"})
EVIDENCE_FLOOR = 0.45
#: Path agreement counts only for a candidate at least this close in meaning.
AGREE_MIN_COSINE = 0.35
#: How sharply confidence rises around the floor (0.5 at the floor).
CONFIDENCE_SLOPE = 12.0
DEPTH = 5  # candidates whose evidence is looked at


class HasFeatures(Protocol):
    features: dict[str, float]


def _cos(a: Vectors | None, b: Vectors | None) -> float:
    if a is None or b is None:
        return 0.0
    return float(np.dot(a, b))


def word_coverage(terms: Sequence[str], stats: TermStats, record_id: str) -> float:
    """IDF-weighted share of the query's terms that the record holds, in [0, 1]. A term
    no record holds weighs most: a message memory has never seen is not in memory."""
    held = stats.present.get(record_id, set())
    total = covered = 0.0
    for term in terms:
        if term not in stats.doc_freq:
            continue
        idf = math.log((stats.records + 1) / (stats.doc_freq[term] + 0.5))
        total += idf
        covered += idf if term in held else 0.0
    return covered / total if total > 0 else 0.0


#: Terms as the store's FTS5 tokenizer (unicode61, `_` a token character) cuts them: a
#: CamelCase or dotted name is one token there (`DisallowedHost`, `sqlalchemy`, `exc`), so
#: the analyser's identifier parts (`Disallowed`, `Host`) would match nothing.
_FTS_TOKEN = re.compile(r"\w+")
MAX_COVERAGE_TERMS = 40  # two small FTS queries each


def coverage_terms(q: MemoryQuery) -> list[str]:
    """The words word coverage counts: the query's and its pasted code's FTS tokens,
    case-folded, stopwords and one-character ones left out."""
    seen: dict[str, None] = {}
    for token in _FTS_TOKEN.findall(f"{q.text} {q.code_context or ''}"):
        word = token.lower()
        if len(word) > 1 and word not in STOPWORDS:
            seen.setdefault(word, None)
    return list(seen)[:MAX_COVERAGE_TERMS]


def features(
    record: Record,
    stored: dict[str, Vectors],
    q: MemoryQuery,
    vectors: dict[str, Vectors],
    main_space: str,
    paths_agree: bool,
    coverage: float = 0.0,
) -> dict[str, float]:
    """`coverage`: `word_coverage` of the query in this record (used for pasted errors)."""
    cosine = _cos(vectors.get("query"), stored.get(main_space))
    if q.code_context:
        cosine = max(cosine, _cos(vectors.get("context"), stored.get("code")))
    pasted = q.shape in PASTED
    match = mismatch = 0.0
    if q.codes:
        text = " ".join(p or "" for p in (record.error_type, record.problem, record.stack_trace))
        theirs = error_codes(text)
        # a shared specific code (ERR_REQUIRE_ESM, E0463) is strong; sharing TypeError is
        # not. Naming only other codes, generic or not, is evidence of a sibling problem.
        match = float(bool(specific(q.codes) & specific(theirs)))
        mismatch = float(bool(theirs) and not q.codes & theirs)
    return {
        "cosine": round(cosine, 4),
        "code_match": match,
        "code_mismatch": mismatch,
        # BM25 is an OR of the query's words: in a small store any shared word makes a
        # record its first hit, so agreement only counts when the meaning is close too
        "paths_agree": float(paths_agree and cosine >= AGREE_MIN_COSINE),
        "pasted_error": float(pasted),
        "error_words_covered": round(coverage, 4) if pasted else 0.0,
    }


def evidence(f: dict[str, float], weights: dict[str, float] | None = None) -> float:
    """`f`'s evidence under `weights` (the shipped WEIGHTS unless the benchmark's fit is
    being tried); no features, no evidence."""
    chosen = WEIGHTS if weights is None else weights
    return f.get("cosine", 0.0) + sum(w * f.get(name, 0.0) for name, w in chosen.items())


def carrier(ranked: Sequence[HasFeatures]) -> HasFeatures | None:
    """The top-five candidate closest to the query: whose evidence decides."""
    top = [c for c in ranked[:DEPTH] if c.features]
    return max(top, key=lambda c: c.features["cosine"]) if top else None


def best_evidence(ranked: Sequence[HasFeatures]) -> float:
    chosen = carrier(ranked)
    return evidence(chosen.features) if chosen is not None else 0.0


def confidence_of(value: float) -> float:
    return float(1 / (1 + np.exp(-CONFIDENCE_SLOPE * (value - EVIDENCE_FLOOR))))
