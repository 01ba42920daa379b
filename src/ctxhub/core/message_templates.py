"""Message templates: the text a function formats into the errors and logs it emits.

Code writes `f"Missing required {kind} parameter {name!r} for path {path}"`; a user
pastes `Missing required query parameter 'db' for path /x`. Word n-grams of the pasted
text ("Missing required query") cross the placeholders and match nothing, so ingestion
records each template as its literal parts (`["Missing required ", " parameter ",
" for path ", ""]`), the store keeps the parts as `msgsegs` terms, and a query finds
the templates whose parts all occur, in order, in the message it pastes.

Shared by ingestion (which writes the parts) and the retriever (which reads them), so
both normalise text the same way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_NON_WORD = re.compile(r"[^a-z0-9]+")
#: Words that cannot make a message fragment on their own. Narrower than a stopword
#: list: messages are built of negations and quantifiers ("No such option", "is not one
#: of", "does not exist"), which are the message's words, not filler.
MESSAGE_FILLER = frozenset(
    """a an the of to in on at by for from with as is are was were be been it its this that
    and or i you we he she they my your our me""".split()
)
#: A part needs this many words that are not filler to find a template by (`" is "`,
#: `"Invalid "` say too little)
MIN_SEGMENT_WORDS = 2
#: Query n-grams looked up, by length in words
MAX_NGRAM = 8


def normalized(text: str) -> str:
    """Lowercase words separated by single spaces (punctuation and quotes dropped)."""
    return " ".join(_NON_WORD.sub(" ", text.lower()).split())


def _telling(words: Sequence[str]) -> bool:
    return sum(1 for w in words if w not in MESSAGE_FILLER) >= MIN_SEGMENT_WORDS


def segments(parts: Sequence[str]) -> list[str]:
    """The literal parts of a template worth looking up, normalised, once each; a long
    part by its first MAX_NGRAM words (what a query's n-grams can equal)."""
    out: list[str] = []
    for part in parts:
        words = normalized(part).split()[:MAX_NGRAM]
        norm = " ".join(words)
        if _telling(words) and norm not in out:
            out.append(norm)
    return out


def ngrams(message: str, max_n: int = MAX_NGRAM) -> list[str]:
    """Every normalised word n-gram of `message` that could equal a stored segment."""
    words = normalized(message).split()
    out: dict[str, None] = {}
    for n in range(MIN_SEGMENT_WORDS, max_n + 1):
        for i in range(len(words) - n + 1):
            gram = words[i : i + n]
            if _telling(gram):
                out.setdefault(" ".join(gram), None)
    return list(out)


def matched_words(parts: Sequence[str], message: str) -> int:
    """How many literal words of the template `message` holds when every literal part
    occurs in it, in order, on word boundaries (0: the template does not match).
    `message` is normalised text."""
    padded = f" {message} "
    at = 0
    words = 0
    for part in parts:
        norm = normalized(part)
        if not norm:
            continue
        found = padded.find(f" {norm} ", at)
        if found < 0:
            return 0
        at = found + len(norm) + 1
        words += len(norm.split())
    return words
