"""A release question asked of a search ("What changed in 1.4.0?", a changelog line
pasted back): the release notes answer it exactly, but no search ranks them (a
changelog's chunks are lookup-only: ranked, its one-line entries naming every API
crowded out how-to answers, docs/EVAL.md). So the answer's `notice` names the changelog
section that holds the answer and the get_doc call that shows it.

A section answers when its heading names the release the query names, compared as
releases (`1.4` is `1.4.0`, `v1.4.0` too); else when one changelog chunk holds nearly
every pair of adjacent words of the query (a pasted line, cut short or not). The one
extra read, the lookup-only doc rows, is made only for a query that looks like a release
question: a version, release words, or the opening of a changelog entry."""

from __future__ import annotations

import itertools
import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass

from ctxhub.core.knowledge import Chunk, ChunkQuery
from ctxhub.ingest.python.changelog_files import is_changelog_text
from ctxhub.store.protocol import Store
from ctxhub.tools.doc_sections import loose
from ctxhub.tools.releases import release

#: A release number as written in a query or a heading: `1.4.0`, `v2.1`, `3.0.0rc1`.
_VERSION = re.compile(
    r"(?<![\w.])v?(\d+(?:\.\d+){1,3}(?:(?:a|b|rc|\.?post|\.?dev)\d+)?)(?![\w.]*\w)", re.I
)
#: Right before a version, a name saying it is the interpreter's (`Python 3.12`).
_INTERPRETER = re.compile(r"\b(?:python|py|cpython|pypy)\s*$", re.I)
_RELEASE_WORDS = re.compile(
    r"\b(?:change\s*-?\s*logs?|release\s+(?:notes?|history)|what\s+(?:has\s+)?changed|"
    r"what(?:'s|\s+is)\s+new|new\s+in|changed\s+in|changes\s+in)\b",
    re.I,
)
#: How a changelog entry opens: a bullet, a tag (`[NEW]`, `[FIX]`), a past-tense change.
_ENTRY = re.compile(
    r"^\W*(?:\[[a-z]+\]|(?:added|fixed|removed|deprecated|changed|dropped|improved|"
    r"renamed|replaced)\b)",
    re.I,
)
#: The share of the query's adjacent-word pairs one chunk must hold, and the fewest
#: words a query needs to be matched that way (a short query matches too much).
MIN_PAIR_SHARE = 0.8
MIN_LINE_WORDS = 4
#: Sections a notice names at most.
MAX_NAMED = 2
_WORD = re.compile(r"[^\W_]+")
_ELLIPSIS = re.compile(r"(?:\.\.\.|\u2026)\s*$")


@dataclass(frozen=True)
class _Section:
    source: str
    page: str
    heading: str  # what get_doc's `section` matches: the release's heading


def versions_in(text: str, *, skip_interpreter: bool = False) -> list[tuple[int, ...]]:
    """The releases `text` names, in order (`Python 3.12` left out when asked)."""
    found: list[tuple[int, ...]] = []
    for match in _VERSION.finditer(text):
        if skip_interpreter and _INTERPRETER.search(text[: match.start()]):
            continue
        if (numbers := release(match.group(1))) is not None:
            found.append(numbers)
    return found


def is_release_question(query: str) -> bool:
    """A version, release words (`changelog`, `what changed`, `new in`) or a changelog
    entry's opening: worth the one read of the changelogs."""
    return bool(
        versions_in(query, skip_interpreter=True)
        or _RELEASE_WORDS.search(query)
        or _ENTRY.search(query)
    )


def _crumbs(chunk: Chunk) -> list[str]:
    return [c.strip() for c in (chunk.section or chunk.title or "").split(" > ") if c.strip()]


def _release_heading(chunk: Chunk) -> str | None:
    """The first heading of the chunk's breadcrumb that names a release."""
    return next((c for c in _crumbs(chunk) if versions_in(c)), None)


def _by_version(chunks: list[Chunk], wanted: set[tuple[int, ...]]) -> list[_Section]:
    """The sections whose release heading opens with a release the query names."""
    found: list[_Section] = []
    for chunk in chunks:
        heading = _release_heading(chunk)
        if heading is not None and versions_in(heading)[0] in wanted:
            found.append(_Section(chunk.source, chunk.path, heading))
    return found


def _pairs(text: str) -> set[tuple[str, str]]:
    words = _WORD.findall(loose(text))
    return set(itertools.pairwise(words))


def _by_line(chunks: list[Chunk], query: str) -> list[_Section]:
    """The section of the chunk that holds nearly every adjacent-word pair of the query
    (a pasted entry), best first."""
    text = _ELLIPSIS.sub("", query)
    if len(_WORD.findall(loose(text))) < MIN_LINE_WORDS:
        return []
    wanted = _pairs(text)
    scored = []
    for at, chunk in enumerate(chunks):
        share = len(wanted & _pairs(chunk.content)) / len(wanted)
        if share >= MIN_PAIR_SHARE:
            heading = _release_heading(chunk) or (_crumbs(chunk) or [chunk.path])[-1]
            scored.append((-share, at, _Section(chunk.source, chunk.path, heading)))
    return [section for *_, section in sorted(scored)]


def _call(section: _Section) -> str:
    """get_doc's call and the CLI's for one section."""
    tool = f"get_doc(path={section.page!r}, section={section.heading!r}, source={section.source!r})"
    cli = shlex.join(
        ["ctxhub", "doc", section.page, "--section", section.heading, "--source", section.source]
    )
    return f"{tool} (`{cli}`)"


def release_notes_notice(store: Store, query: str, sources: Iterable[str] | None) -> str | None:
    """For a release question, the changelog sections (of `sources`, else of every
    source) that answer it and the calls that show them; None when none does or the
    query is no release question."""
    if not is_release_question(query):
        return None
    allowed = set(sources) if sources else None
    one = next(iter(allowed)) if allowed and len(allowed) == 1 else None
    rows = store.find_chunks(ChunkQuery(kind="doc", source=one, lookup_only=True))
    chunks = [
        c
        for c in rows
        if (allowed is None or c.source in allowed)
        and is_changelog_text(c.path, c.metadata.extra.get("included_from"))
    ]
    wanted = set(versions_in(query, skip_interpreter=True))
    found = _by_version(chunks, wanted) if wanted else []
    what = "have a section for that release"
    if not found:
        found, what = _by_line(chunks, query), "hold that text"
    # a source the query names comes first (`structlog 25.1`: not another's 25.1)
    words = set(_WORD.findall(query.lower()))
    found.sort(key=lambda s: not words & set(_WORD.findall(s.source.lower())))
    named = list(dict.fromkeys(found))[:MAX_NAMED]
    if not named:
        return _no_release_notes(store, words, chunks, allowed) if wanted else None
    calls = "; ".join(_call(s) for s in named)
    shows = "shows it" if len(named) == 1 else "show them"
    return f"release notes (lookup-only: search never ranks them) {what}: {calls} {shows}"


def _no_release_notes(
    store: Store, words: set[str], chunks: list[Chunk], allowed: set[str] | None
) -> str | None:
    """For a question naming a release of a source that holds no release notes at all
    (`what changed in loguru 0.7.3`, a wheel without its changelog): say so, so the hits
    are not read as the release's notes."""
    holding = {_stem(c.source) for c in chunks}
    named = [
        s.name
        for s in store.sources()
        if (allowed is None or s.name in allowed) and _stem(s.name) in words
    ]
    bare = [n for n in named if _stem(n) not in holding]
    if not bare or len(bare) < len(named):  # another copy of the package has them
        return None
    names = ", ".join(bare)
    return (
        f"no release notes are indexed for {names}: the hits are not that release's notes "
        "(add a source holding its changelog: the release's sdist or its docs)"
    )


def _stem(source: str) -> str:
    """The package word of a source's name (`loguru-sdist` -> `loguru`)."""
    words = _WORD.findall(source.lower())
    return words[0] if words and len(words[0]) > 2 else ""
