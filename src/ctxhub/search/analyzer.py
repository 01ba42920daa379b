"""Query and identifier analysis: what a query names, and how much to trust each path.

Agents paste three kinds of text: natural-language questions, identifiers
(`DailyTransport.configure`, `run_function_calls`, `TTSStoppedFrame`) and errors or log
lines. Each favours a different retrieval path, so the analyser picks per-path weights.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ctxhub.core.identifiers import code_names, is_identifier_like, split_identifier
from ctxhub.core.message_templates import MESSAGE_FILLER

_WORD = re.compile(r"[A-Za-z0-9_]+")
_QUOTED = re.compile(r"`([^`]{3,200})`|\"([^\"]{8,200})\"|'([^']{12,200})'")
_ERROR_MARKERS = re.compile(
    r"Traceback \(most recent call last\)|\b[A-Z][A-Za-z]*(?:Error|Exception|Warning)\b"
    r"|\b(?:ERROR|WARNING|CRITICAL|FATAL)\b|\bError:|\bfailed\b|\bnot found\b"
    r"|\b(?:timed out|rejected|refused|unable to|cannot|can't|couldn't|denied)\b"
    r"|\blogs?\b[^`'\"]*[`'\"]|\bwarning\b",
)
#: Wording that asks how the framework works inside, not how to use it: "how does
#: textual cancel ...", "where is the timer loop", "which code swaps ...". "How do I"
#: is a usage question and does not count.
_IMPLEMENTATION = re.compile(
    r"\b(?:how|where|when|why) (?:does|do|is|are) [`'\"]?(?!i\b|we\b|you\b)\w+"
    r"|\bwhich (?:code|function|method|class|part)\b|\bwhat happens\b"
    r"|\binternally\b|\bunder the hood\b",
    re.IGNORECASE,
)
#: A whole query that is one (dotted) name, maybe in backticks or called: `Table`,
#: `httpx.Client()`, ``Table``
_ONE_NAME = re.compile(r"`?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\(\))?`?")
_CODE_MARKERS = re.compile(r"\bdef |\bclass |\bimport |\bawait |\bself\.|[(){}\[\]=]{2,}|->|::")

#: Function words dropped from BM25 queries: they carry no signal and slow OR queries.
STOPWORDS = frozenset(
    """a about above after again all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers how i if in into is it its itself just
    me more most my no nor not now of off on once only or other our out over own same she
    should so some such than that the their them then there these they this those through
    to too under until up very was we were what when where which while who whom why will
    with would you your yours show me find tell want need get got use using used way ways
    something thing things happen happens happening does anyone see lets let please""".split()
)


@dataclass
class QueryAnalysis:
    text: str
    terms: list[str]  # words for BM25 (stopwords dropped, identifiers split)
    phrases: list[str]  # quoted/backticked spans, searched as FTS phrases
    fragments: list[str]  # word 3-grams of pasted messages, for the exact-phrase path
    identifiers: list[str]  # code names the query mentions, for symbol lookup
    is_error: bool
    has_code: bool
    weights: dict[str, float] = field(default_factory=dict)
    #: the question asks how the framework works inside ("how does X decide ...")
    asks_implementation: bool = False
    #: `fragments` by the message they come from (a query can quote two messages that
    #: different code emits); one group when the query quotes none
    fragment_groups: list[list[str]] = field(default_factory=list)
    #: the pasted messages themselves, one per group (matched against code's templates)
    messages: list[str] = field(default_factory=list)
    #: definitions the query names without spelling their qualified names (a public
    #: re-export's definition, the class a bare name names): search/named.py
    definitions: list[str] = field(default_factory=list)
    #: the query is one name and nothing else (`httpx.Client`, `Table`, `` `run()` ``)
    is_name: bool = False

    @property
    def names(self) -> list[str]:
        """What the symbol path looks up: the query's names and the definitions they
        stand for."""
        return list(dict.fromkeys([*self.identifiers, *self.definitions]))

    @property
    def asks_usage(self) -> bool:
        """A question about using the framework: not a pasted error (raised deep inside),
        not "how does X ... inside"."""
        return not self.is_error and not self.asks_implementation


def analyze(query: str) -> QueryAnalysis:
    identifiers = code_names(query)

    terms: list[str] = []
    for word in _WORD.findall(query):
        parts = split_identifier(word) if is_identifier_like(word) else [word]
        for part in parts:
            low = part.lower()
            if low in STOPWORDS or (len(low) < 2 and not low.isdigit()):
                continue
            if part not in terms:
                terms.append(part)

    phrases: list[str] = []
    for match in _QUOTED.finditer(query):
        span = next(g for g in match.groups() if g)
        words = [w for w in _WORD.findall(span) if not w.isdigit()]
        if len(words) >= 3:
            phrases.append(" ".join(words))

    is_error = bool(_ERROR_MARKERS.search(query))
    has_code = bool(_CODE_MARKERS.search(query))
    # every pasted message is matched against templates, even one too short or too
    # numeric for a fragment ("Expected 2 or 3 values, got 5")
    pasted = _message_groups(query) if (is_error or phrases) else []
    groups = [g for _, g in pasted if g]
    fragments = list(dict.fromkeys(f for g in groups for f in g))[:16]
    return QueryAnalysis(
        text=query,
        terms=terms,
        phrases=phrases,
        fragments=fragments,
        identifiers=identifiers,
        is_error=is_error,
        has_code=has_code,
        weights=path_weights(identifiers, is_error, has_code, bool(fragments), bool(pasted)),
        asks_implementation=_IMPLEMENTATION.search(query) is not None,
        is_name=is_one_name(query),
        fragment_groups=groups,
        messages=[text for text, _ in pasted],
    )


_BACKTICKED = re.compile(r"`([^`]+)`")


def pasted_messages(query: str) -> list[str]:
    """Where the message text of a query is: its backticked spans when it quotes the
    message (`Error: No such option: -n`), else the whole query. The words around a quote
    are the asker's ("wrapping timeit, my command dies with ..."), and their n-grams
    would dilute the message's. A query that quotes only code while its unquoted words
    carry the error marker ("`mycli run` fails with ValueError: ...") keeps the whole."""
    return [text for text, _ in _message_groups(query)]


#: A quoted message of two words, as validators print them (`{'extra': ['Unknown
#: field.']}`): too short for an n-gram, and a whole message by its quotes and capital.
_SHORT_MESSAGE = re.compile(r"(['\"])([A-Z][a-z]+ [a-z]+)\.?\1")


def _message_groups(query: str) -> list[tuple[str, list[str]]]:
    """`pasted_messages` with each message's fragments, computed once. A quoted message
    of two words (`{'extra': ['Unknown field.']}`) is too short for an n-gram, so it is a
    message and a fragment of its own."""
    quoted = [(m.group(1), message_fragments(m.group(1))) for m in _BACKTICKED.finditer(query)]
    spans = [(text, grams) for text, grams in quoted if grams]
    short = [(m.group(2), [m.group(2)]) for m in _SHORT_MESSAGE.finditer(query)]
    rest = _BACKTICKED.sub(" ", query)
    if not spans or (
        not any(_ERROR_MARKERS.search(text) for text, _ in spans) and _ERROR_MARKERS.search(rest)
    ):
        return [(query, message_fragments(query)), *short]
    return [*spans, *short]


# Runs of words between punctuation: where a pasted log line or error message lives.
_RUN_BREAK = re.compile(r"[—–:;,.?!()\[\]{}<>`'\"|=]+|\s-\s|\s{2,}")


def message_fragments(query: str, n: int = 3, limit: int = 16) -> list[str]:
    """Word n-grams of the message-like runs in a query (`failed 3 times immediately
    after connecting` -> `times immediately after`, ...). Code formats its messages with
    placeholders (`{count} times`), so short n-grams of the literal words match where
    the whole sentence would not. Identifier tokens and numbers break a run."""
    grams: list[str] = []
    for run in _RUN_BREAK.split(query):
        words: list[str] = []
        for token in run.split():
            if token.isdigit() or is_identifier_like(token) or not _WORD.fullmatch(token):
                words = _emit(words, n, grams)
                continue
            words.append(token)
        _emit(words, n, grams)
    return grams[:limit]


def _emit(words: list[str], n: int, grams: list[str]) -> list[str]:
    for i in range(len(words) - n + 1):
        gram = words[i : i + n]
        if sum(1 for w in gram if w.lower() not in MESSAGE_FILLER) >= 2:
            text = " ".join(gram)
            if text not in grams:
                grams.append(text)
    return []


def is_one_name(text: str) -> bool:
    """The whole text is one (dotted) name: `Table`, `httpx.Client()`, ``run``."""
    return bool(_ONE_NAME.fullmatch(text.strip()))


def with_definitions(analysis: QueryAnalysis, definitions: list[str]) -> QueryAnalysis:
    """`analysis` with the definitions its names stand for, weighted as names: a query
    that is one bare class name (`Table`) becomes a symbol query."""
    if not definitions:
        return analysis
    return replace(
        analysis,
        definitions=definitions,
        weights=path_weights(
            [*analysis.identifiers, *definitions],
            analysis.is_error,
            analysis.has_code,
            bool(analysis.fragments),
            bool(analysis.messages),
        ),
    )


def path_weights(
    identifiers: list[str],
    is_error: bool,
    has_code: bool,
    has_fragments: bool = False,
    has_messages: bool = False,
) -> dict[str, float]:
    """Per-path RRF weights. Names favour exact lookup, pasted errors favour exact words:
    a log line is found by its literal text, which embeddings blur."""
    weights = {"bm25": 1.0, "dense": 1.0, "symbol": 0.0, "phrase": 0.0, "template": 0.0}
    # dense over the declared API alone: it runs only when a tool asks for API to use
    # (search_api) and the question is about using it (retriever.DECLARED)
    weights["declared"] = 0.5
    if identifiers:
        weights["symbol"] = 1.5
        weights["bm25"] = 1.2
    if is_error:
        weights["bm25"] += 0.3
        weights["dense"] = 0.6
        weights["symbol"] = min(weights["symbol"], 0.5)  # names in a log line are context
    if has_fragments:
        weights["phrase"] = 1.5
    if has_messages:
        weights["template"] = 1.5
    if has_code:
        weights["bm25"] += 0.2
    return weights


#: A word in more than this share of chunks is dropped from the BM25 query: its IDF is
#: near zero, so it barely moves the ranking, yet it makes the OR match most rows.
COMMON_SHARE = 0.2
#: Words kept even when all are common, rarest first, so a query never matches nothing.
MIN_TERMS = 3


def informative_terms(terms: list[str], freqs: dict[str, int], total: int) -> list[str]:
    """Terms worth sending to BM25: present in the index and not in most of it."""
    present = [t for t in terms if freqs.get(t, 0) > 0]
    keep = [t for t in present if freqs[t] <= COMMON_SHARE * total]
    if len(keep) < MIN_TERMS:
        rarest = sorted(present, key=lambda t: freqs[t])[:MIN_TERMS]
        keep = [t for t in present if t in keep or t in rarest]
    return keep


def bm25_terms(
    analysis: QueryAnalysis, max_terms: int = 32, terms: list[str] | None = None
) -> list[str]:
    """What the BM25 path matches: the quoted phrases, then up to `max_terms` terms
    (`terms` replaces the analysed ones, e.g. after dropping common words). Each is
    matched as an exact word or phrase; operators in the input are plain words."""
    chosen = analysis.terms if terms is None else terms
    return [t for t in [*analysis.phrases, *chosen[:max_terms]] if t.replace('"', "")]
