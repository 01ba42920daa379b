"""Deprecations stated only in the docs: a name next to deprecation wording.

Read at query time from the indexed doc chunks (through `Store.bm25`, no SQL here), for
a symbol the code says nothing about. Weaker evidence than code: a page may describe an
old version, or mention the name only near the notice. So a block counts only when the
name is what the wording is about: an admonition (`.. deprecated::`, "Deprecated since
version", `!!! warning "Deprecated"`, `:::warning Deprecated`) that names it, or that
follows a line naming it; or a sentence where the name comes before "is deprecated" /
"will be removed" and is not the replacement the sentence recommends.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ctxhub.core.knowledge import Chunk, Deprecation, SearchFilters, parameter_note
from ctxhub.core.outputs import DeprecationReport
from ctxhub.ingest.docs.described import description_name
from ctxhub.ingest.python.deprecation_text import find_replacement, find_since
from ctxhub.store.protocol import Store
from ctxhub.tools.deprecation_names import member_path

#: Doc chunks read per question: the name is rare, so BM25 ranks the chunks that hold it
#: and the deprecation words first.
_CANDIDATES = 40
_ADMONITION = re.compile(
    r"^\s*(?:\.\.\s+deprecated::|deprecated\s+since\s+version\b|removed\s+in\s+version\b"
    r"|[!?]{3}\+?\s*(?:deprecated\b|\w+\s+\"deprecated)|:::\s*\w+\s+deprecated\b"
    r"|:::\s*deprecated\b|>\s*\[!(?:deprecated|warning)\]\s*deprecated)",
    re.IGNORECASE,
)
_PROSE = re.compile(
    r"\b(?:is|are|has\s+been|have\s+been|was|were|now)\s+(?:now\s+)?deprecated\b"
    r"|\bwill\s+be\s+removed\b|\bdeprecated\s+(?:since|in|as\s+of)\s+(?:version\s+)?v?\d",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*_\[(])")
# A list item starts a new entry (a changelog's next bullet is no part of this one).
_ITEM = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")
# "The `--head_only` option to the `alembic current` command is deprecated": the
# sentence is about an option or argument of the thing named after it.
_OPTION_OF = re.compile(
    r"[`'\"]*-{0,2}(?P<p>[A-Za-z_][\w-]*)=?[`'\"]*\s+(?:option|argument|parameter|flag|keyword)"
    r"\s+(?:to|of|for|in|on)\s+(?:the\s+)?$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class DocDeprecation:
    source: str
    path: str
    line_start: int | None
    line_end: int | None
    text: str  # the sentence or admonition, whitespace folded
    since: str | None
    replacement: str | None
    #: the option or argument of the name the sentence deprecates, not the name itself
    parameter: str | None = None

    @property
    def where(self) -> str:
        if self.line_start is None:
            return self.path
        end = f"-{self.line_end}" if self.line_end and self.line_end != self.line_start else ""
        return f"{self.path}:{self.line_start}{end}"


def _mention(name: str) -> re.Pattern[str]:
    # the bare name or a dotted name ending with it, as a whole word; not the owner of a
    # member (`X.y()` is about `X.y`, not `X`)
    return re.compile(r"(?<![\w.])(?:\w+\.)*" + re.escape(name) + r"(?!\w|\.\w)")


def _blocks(lines: list[str]) -> list[tuple[int, int]]:
    """Paragraphs as (first, last) line indexes; an admonition keeps the paragraph after
    its header line (reST and mkdocs put the text indented below)."""
    out: list[tuple[int, int]] = []
    start: int | None = None
    for i, line in enumerate([*lines, ""]):
        if line.strip() and start is not None and _ITEM.match(line):
            out.append((start, i - 1))  # the next list item: a new entry
            start = i
        elif line.strip() and start is None:
            start = i
        elif not line.strip() and start is not None:
            if out and _ADMONITION.match(lines[out[-1][0]]) and out[-1][1] == out[-1][0]:
                out[-1] = (out[-1][0], i - 1)  # the header alone: take this paragraph too
            else:
                out.append((start, i - 1))
            start = None
    return out


def _about(sentence: str, pattern: re.Pattern[str]) -> bool:
    """The name is what the sentence says is deprecated, not what replaces it."""
    wording = _PROSE.search(sentence)
    found = pattern.search(sentence)
    if wording is None or found is None or found.start() > wording.start():
        return False
    replacement = find_replacement(sentence)
    return replacement is None or pattern.fullmatch(replacement) is None


def _option_of(sentence: str, pattern: re.Pattern[str]) -> str | None:
    """The option the sentence deprecates when it names one of the symbol's ("the `x`
    option to the `y` command"), else None."""
    found = pattern.search(sentence)
    if found is None:
        return None
    before = re.sub(r"[`'\"]*[\w.]*\s*$", "", sentence[: found.start()])  # `alembic current`
    option = _OPTION_OF.search(before)
    return option.group("p").replace("-", "_") if option else None


def _owner(lines: list[str], first: int, described: frozenset[str]) -> str | None:
    """The API description an admonition at lines[first] is part of: the nearest
    description line above it ("attribute Everyone", a name the chunk `describes`), up to
    a heading. The rendered text loses reST's nesting; a description runs to the next
    one, so the nearest above is the one that holds it."""
    for line in reversed(lines[:first]):
        if line.startswith("#"):
            return None
        name = description_name(line)
        if name is not None and name.rsplit(".", 1)[-1] in described:
            return name
    return None


def _in_chunk(chunk: Chunk, pattern: re.Pattern[str]) -> list[DocDeprecation]:
    lines = chunk.content.splitlines()
    out: list[DocDeprecation] = []
    raw = chunk.metadata.extra.get("describes") or []
    described = frozenset(str(n).rsplit(".", 1)[-1] for n in raw)
    for first, last in _blocks(lines):
        block = " ".join(s.strip() for s in lines[first : last + 1])
        texts: list[str] = []
        owner = _owner(lines, first, described) if described else None
        if owner is not None and _ADMONITION.match(lines[first]):
            # nested in a description: about its name alone, whatever else it mentions
            # ("Moved to `pkg.new.Everyone`" names the replacement, not another subject)
            if pattern.fullmatch(owner):
                texts.append(block)
        elif _ADMONITION.match(lines[first]):
            before = [s for s in lines[max(0, first - 3) : first] if s.strip()]
            # "Deprecated alias for `get_signed_cookie`." above the notice names what
            # replaces the deprecated name, not the deprecated name
            named_before = bool(before) and pattern.search(before[-1]) is not None
            if named_before and (hint := find_replacement(before[-1])) is not None:
                named_before = pattern.fullmatch(hint) is None
            if pattern.search(block) or named_before:
                replacement = find_replacement(block)
                if replacement is None or pattern.fullmatch(replacement) is None:
                    texts.append(block)
        else:
            texts.extend(s for s in _SENTENCE_END.split(block) if _about(s, pattern))
        for text in texts:
            out.append(
                DocDeprecation(
                    # the chunk's span: its text is rendered (reST, MDX), so lines within
                    # it need not match the file's
                    chunk.source,
                    chunk.path,
                    chunk.line_start,
                    chunk.line_end,
                    text[:400],
                    find_since(text),
                    find_replacement(text),
                    _option_of(text, pattern),
                )
            )
    return out


def docs_deprecations(
    store: Store, symbol: str, limit: int = 5, source: str | None = None, *, whole: bool = False
) -> list[DocDeprecation]:
    """Where the indexed docs (of `source`, or all) say `symbol` (qualified or its last
    part; with `whole`, all of it past its modules: `Event.clear`) is deprecated."""
    name = symbol.strip().strip("`").removesuffix("()")
    last = name.rsplit(".", 1)[-1]
    if len(last) < 3:
        return []  # too short to find reliably in prose
    terms = list(dict.fromkeys([name, last, "deprecated", "removed"]))
    filters = SearchFilters(source=[source] if source else None)
    ranked = store.bm25(terms, filters, ["doc"], _CANDIDATES)
    chunks = store.get_chunks([cid for cid, _ in ranked])
    pattern = _mention(member_path(name) if whole else last)
    out: list[DocDeprecation] = []
    for chunk in chunks:
        if pattern.search(chunk.content):
            out.extend(_in_chunk(chunk, pattern))
        if len(out) >= limit:
            break
    return out[:limit]


def docs_records(symbol: str, stated: list[DocDeprecation]) -> list[Deprecation]:
    """The docs' statements as records of `symbol`, cited by page and lines."""
    return [
        Deprecation(
            source=d.source,
            symbol=symbol,
            replacement=d.replacement,
            since=d.since,
            note=parameter_note(d.parameter, d.text) if d.parameter else d.text,
            path=d.path,
            line=d.line_start,
            origin="docs",
        )
        for d in stated
    ]


def docs_report(
    symbol: str, stated: list[DocDeprecation], newer: list[Deprecation]
) -> DeprecationReport:
    """Deprecated by the docs' word only: cited by page and lines, marked as such."""
    first = stated[0]
    entries = docs_records(symbol, stated)
    if all(d.partial for d in entries):
        # about an option of it ("the `--x` option to the `y` command"): it stays current
        return DeprecationReport(symbol=symbol, deprecated=False, parameters=entries, newer=newer)
    return DeprecationReport(
        symbol=symbol,
        deprecated=True,
        replacement=first.replacement,
        since=next((d.since for d in stated if d.since), None),
        note=first.text,
        location=f"{first.source}:{first.where}",
        entries=entries,
        evidence="docs",
        newer=newer,
    )
