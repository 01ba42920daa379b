"""What a memory query looks like, and how much each retrieval path counts for it.

An agent pastes an error (exact codes and messages: BM25 matters most), a piece of code
(the code-context space matters), a plain description (the problem space matters), or a
mix. The weights below are the RRF weights per shape; `benchmarks/memory.py --ablation`
shows what each path adds.
"""

from __future__ import annotations

import builtins
import re
from dataclasses import dataclass, field
from typing import Literal

from ctxhub.search.analyzer import analyze

QueryShape = Literal["error", "code", "natural", "mixed"]

#: RRF weight of each path, per query shape. A plain-language query does not search the
#: code space at all: only records with code are in it, so any weight there rewards a
#: record for having code rather than for matching. For the same reason pasted code counts
#: less than the question's meaning (the code vector rewards records that have code), and
#: BM25 counts less for a description (its words are the asker's, not the record's).
#: An error-shaped query gets the exact-signature path on top (`retrieval.py`). Chosen on
#: the calibration queries of benchmarks/memory_set; docs/MEMORY.md says what else was
#: looked at.
SHAPE_WEIGHTS: dict[QueryShape, dict[str, float]] = {
    "natural": {"problem": 1.0, "bm25": 0.5},
    "error": {"problem": 0.8, "code": 1.0, "bm25": 0.5},
    "code": {"problem": 1.0, "code": 0.5, "bm25": 0.8},
    "mixed": {"problem": 0.8, "code": 1.0, "bm25": 1.0},
}

#: Exact error identifiers: ERR_REQUIRE_ESM, SQLITE_BUSY, E0463, TS2307, GH001, ENOENT,
#: and exception class names. Sharing one is strong evidence of the same problem; a
#: query naming one code and a record naming only others is evidence against. Plain
#: constants (API_URL, HTTP_HOST) and the word ERROR are not codes.
ERROR_CODE = re.compile(
    r"\b(?:ERR_[A-Z0-9_]+|[A-Z][A-Z0-9]*_ERR[A-Z0-9_]*|SQLITE_[A-Z]+|E\d{3,5}"
    r"|[A-Z]{2,4}\d{3,5}|E(?!RROR)[A-Z]{4,12})\b"
    r"|\b[A-Z][A-Za-z]*(?:Error|Exception|Warning)\b"
)


#: Exception classes every program meets (Python's builtins, JavaScript's standard errors):
#: naming one says what kind of failure, not which problem, so they are not codes.
GENERIC_ERRORS = frozenset(
    {n for n in dir(builtins) if n.endswith(("Error", "Exception", "Warning"))}
    | {"Error", "ReferenceError", "RangeError", "EvalError", "URIError", "AggregateError"}
)


#: What the knowledge analyser's error markers miss, a query that quotes a tool's output:
#: a lowercase tool prefix (git's `fatal:`, cargo's `error[E0382]:`, `CUDA error:`, Go's
#: `panic:`) ...
LOG_PREFIX = re.compile(r"(?i)\b(?:error|fatal|panic|exception|warning)(?:\[\w+\])?:\s")
#: ... an exception class and its message (`DisallowedHost: Invalid HTTP_HOST header`), not
#: a product name before a question (`FastAPI: How do I ...`, `PostgreSQL: Which ...`) ...
EXCEPTION_PREFIX = re.compile(
    r"\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+:\s+"
    r"(?!(?i:how|what|which|why|when|where|who|can|could|should|would|will|is|are|does"
    r"|do|did|any|best|i|my|we|our|help|need)\b)[A-Z]"
)
#: ... or a quoted message right after a word that says it was output (`fails with 'no
#: space left on device'`, `the log says "connection reset by peer"`), not a quoted term
#: in a question (`how do I configure 'dependency injection'`).
QUOTED_OUTPUT = re.compile(
    r"(?i)\b(?:(?:fails?|failed|dies|died|crashe[sd]|errors?|errored|exits?|exited|stops?"
    r"|stopped|aborts?|aborted)\s+with|says?|said|saying|prints?|printed|shows?|showed"
    r"|throws?|threw|raises?|raised|reports?|reported|complains?|returns?|returned|logs?"
    r"|logged|outputs?|gives?|gave|got|getting|message|error)\s*:?\s*"
    r"(?:'[^'\n]{12,200}'|\"[^\"\n]{12,200}\")"
)


def looks_pasted(query: str) -> bool:
    """Whether the query carries a tool's output, by the markers above."""
    return any(p.search(query) for p in (LOG_PREFIX, EXCEPTION_PREFIX, QUOTED_OUTPUT))


def error_codes(text: str) -> set[str]:
    """Exact error codes and exception class names in `text` (generic ones included)."""
    return set(ERROR_CODE.findall(text))


def specific(codes: set[str]) -> set[str]:
    """The codes that identify a problem, not just a kind of failure."""
    return codes - GENERIC_ERRORS


@dataclass
class MemoryQuery:
    text: str
    code_context: str | None
    shape: QueryShape
    terms: list[str]
    codes: set[str]
    weights: dict[str, float] = field(default_factory=dict)


def analyze_memory_query(query: str, code_context: str | None = None) -> MemoryQuery:
    analysis = analyze(query)
    context = analyze(code_context) if code_context else None
    asked = error_codes(query)
    codes = asked | (error_codes(code_context) if code_context else set())
    is_error = (
        analysis.is_error
        or bool(asked)
        or looks_pasted(query)
        or bool(context and context.is_error)
    )
    is_code = bool(code_context) or analysis.has_code
    shape: QueryShape = (
        "mixed"
        if is_error and is_code
        else "error"
        if is_error
        else "code"
        if is_code
        else "natural"
    )
    terms = list(analysis.terms)
    for term in context.terms if context else []:
        if term not in terms:
            terms.append(term)
    return MemoryQuery(
        text=query,
        code_context=code_context,
        shape=shape,
        terms=terms[:64],
        codes=codes,
        weights=dict(SHAPE_WEIGHTS[shape]),
    )
