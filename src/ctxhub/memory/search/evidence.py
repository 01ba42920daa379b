"""Does this record answer this question? A probability per candidate, on one 0-1 scale,
and the abstention decision that follows from it.

Few features, each one a reason a reader would accept:

- `cosine`: how close the question is in meaning to the record's problem (or the pasted
  code to the record's code);
- `lift`: that cosine minus what the same question scores against the rest of this store
  (the mean of its 4th-13th nearest problems). A store of Docker records is close to any
  Docker question; the answer stands out from that background, a near miss does not;
- `coverage`: the IDF-weighted share of the question's words the record holds (rare words
  weigh most, a word no record holds weighs most of all: a message memory has never seen
  is not in memory);
- `signature`: the record holds the question's exact error signature (`signature.py`);
- `signature_missing`: the question quotes an error signature and the record does not
  hold it (a sibling error quoted exactly is the commonest no-answer question);
- `message_missing`: the share of the quoted message's words (literals masked, stopwords
  out) the record does not hold in its problem, error type or stack trace; 0 when the
  question quotes no message. The signature says yes or no at 80% and only for the same
  kind; this says how far a sibling error is from the one asked about;
- `code_match` / `code_mismatch`: they share a specific error code (`E0502`,
  `ERR_REQUIRE_ESM`), or the question names codes the record does not while the record
  names others (a sibling error);
- `first`: the candidate is the ranker's first (paths agreeing is evidence too);
- `pasted`: the question is a pasted error (shape error or mixed): the base rate differs.

`probability = sigmoid(BIAS + sum(WEIGHTS[f] * f))`, fitted per candidate (label: the
record is one the question's gold names) by `python benchmarks/memory.py --fit` on one
labelled set and checked on the other (docs/MEMORY.md gives both directions). The search
abstains when no top candidate reaches THRESHOLD, and never when a candidate shares the
question's exact error signature: conservative by construction. THRESHOLD is the lowest
that abstains on 75% of the fitting set's no-answer questions, capped where it would hide
5% of its answers: no more abstention than the target asks for.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Protocol

import numpy as np

from ctxhub.core.records import Record, TermStats
from ctxhub.embed.base import Vectors
from ctxhub.memory.search import signature as sig
from ctxhub.memory.search.shape import MemoryQuery, error_codes, specific
from ctxhub.search.analyzer import STOPWORDS

#: The model's features. `code_match` is computed and shown too, but left out of the
#: model: the signature says the same, more exactly.
FEATURES = (
    "cosine",
    "lift",
    "coverage",
    "signature",
    "signature_missing",
    "message_missing",
    "code_mismatch",
    "first",
    "pasted",
)
#: Query shapes whose text is a pasted message rather than a description.
PASTED = frozenset({"error", "mixed"})
#: Fitted on the 140 calibration queries of benchmarks/memory_set only, by
#: `python benchmarks/memory.py --fit memory_set`: its test queries and all of
#: benchmarks/memory_set2 stay held out (docs/MEMORY.md has the figures both ways).
WEIGHTS: dict[str, float] = {
    "cosine": 2.558,
    "lift": 4.61,
    "coverage": 2.234,
    "signature": 2.778,
    "signature_missing": -1.38,
    "message_missing": -1.566,
    "code_mismatch": -1.092,
    "first": 2.603,
    "pasted": -0.695,
}
BIAS = -5.375
#: Abstain when no top candidate is at least this likely to answer: the lowest threshold
#: that abstains on 75% of the fitting set's no-answer queries, within at most 5% of its
#: answerable ones (`memory_runner.fit_threshold`).
THRESHOLD = 0.175
DEPTH = 5  # candidates whose evidence is computed
BACKGROUND = (3, 13)  # dense ranks (0-based, end excluded) that stand for "the rest"


class HasFeatures(Protocol):
    features: dict[str, float]


def _cos(a: Vectors | None, b: Vectors | None) -> float:
    if a is None or b is None:
        return 0.0
    return float(np.dot(a, b))


def background(dense_scores: Sequence[float]) -> float:
    """What this question scores against the store's records that are not its nearest:
    the mean cosine at ranks 4-13 (fewer in a small store; 0 when there are none)."""
    rest = sorted(dense_scores, reverse=True)[BACKGROUND[0] : BACKGROUND[1]]
    return float(np.mean(rest)) if rest else 0.0


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


def _error_text(record: Record) -> str:
    return "\n".join(p or "" for p in (record.error_type, record.problem, record.stack_trace))


def record_signatures(record: Record) -> set[sig.Signature]:
    """The error signatures a record holds: in its error type, problem and stack trace."""
    return sig.signatures(_error_text(record))


def message_words(q: MemoryQuery) -> frozenset[str]:
    """The words of the error messages the question quotes (its signatures' masked words:
    literals left out, and stopwords, which any record holds)."""
    words: set[str] = set()
    for found in sig.signatures(f"{q.text}\n{q.code_context or ''}"):
        words |= {w for w in found.words if not w.startswith("<") and w not in STOPWORDS}
    return frozenset(w for w in words if len(w) > 1)


def message_missing(message: frozenset[str], record: Record) -> float:
    """The share of the quoted message's words the record's problem, error type and stack
    trace do not hold (as the store tokenizes them); 0 when no message is quoted."""
    if not message:
        return 0.0
    held = {t.lower() for t in _FTS_TOKEN.findall(_error_text(record))}
    return 1.0 - len(message & held) / len(message)


def features(
    record: Record,
    stored: dict[str, Vectors],
    q: MemoryQuery,
    vectors: dict[str, Vectors],
    main_space: str,
    *,
    first: bool,
    coverage: float,
    backdrop: float,
    signature_match: bool,
    signature_asked: bool = False,
) -> dict[str, float]:
    """The candidate's features (see the module docstring)."""
    cosine = _cos(vectors.get("query"), stored.get(main_space))
    if q.code_context:
        cosine = max(cosine, _cos(vectors.get("context"), stored.get("code")))
    match = mismatch = 0.0
    if q.codes:
        text = " ".join(p or "" for p in (record.error_type, record.problem, record.stack_trace))
        theirs = error_codes(text)
        # a shared specific code (ERR_REQUIRE_ESM, E0463) is strong; sharing TypeError is
        # not. Naming only other codes, generic or not, is evidence of a sibling problem.
        match = float(bool(specific(q.codes) & specific(theirs)))
        mismatch = float(bool(theirs) and not q.codes & theirs)
    missing = message_missing(message_words(q), record)
    pasted = float(q.shape in PASTED)
    return {
        "cosine": round(cosine, 4),
        "lift": round(cosine - backdrop, 4),
        "coverage": round(coverage, 4),
        "signature": float(signature_match),
        "signature_missing": float(signature_asked and not signature_match),
        "message_missing": round(missing, 4),
        "code_match": match,
        "code_mismatch": mismatch,
        "first": float(first),
        "pasted": pasted,
    }


def probability(
    f: Mapping[str, float],
    weights: Mapping[str, float] | None = None,
    bias: float | None = None,
) -> float:
    """The probability that the record answers the question (the shipped model unless a
    benchmark fit is being tried; a feature missing from `weights` is left out)."""
    chosen = WEIGHTS if weights is None else weights
    z = (BIAS if bias is None else bias) + sum(w * f.get(n, 0.0) for n, w in chosen.items())
    return float(1 / (1 + math.exp(-max(-50.0, min(50.0, z)))))


def answered(
    candidates: Sequence[HasFeatures],
    probabilities: Sequence[float],
    threshold: float = THRESHOLD,
) -> bool:
    """Whether memory answers: a candidate shares the question's exact error signature
    (never abstained on), or one is at least THRESHOLD likely to answer."""
    if any(c.features.get("signature", 0.0) >= 1.0 for c in candidates):
        return True
    return max(probabilities, default=0.0) >= threshold
