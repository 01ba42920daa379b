"""Exact error signatures: what a pasted error message and a stored record share when they
are the same error, whatever the file, variable, number or path.

A signature is the error's *kind* (an exception class's last name, or an error code such
as `E0502`, `TS2345`, `ERR_MODULE_NOT_FOUND`, `1055`) plus the words of its message with
the literals masked: quoted text, paths, numbers, hex, and identifiers (snake_case,
camelCase, dotted names) become placeholders, so
`ValueError: You are trying to merge on object and int64 columns for key 'sku'` and the
record's `... on int64 and object columns for key 'customer_id'` have one signature. Two
messages match when their kinds are equal and the shorter one's masked words are nearly all in
the other (a bag of words: tools reorder operands, and records are often trimmed).

This is deliberately lexical and independent of the embedding model: an exact error is
the most exact evidence memory has, and it should not depend on how a paraphrase model
happens to place two messages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: `Kind: message` where Kind is a (possibly qualified) exception class; also Ruby's
#: `A::B`, PHP's `A\B`, Kotlin / Java / C# dotted names.
_EXCEPTION = re.compile(
    r"(?P<kind>(?:[A-Za-z_][\w]*(?:\.|::|\\))*[A-Z][\w]*(?:Error|Exception|Warning|Fault))"
    r"\s*:\s+(?P<msg>[^\n]+)"
)
#: An exception class without the usual suffix (`DisallowedHost: Invalid HTTP_HOST header`,
#: `MissingGreenlet: greenlet_spawn has not been called`): a CamelCase name of two humps or
#: more, then a capitalised message that is not a question (`FastAPI: How do I ...`).
_CAMEL = re.compile(
    r"\b(?P<kind>[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+):\s+"
    r"(?!(?i:how|what|which|why|when|where|who|can|could|should|would|will|is|are|does"
    r"|do|did|any|best|i|my|we|our|help|need)\b)(?P<msg>[A-Z][^\n]+)"
)
#: Tool codes: rustc `error[E0502]:`, tsc `error TS2345:`, Node `Error [ERR_X]:`, MySQL
#: `ERROR 1055 (42000):`, Angular `NG0100:`, and a bare `CODE: message`.
_CODED = re.compile(
    r"(?:\b(?:[Ee]rror|ERROR)\s*\[(?P<a>[A-Z]*\d{3,5}|[A-Z][A-Z0-9_]{3,})\]"
    r"|\b(?:[Ee]rror|ERROR)\s+(?P<b>[A-Z]{1,4}\d{3,5})"
    r"|\bERROR\s+(?P<c>\d{3,5})(?:\s*\([0-9A-Z]{5}\))?"
    r"|\b(?P<d>[A-Z]{1,4}\d{3,5}|ERR_[A-Z0-9_]+|E(?!RROR)[A-Z]{4,12}))"
    r"\s*:\s*(?P<msg>[^\n]+)"
)
#: A tool's own prefix at the start of a line, perhaps after the tool's name: `fatal: ...`,
#: `panic: ...`, `CUDA error: ...`, `React warning: ...` (the kind is the prefix).
_PREFIXED = re.compile(
    r"(?im)^\s*(?:(?!(?:this|that|the|an?|my|same|some|following)\s)\w+(?:\.\w+)?:?\s+)?"
    r"(?P<kind>fatal|panic|error|fatal error|warning)\s*:\s+"
    r"(?P<msg>[^\n]+)"
)
#: The same prefixes inside a line, after the words that told of it (`pip install fails
#: with Error: pg_config executable not found`, `rejects my app with FATAL: password
#: authentication failed`, `git merge says fatal: refusing to ...`): only the spellings
#: tools print (`Error`, `ERROR`, `FATAL`, `fatal`, `panic`), never after a determiner
#: (`this error: ...` is prose), and never lowercase `error:`, which prose uses too.
_INLINE = re.compile(
    r"(?m)\b(?P<prev>[A-Za-z]+)[ \t]+(?P<kind>Error|ERROR|FATAL|Fatal|fatal|panic)"
    r"\s*:\s+(?P<msg>[^\n]+)"
)
_DETERMINERS = frozenset(
    {"this", "that", "the", "a", "an", "my", "same", "some", "following", "which", "what"}
)

_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`|‘[^’\n]*’|“[^”\n]*”|\[[^\]\n]*\]")
_PATH = re.compile(r"(?:[A-Za-z]:)?[\w.~@+-]*(?:[/\\][\w.@+-]+)+[/\\]?")
_NUMBER = re.compile(r"\b0x[0-9a-fA-F]+\b|\b\d+(?:\.\d+)*\b")
_WORD = re.compile(r"[A-Za-z][\w.]*")
#: An identifier rather than an English word: snake_case, camelCase, dotted, digits.
_IDENT = re.compile(r"^(?:\w*_\w*|\w*[a-z][A-Z]\w*|[\w]+\.[\w.]+|\w*\d\w*)$")

MIN_WORDS = 3  # a message this short says too little to be a signature
MATCH = 0.8  # agreement of masked words for two messages to be one error
MAX_WORDS = 24  # the head of a long message carries its identity


@dataclass(frozen=True)
class Signature:
    kind: str  # lowercased: `valueerror`, `e0502`, `ts2345`, `err_require_esm`, `fatal`
    words: frozenset[str]  # masked message words


def mask(message: str) -> list[str]:
    """The message's words with literals masked (`<q>`, `<p>`, `<n>`, `<id>`), lowercased."""
    text = _QUOTED.sub(" <q> ", message)
    text = _PATH.sub(" <p> ", text)
    text = _NUMBER.sub(" <n> ", text)
    out: list[str] = []
    for token in text.split():
        if token.startswith("<") and token.endswith(">"):
            out.append(token)
            continue
        for word in _WORD.findall(token):
            word = word.rstrip(".")
            out.append("<id>" if _IDENT.match(word) else word.lower())
    return out[:MAX_WORDS]


def _kind(raw: str) -> str:
    return re.split(r"\.|::|\\", raw)[-1].lower()


def signatures(text: str | None) -> set[Signature]:
    """Every error signature in `text` (a query, a pasted trace, a record's fields)."""
    if not text:
        return set()
    found: set[Signature] = set()
    for m in _EXCEPTION.finditer(text):
        _add(found, _kind(m["kind"]), _unquote(text, m.start(), m["msg"]))
    for m in _CAMEL.finditer(text):
        if not _EXCEPTION.match(text, m.start()):
            _add(found, m["kind"].lower(), _unquote(text, m.start(), m["msg"]))
    for m in _CODED.finditer(text):
        code = next(g for g in (m["a"], m["b"], m["c"], m["d"]) if g)
        _add(found, code.lower(), m["msg"])
    for m in _PREFIXED.finditer(text):
        _add(found, m["kind"].lower(), m["msg"])
    for m in _INLINE.finditer(text):
        if m["prev"].lower() not in _DETERMINERS:
            _add(found, m["kind"].lower(), m["msg"])
    return found


def _unquote(text: str, start: int, message: str) -> str:
    """A message quoted in prose (`crashes with 'KeyError: x' in onResume`) ends at its
    closing quote: the prose after it is not the error's."""
    quote = text[start - 1] if start > 0 else ""
    if quote in ("'", '"', "`"):
        return message.split(quote)[0]
    return message


def _add(found: set[Signature], kind: str, message: str) -> None:
    # an exception named inside a coded line (`NG0100: FooError: msg`) is its own kind
    inner = _EXCEPTION.match(message.strip())
    if inner:
        _add(found, _kind(inner["kind"]), inner["msg"])
    words = frozenset(mask(message))
    if len(words) >= MIN_WORDS:
        found.add(Signature(kind, words))


def agreement(a: Signature, b: Signature) -> float:
    """The share of the shorter message's masked words the other holds (a record's trace
    is often trimmed, a pasted one often longer); 0 for different kinds."""
    if a.kind != b.kind:
        return 0.0
    return len(a.words & b.words) / min(len(a.words), len(b.words))


def best_match(query: set[Signature], record: set[Signature]) -> float:
    """The best agreement between any of the query's and the record's signatures."""
    return max((agreement(a, b) for a in query for b in record), default=0.0)


def matches(query: set[Signature], record: set[Signature]) -> bool:
    return best_match(query, record) >= MATCH
