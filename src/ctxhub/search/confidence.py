"""A 0-1 confidence for a response, and follow-up queries when it is low.

The features are what tells a good answer from a guess without knowing the answer:
paths agreeing on the top hit, the top hit's cosine to the query, an exact symbol match,
how clearly the top hit leads the rest, and how many of the query's words the index
holds at all (a question about another ecosystem uses words no indexed chunk has). A
logistic over them gives a number that reads like a probability that the top five hits
hold the answer. `COEFFICIENTS` come from scripts/calibrate_confidence.py (every labelled
set plus off-topic questions as negatives; L2-regularised, five features, to
generalise, checked leaving one framework out); docs/EVAL.md has the tables.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ctxhub.core.identifiers import split_identifier
from ctxhub.core.knowledge import Chunk
from ctxhub.search.analyzer import STOPWORDS, QueryAnalysis
from ctxhub.search.rank import Candidate

#: Below this the top five probably do not hold the answer (see the calibration table).
LOW_CONFIDENCE = 0.6

#: intercept, agreement, top cosine, exact symbol, margin, term coverage
COEFFICIENTS = (-6.29, 1.2, 4.06, 2.35, 0.32, 4.29)


@dataclass
class ConfidenceFeatures:
    agreement: float  # share of active paths that rank the top hit in their top 5
    top_cosine: float  # dense score of the top hit (0 when dense did not find it)
    exact_symbol: float  # 1 when the top hit's symbol is a name the query gives, or
    # the message the query pastes is in its code word for word
    margin: float  # (s1 - s2) / s1 of final scores
    coverage: float  # share of the query's terms that some indexed chunk contains

    def vector(self) -> tuple[float, ...]:
        return (
            1.0,
            self.agreement,
            self.top_cosine,
            self.exact_symbol,
            self.margin,
            self.coverage,
        )


def term_coverage(terms: Sequence[str], frequencies: Mapping[str, int]) -> float:
    """Share of `terms` the index holds (`Store.term_frequencies`); 1.0 for no terms."""
    if not terms:
        return 1.0
    return sum(1 for t in terms if frequencies.get(t, 0) > 0) / len(terms)


def features(
    analysis: QueryAnalysis,
    ranked: Sequence[Candidate],
    active_paths: Sequence[str],
    coverage: float = 1.0,
) -> ConfidenceFeatures:
    if not ranked:
        return ConfidenceFeatures(0.0, 0.0, 0.0, 0.0, coverage)
    top = ranked[0]
    paths = [p for p in active_paths if p in ("bm25", "dense") or analysis.names]
    agreeing = sum(1 for p in paths if p in top.signals and top.signals[p].rank <= 5)
    dense = top.signals.get("dense")
    symbol = (top.chunk.symbol or "").lower()
    # the symbol path's first hit for a dotted name it read through a re-export
    # (`typer.Option` -> `typer.params.Option`) is as exact as one it matched directly
    named = "symbol" in top.signals and top.signals["symbol"].rank == 1
    exact = any(
        symbol == i.lower()
        or symbol.endswith("." + i.lower())
        or (named and "." in i and symbol.rsplit(".", 1)[-1] == i.rsplit(".", 1)[-1].lower())
        for i in analysis.names
    )
    # a pasted message found word for word (the phrase path: a literal; the template
    # path: a formatted message) is as exact as a name typed in full
    exact = exact or any(
        p in top.signals and top.signals[p].rank == 1 for p in ("phrase", "template")
    )
    second = ranked[1].score if len(ranked) > 1 else 0.0
    margin = (top.score - second) / top.score if top.score > 0 else 0.0
    return ConfidenceFeatures(
        agreement=agreeing / max(1, len(paths)),
        top_cosine=dense.score if dense else 0.0,
        exact_symbol=1.0 if exact else 0.0,
        margin=margin,
        coverage=coverage,
    )


def confidence(f: ConfidenceFeatures, coefficients: Sequence[float] = COEFFICIENTS) -> float:
    z = sum(c * x for c, x in zip(coefficients, f.vector(), strict=True))
    return 1.0 / (1.0 + math.exp(-z))


def as_answer(
    analysis: QueryAnalysis,
    ranked: Sequence[Candidate],
    active_paths: Sequence[str],
    coverage: float = 1.0,
) -> list[float]:
    """For each candidate, the confidence a response led by it (the ones below it
    after) would have: how sure the retriever is that this hit, on its own evidence
    (the paths ranking it in their top 5, its cosine, an exact name, its lead over the
    next), answers the question."""
    return [
        confidence(features(analysis, ranked[i:], active_paths, coverage))
        for i in range(len(ranked))
    ]


#: Abbreviations that read as dotted names ("e.g.") or words ("etc"): never a query.
ABBREVIATIONS = frozenset(
    "e.g eg i.e ie etc vs cf viz n.b nb a.k.a aka w.r.t wrt approx resp et al".split()
)
#: What "doesn't", "isn't", ... leave behind once the apostrophe splits the word.
_CONTRACTED = re.compile(r"\b([A-Za-z]+)'[a-z]{1,2}\b")


def next_queries(analysis: QueryAnalysis, ranked: Sequence[Candidate], limit: int = 3) -> list[str]:
    """Follow-ups an agent can try: the names alone, then names the top hits carry, then
    the query's key words. Every suggestion is made of real terms or names: no
    stopwords, abbreviations or fragments of punctuation, no repeats, not the query.
    A name of the query is offered only where a candidate holds it: a name nothing
    indexed mentions is the user's own value (a pasted `'xx_yy'`), not a search."""
    contracted = {m.lower() for m in _CONTRACTED.findall(analysis.text)}
    out: list[str] = []
    seen = {_folded(analysis.text)}

    def offer(suggestion: str) -> None:
        key = _folded(suggestion)
        if key and key not in seen:
            seen.add(key)
            out.append(suggestion.strip())

    held = _held_by(ranked)
    names = [i for i in analysis.identifiers if _real_name(i) and held(i)]
    unheld = {i.lower() for i in analysis.identifiers} - {n.lower() for n in names}
    words = [
        t
        for t in analysis.terms
        if _real_term(t) and t.lower() not in contracted and t.lower() not in unheld
    ]
    if names and len(words) > len(names) + 2:
        offer(" ".join(names))
    for cand in ranked[:5]:
        name = _offered_name(cand.chunk)
        if _real_name(name):
            offer(name)
    # The names' own parts are already offered as the names.
    parts = {part.lower() for name in names for part in split_identifier(name)}
    key_terms = [t for t in words if t.lower() not in parts][:4]
    if len(key_terms) >= 2:
        offer(" ".join(key_terms))
    return out[:limit]


def _held_by(ranked: Sequence[Candidate]) -> Callable[[str], bool]:
    """Whether a name occurs (case-insensitively) in some candidate's name or text."""
    texts = [f"{c.chunk.symbol or ''} {c.chunk.content}".lower() for c in ranked]
    return lambda name: any(name.lower() in text for text in texts)


def _folded(text: str) -> str:
    return " ".join(_WORDS.findall(text.lower()))


_WORDS = re.compile(r"[a-z0-9_]+(?:\.[a-z0-9_]+)*")


def _heading(name: str) -> str:
    """A section breadcrumb's last heading ("Guides > Install" -> "Install"), without
    the punctuation around it."""
    return name.rsplit(" > ", 1)[-1].strip(" \t.,;:!?()[]{}'\"`-")


def _offered_name(chunk: Chunk) -> str:
    """What a hit offers as a follow-up: its symbol, else its heading when that is
    specific ("Returning JSON", "view_config"); a one-word heading ("Steps",
    "Overview") follows the heading above it ("Quick Tutorial for JSON Steps"), or the
    page's title when nothing is above it; "" when nothing makes it specific."""
    if chunk.symbol:
        return _heading(chunk.symbol)
    crumbs = [_heading(p) for p in (chunk.section or chunk.title or "").split(" > ")]
    crumbs = [c for c in crumbs if c]
    if not crumbs or _specific(crumbs[-1]):
        return crumbs[-1] if crumbs else ""
    if len(crumbs) == 1 and chunk.title and _heading(chunk.title) != crumbs[0]:
        crumbs.insert(0, _heading(chunk.title))
    return " ".join(crumbs[-2:]) if len(crumbs) > 1 else ""


#: A code name in a heading: dotted, snake_case, called, quoted or camelCase.
_CODE_NAME = re.compile(r"[\w)]\.\w|\w_\w|\(\)|`|[a-z][A-Z]")


def _specific(heading: str) -> bool:
    """A heading that says what its section is about: more than one word, or a code
    name. One plain word ("Usage", "Steps") heads a section of any page."""
    return len(heading.split()) > 1 or bool(_CODE_NAME.search(heading))


def _real_name(name: str) -> bool:
    """A code name or heading worth searching: not an abbreviation, not a run of
    one- and two-letter pieces ("e.g", "a.b"), and holding a word at all."""
    if name.lower().strip(". ") in ABBREVIATIONS:
        return False
    pieces = _WORDS.findall(name.lower())
    return any(len(piece) > 2 for p in pieces for piece in p.split("."))


def _real_term(term: str) -> bool:
    low = term.lower()
    return (
        len(low) > 3
        and low not in STOPWORDS
        and low not in ABBREVIATIONS
        and any(c.isalpha() for c in low)
    )
