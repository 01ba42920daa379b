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
#: A part is looked up by its first run of this many words that says enough (or by all
#: of a two-word part), so a query needs only its 2- and 3-grams however long its paste
KEY_WORDS = 3
#: Placeholders from `template_parts` / f-strings: the empty part between two literal ones
PLACEHOLDER = ""


def normalized(text: str) -> str:
    """Lowercase words separated by single spaces (punctuation and quotes dropped)."""
    return " ".join(_NON_WORD.sub(" ", text.lower()).split())


def _telling(words: Sequence[str]) -> bool:
    return sum(1 for w in words if w not in MESSAGE_FILLER) >= MIN_SEGMENT_WORDS


def segment_key(part: str) -> str | None:
    """The words `part` is looked up by: its first telling run of KEY_WORDS words, all
    of it when shorter (None: it says too little: `" for path "`, `"Invalid "`)."""
    words = normalized(part).split()
    for i in range(max(1, len(words) - KEY_WORDS + 1)):
        window = words[i : i + KEY_WORDS]
        if _telling(window):
            return " ".join(window)
    return None


def segments(parts: Sequence[str]) -> list[str]:
    """The lookup keys of a template's literal parts, once each, in order."""
    out: dict[str, None] = {}
    for part in parts:
        if (key := segment_key(part)) is not None:
            out.setdefault(key, None)
    return list(out)


def ngrams(message: str) -> list[str]:
    """Every telling 2- and 3-word n-gram of `message`, in the order they occur: what
    a stored key could equal."""
    words = normalized(message).split()
    out: dict[str, None] = {}
    for i in range(len(words) - MIN_SEGMENT_WORDS + 1):
        for n in range(MIN_SEGMENT_WORDS, KEY_WORDS + 1):
            gram = words[i : i + n]
            if len(gram) == n and _telling(gram):
                out.setdefault(" ".join(gram), None)
    return list(out)


def _part_pattern(part: str, glued_left: bool, glued_right: bool) -> re.Pattern[str] | None:
    """`part` (normalised) on word boundaries, except on a side where it touches a
    placeholder with no space between (`"Invalid {}s found"`: `s found` ends a word)."""
    norm = normalized(part)
    if not norm:
        return None
    left = "" if glued_left else "(?<= )"
    right = "" if glued_right else "(?= )"
    return re.compile(left + re.escape(norm) + right)


def matched_words(parts: Sequence[str], message: str) -> int:
    """How many literal words of the template `message` holds when every literal part
    occurs in it, in order (0: the template does not match). Parts match whole words,
    but a part glued to a placeholder may match inside a word on that side. `message`
    is normalised text."""
    padded = f" {message} "
    at = 0
    words = 0
    last = len(parts) - 1
    for i, part in enumerate(parts):
        glued_left = i > 0 and part[:1].isalnum()
        glued_right = i < last and part[-1:].isalnum()
        pattern = _part_pattern(part, glued_left, glued_right)
        if pattern is None:
            continue
        found = pattern.search(padded, at)
        if found is None:
            return 0
        at = found.end()
        words += len(normalized(part).split())
    return words


def best_match(templates: Sequence[Sequence[str]], messages: Sequence[str]) -> int:
    """The most literal words one of `templates` matches in one of the pasted
    `messages` (0: none fills in)."""
    if not templates or not messages:
        return 0
    texts = [normalized(m) for m in messages]
    return max(matched_words(parts, text) for parts in templates for text in texts)
