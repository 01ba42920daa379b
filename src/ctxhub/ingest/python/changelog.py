"""Deprecations and removals announced in a changelog.

Two layouts: a Keep-a-Changelog style file (`CHANGELOG.md`, `CHANGES.rst`, ...) whose
version headings hold `Deprecated` / `Removed` sections of bullet entries, and
towncrier fragments (`changelog/1234.deprecated.md`) that are entries of the next,
unreleased version; reno notes and the Sphinx `changelog` extension's entries too
(finding the entries: changelog_entries.py). Each entry names what it deprecates in
backticks; the names that open it (`Deprecated `a`, `b` and `c`. Use `d` instead.`)
become one record each.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ctxhub.core.knowledge import Deprecation, parameter_note, usage_note
from ctxhub.ingest.python.changelog_entries import (
    LISTED_AFTER,
    Entry,
    changelog_entries,
    section_entries,
    sphinx_entries,
)
from ctxhub.ingest.python.changelog_files import fragment_type
from ctxhub.ingest.python.changelog_later import later_sentence, qualified, renamed_to
from ctxhub.ingest.python.changelog_nested import nested_records
from ctxhub.ingest.python.changelog_parameter_lists import listed_records
from ctxhub.ingest.python.changelog_reno import is_reno_note, reno_entries
from ctxhub.ingest.python.changelog_sphinx import uses_sphinx_changelog
from ctxhub.ingest.python.changelog_subjects import (
    is_language_name,
    is_usage,
    module_usage,
    parameters,
    subjects,
    warns_on_condition,
)
from ctxhub.ingest.python.deprecation_text import find_replacement
from ctxhub.ingest.sphinx_roles import readable_roles

_FRAGMENT_TYPES = {
    "deprecated": "deprecated",
    "deprecation": "deprecated",
    "removed": "removed",
    "removal": "removed",
}

_LABEL = re.compile(r"^[A-Za-z][\w ]{0,20}:\s+(?=\S)")  # "Breaking: Removed ..."
# leading emoji / markers such as "⚠️"; not a Sphinx role's colon (":func:`x`")
_NOISE = re.compile(r"^(?!:[\w:]+:`)[^\w`]+")
#: towncrier's issue links that open an entry: `` `#265 <https://...>`_: `` (reST), or
#: `[#265](https://...): ` (Markdown)
_ISSUE_LINKS = re.compile(r"^(?:(?:`#?\d+ <[^>]*>`_|\[#?\d+\]\([^)]*\))[,:]?\s*)+")


def extract_changelog_deprecations(source: str, relpath: str, text: str) -> list[Deprecation]:
    """One record per name an entry deprecates or removes (since = its version)."""
    if is_reno_note(relpath):
        notes = [Entry(kind, None, line, said) for kind, line, said in reno_entries(text)]
        return once([r for e in notes for r in _records(e, source, relpath)])
    if uses_sphinx_changelog(text):
        entries = sphinx_entries(text)
        return once([r for e in entries for r in _records(e, source, relpath)])
    fragment = fragment_type(relpath)
    if fragment:
        kind = _FRAGMENT_TYPES.get(fragment)
        entries = section_entries(text.splitlines(), 0, kind, None) if kind else []
    else:
        entries = changelog_entries(text.splitlines())
    out: list[Deprecation] = []
    for entry in entries:
        out.extend(_records(entry, source, relpath))
    return once(out)


def once(records: list[Deprecation]) -> list[Deprecation]:
    """One record per name and note: an entry repeated under a pre-release and its
    release (`0.13.0.dev0`, `0.13.0`) is kept once, with the release's version."""
    kept: dict[tuple[str, str | None], Deprecation] = {}
    for r in records:
        key = (r.symbol, r.note)
        held = kept.get(key)
        if held is None or (_prerelease(held.since) and not _prerelease(r.since)):
            kept[key] = r
    return [r for r in records if kept[(r.symbol, r.note)] is r]


def _prerelease(version: str | None) -> bool:
    return version is not None and bool(re.search(r"[A-Za-z]", version))


def _in_module(name: str, module: str | None) -> str:
    """`name` as a member of the module its section is about (`Task` under `tornado.gen`
    is `tornado.gen.Task`; `gen.Task` too; `httputil.X` under `tornado.web` is the sibling
    `tornado.httputil.X`); a name written from the package down is kept."""
    if not module:
        return name
    first = name.split(".", 1)[0]
    if first == module.split(".", 1)[0]:
        return name
    parent, _, last = module.rpartition(".")
    if first == last:
        return f"{parent}.{name}" if parent else name
    if "." in name and first.islower() and parent:
        # `httputil.HTTPHeaders.get_all` under `tornado.web`: a sibling module's member
        return f"{parent}.{name}"
    return f"{module}.{name}"


# "The *cmp* argument": an argument's name in italics is as good as in backticks
_ITALIC_PARAM = re.compile(
    r"(?<![*\w])\*(?P<n>[A-Za-z_]\w*)\*(?![*\w])(?=\s+(?:keyword\s+)?"
    r"(?:argument|parameter|keyword|kwarg|option|flag)s?\b)"
)
# the first sentence withdraws a deprecation, or says the thing is gone
_UNDEPRECATES = re.compile(r"\bun-?deprecated\b|\bno\s+longer\s+deprecated\b", re.I)
_GONE = re.compile(
    r"^(?:remov|drop)|\b(?:was|were|has\s+been|have\s+been|is|are)\s+(?:now\s+)?"
    r"(?:fully\s+|completely\s+)?(?:removed|dropped)\b",
    re.I,
)
_FIRST_SENTENCE = re.compile(r"[.;](?:\s|$)")


def _said_kind(text: str, kind: str) -> str:
    """What the entry's first sentence says became of its names: a Deprecated/removed
    section holds removals ("The `workers` parameter ... was removed") and withdrawn
    deprecations ("... has been undeprecated") as well."""
    end = _FIRST_SENTENCE.search(text)
    first = text[: end.start()] if end else text
    if _UNDEPRECATES.search(first):
        return "undeprecated"
    if kind == "deprecated" and _GONE.search(first) and "deprecat" not in first.lower():
        return "removed"
    return kind


def _records(entry: Entry, source: str, relpath: str) -> list[Deprecation]:
    text = _ISSUE_LINKS.sub("", _NOISE.sub("", entry.text.replace("**", "")))
    text = _ITALIC_PARAM.sub(r"`\g<n>`", text)
    kind = _said_kind(text, entry.kind)
    if entry.bullets:  # "Removed legacy parameter names: * `f` - "x" (use "y"), ..."
        place = Deprecation(
            source=source, symbol="", since=entry.version, path=relpath, line=entry.line
        )
        listed = listed_records(entry.lead, entry.bullets, kind, place)
        if listed:
            return listed
        nested = nested_records(entry.lead, entry.bullets, kind, place)
        if nested:  # the names are the list's; the words before it are read as an entry
            lead = replace(entry, text=entry.lead, lead="", bullets=())
            return nested + _records(lead, source, relpath)
    unlabelled = _LABEL.sub("", text, count=1)
    later = later_sentence(text) if entry.later else None
    if later is not None:  # the names are those of the sentence that deprecates them
        unlabelled = text[later:]
    names_listed = LISTED_AFTER.match(text) if entry.listed else None
    if names_listed is not None:
        unlabelled = text[names_listed.end() :]
    named, after = subjects(unlabelled)
    named = [
        (_in_module(n, entry.module), p)
        for n, p in parameters(named, unlabelled[after:])
        if not is_language_name(n)
    ]
    after += len(text) - len(unlabelled)
    # what replaces it is said after the names, or else before them when a later
    # sentence names them ("... previously called `x` is now named `y`. The old `x` ...")
    rest = _LINK.sub(r"\g<t>", text[after:])  # a Markdown link reads as its text
    replacement = find_replacement(rest) or _renamed_to(rest) or find_replacement(text[:after])
    if later is not None:
        named = [(qualified(n, text), p) for n, p in named]
        replacement = next((r for n, _ in named if (r := renamed_to(n, text))), None)
    removal_said = "remov" in text[:40].lower()
    # the note reads as the rendered changelog does (`.Cls.method` is `Cls.method`)
    shown = readable_roles(text)
    note = shown if kind != "removed" or removal_said else f"Removed: {shown}"
    records = [
        Deprecation(
            source=source,
            symbol=name,
            replacement=replacement if replacement != name else None,
            since=entry.version,
            note=parameter_note(param, note) if param else note,
            path=relpath,
            line=entry.line,
            origin="changelog",
        )
        for name, param in dict.fromkeys(named)
    ]
    if is_usage(unlabelled):  # "Passing a generator to `Router(lifespan=)`": one usage
        records = [
            r.model_copy(update={"note": usage_note(note)}) if r.parameter else r for r in records
        ]
    first_sentence = _FIRST_SENTENCE.split(unlabelled, maxsplit=1)[0]
    if kind == "deprecated" and warns_on_condition(first_sentence):
        # "`X` will emit a warning if ... without passing `y`": one usage of X
        records = [
            r if r.partial else r.model_copy(update={"note": usage_note(note)}) for r in records
        ]
    if named and not records[0].partial and module_usage(unlabelled) == named[0][0]:
        # "Accessing ... on the *kit* module is deprecated": one way of using the module
        records = [r.model_copy(update={"note": usage_note(note)}) for r in records]
    # A removed parameter exists nowhere any more: it is also recorded under its own
    # dotted name (`Cls.method.param`), so asking for it finds the removal.
    records += [
        r.model_copy(update={"symbol": f"{r.symbol}.{r.parameter}", "note": r.text})
        for r in records
        if r.parameter and kind == "removed"
    ]
    return records


_LINK = re.compile(r"\[(?P<t>[^\]\n]+)\]\([^)\s]+\)")

# "renamed to *x*": a parameter's new name is often set in italics, not backticks.
_RENAMED_TO = re.compile(r"\brenamed\s+to\s+[*_]{1,2}(?P<n>[A-Za-z_]\w*)[*_]{1,2}", re.I)


def _renamed_to(text: str) -> str | None:
    match = _RENAMED_TO.search(text)
    return match.group("n") if match else None
