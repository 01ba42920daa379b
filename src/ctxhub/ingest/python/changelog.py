"""Deprecations and removals announced in a changelog.

Two layouts: a Keep-a-Changelog style file (`CHANGELOG.md`, `CHANGES.rst`, ...) whose
version headings hold `Deprecated` / `Removed` sections of bullet entries, and
towncrier fragments (`changelog/1234.deprecated.md`) that are entries of the next,
unreleased version. Each entry names what it deprecates in backticks; the names that
open it (`Deprecated `a`, `b` and `c`. Use `d` instead.`) become one record each.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ctxhub.core.knowledge import Deprecation, parameter_note, usage_note
from ctxhub.ingest.python.changelog_files import fragment_type
from ctxhub.ingest.python.changelog_later import later_sentence, qualified, renamed_to
from ctxhub.ingest.python.changelog_parameter_lists import listed_records
from ctxhub.ingest.python.changelog_reno import is_reno_note, reno_entries
from ctxhub.ingest.python.changelog_sphinx import sphinx_changes, uses_sphinx_changelog
from ctxhub.ingest.python.changelog_subjects import (
    is_language_name,
    is_usage,
    parameters,
    subjects,
)
from ctxhub.ingest.python.deprecation_text import find_replacement
from ctxhub.ingest.sphinx_roles import readable_roles

_FRAGMENT_TYPES = {
    "deprecated": "deprecated",
    "deprecation": "deprecated",
    "removed": "removed",
    "removal": "removed",
}

_ATX = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
# A line set in bold or italics alone, after a blank line: a version (`**4.16.0**`) or a
# section (`**Deprecations**:`, `*Bug fixes*`) in changelogs that use no headings for them.
_PSEUDO_HEADING = re.compile(r"^(\*{1,2})(?P<text>[^*\n]{1,40})\1\s*:?\s*$")
_PSEUDO_LEVEL = 99  # below every real heading
# A horizontal rule between versions ends an entry; it is no part of one.
_RULE = re.compile(r"^\s{0,3}([-*_])(?:\s*\1){2,}\s*$")
# An entry outside a Deprecated/Removed section that opens by removing or deprecating a
# named thing: "Removed the ``Event.clear()`` method", "**BREAKING** Dropped `x`".
_LOOSE = re.compile(
    r"^(?:\*\*[^*\n]+\*\*\s*:?\s*|[A-Z][A-Za-z ]{0,20}:\s+)?"
    r"(?P<verb>removed|dropped|deprecated)\s+(?:support\s+for\s+)?(?:the\s+)?"
    r"(?:(?:deprecated|undocumented|old)\s+)?"
    r"(?:(?:method|function|class|parameter|argument|attribute|property|alias|option"
    r"|module|keyword)s?\s+)?`",
    re.IGNORECASE,
)
# Or that opens with the names and says they are gone or deprecated: "``MultiError``
# has been deprecated in favor of ...", "`a` and `b` are now deprecated".
_CODE = r"(?::[\w:]+:)?`{1,2}[^`\n]+`{1,2}"
_LOOSE_PASSIVE = re.compile(
    rf"^(?:the\s+)?{_CODE}(?:\s*(?:,\s*(?:and|or)?|and|or|&)\s*{_CODE})*\s+"
    r"(?:(?:method|function|class|module|attribute|parameter|argument|alias|decorator"
    r"|constant|exception|property|mixin)s?\s+)?"
    r"(?:is|are|has\s+been|have\s+been)\s+(?:now\s+)?(?:fully\s+)?"
    r"(?P<verb>removed|deprecated|undeprecated)\b",
    re.IGNORECASE,
)
# An entry that says some things are gone or deprecated, then lists them: "Some older
# portions of this module have been removed. This includes `engine`, ..., and `Task`."
_LISTED_AFTER = re.compile(
    r"^[^`]*?\b(?:has|have)\s+been\s+(?P<verb>removed|dropped|deprecated)\b[^`]*?[.:]\s+"
    r"(?:this|these|they|which)\s+(?:includes?|are|were)\s+(?=(?::[\w:]+:)?`)",
    re.IGNORECASE,
)
# A heading that is one module's name (tornado's release pages: "`tornado.gen`"): the
# names its entries give are that module's.
_MODULE_HEADING = re.compile(r"^(?::mod:)?`{1,2}~?(?P<m>[a-z_]\w*(?:\.[a-z_]\w*)*)`{1,2}$")
_RST_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+])\1{2,}\s*$")
_VERSION = re.compile(r"\bv?(\d+(?:\.\d+)+(?:[-.+]?[A-Za-z0-9]+)*)")
_SECTION = re.compile(r"^\W*(?P<kind>deprecat|remov)", re.IGNORECASE)
_BULLET = re.compile(r"^\s{0,3}(?:[-*+]|\d+[.)])\s+")
_FENCE = re.compile(r"^\s*(```|~~~)")
_LABEL = re.compile(r"^[A-Za-z][\w ]{0,20}:\s+(?=\S)")  # "Breaking: Removed ..."
# leading emoji / markers such as "⚠️"; not a Sphinx role's colon (":func:`x`")
_NOISE = re.compile(r"^(?!:[\w:]+:`)[^\w`]+")
#: towncrier's issue links that open an entry: `` `#265 <https://...>`_: `` (reST), or
#: `[#265](https://...): ` (Markdown)
_ISSUE_LINKS = re.compile(r"^(?:(?:`#?\d+ <[^>]*>`_|\[#?\d+\]\([^)]*\))[,:]?\s*)+")


@dataclass
class _Entry:
    kind: str  # deprecated | removed
    version: str | None
    line: int
    text: str
    lead: str = ""  # a Sphinx entry's words before its bullet list, and the list's items
    bullets: tuple[str, ...] = ()
    later: bool = False  # a later sentence deprecates the names (changelog_later.py)
    listed: bool = False  # the names follow "This includes" (`_LISTED_AFTER`)
    module: str | None = None  # the module its heading names


def extract_changelog_deprecations(source: str, relpath: str, text: str) -> list[Deprecation]:
    """One record per name an entry deprecates or removes (since = its version)."""
    if is_reno_note(relpath):
        notes = [_Entry(kind, None, line, said) for kind, line, said in reno_entries(text)]
        return once([r for e in notes for r in _records(e, source, relpath)])
    if uses_sphinx_changelog(text):
        entries = _sphinx_entries(text)
        return once([r for e in entries for r in _records(e, source, relpath)])
    fragment = fragment_type(relpath)
    if fragment:
        kind = _FRAGMENT_TYPES.get(fragment)
        entries = _entries(text.splitlines(), 0, kind, None) if kind else []
    else:
        entries = _changelog_entries(text.splitlines())
    out: list[Deprecation] = []
    for entry in entries:
        out.extend(_records(entry, source, relpath))
    return once(out)


#: `:tags:` of a Sphinx changelog entry that say what became of the names it gives
_SPHINX_TAGS = {"deprecated": "deprecated", "deprecations": "deprecated", "removed": "removed"}


def _sphinx_entries(text: str) -> list[_Entry]:
    """Entries of the Sphinx `changelog` extension's format tagged `removed` or
    `deprecated`, or that open by removing or deprecating a named thing."""
    out: list[_Entry] = []
    for change in sphinx_changes(text):
        kinds = {_SPHINX_TAGS[t] for t in change.tags if t in _SPHINX_TAGS}
        kind = "removed" if "removed" in kinds else next(iter(kinds), None)
        if kind is None:
            loose = _LOOSE.match(change.text) or _LOOSE_PASSIVE.match(change.text)
            kind = _kind_of(loose.group("verb")) if loose else None
        if kind is not None:
            entry = _Entry(kind, change.version, change.line, change.text)
            out.append(replace(entry, lead=change.lead, bullets=change.bullets))
    return out


def _kind_of(verb: str) -> str:
    return "removed" if verb.lower() in ("removed", "dropped") else "deprecated"


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


def _is_fence(lines: list[str], i: int) -> bool:
    """A Markdown code fence; a `~~~` line that underlines the line above is a reST
    heading's underline (towncrier's "Features" / "Deprecations and removals"), not one."""
    if not _FENCE.match(lines[i]):
        return False
    return not (i > 0 and _underlines(lines[i - 1], lines[i]))


def _underlines(line: str, nxt: str) -> bool:
    """`nxt` is a reST/setext underline of `line`."""
    return bool(
        _RST_UNDERLINE.match(nxt)
        and line.strip()
        and not _BULLET.match(line)
        and len(nxt.strip()) >= len(line.strip())
    )


def _headings(lines: list[str]) -> list[tuple[int, int, str]]:
    """(line index, level, text) of ATX and underlined (RST/setext) headings, outside fences."""
    found: list[tuple[int, int, str]] = []
    underline_levels: list[str] = []
    fenced = False
    for i, line in enumerate(lines):
        if _is_fence(lines, i):
            fenced = not fenced
            continue
        if fenced:
            continue
        atx = _ATX.match(line)
        if atx:
            found.append((i, len(atx.group(1)), atx.group(2)))
            continue
        pseudo = _PSEUDO_HEADING.match(line)
        if pseudo and (i == 0 or not lines[i - 1].strip()):
            found.append((i, _PSEUDO_LEVEL, pseudo.group("text").strip()))
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        under = _RST_UNDERLINE.match(nxt)
        if under and _underlines(line, nxt):
            char = under.group(1)
            if char not in underline_levels:
                underline_levels.append(char)
            found.append((i, underline_levels.index(char) + 1, line.strip()))
    return found


def _changelog_entries(lines: list[str]) -> list[_Entry]:
    heads = _headings(lines)
    entries: list[_Entry] = []
    version: str | None = None
    versions: list[tuple[int, str | None]] = []  # (line, version) where each starts
    read: list[tuple[int, int]] = []  # the Deprecated/Removed sections' line spans
    for n, (i, level, text) in enumerate(heads):
        section = _SECTION.match(text)
        if not section:
            match = _VERSION.search(text)
            if match or "unreleased" in text.lower():
                version = match.group(1) if match else None
                versions.append((i, version))
            continue
        # The section runs to the next heading of its level or above.
        end = next((j for j, lvl, _ in heads[n + 1 :] if lvl <= level), len(lines))
        body_end = next((j for j, _, _ in heads[n + 1 :]), len(lines))
        kind = "deprecated" if section.group("kind").lower() == "deprecat" else "removed"
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        start = i + 2 if _underlines(lines[i], nxt) else i + 1  # past a reST underline
        entries.extend(_entries(lines[start : min(end, body_end)], start, kind, version))
        read.append((i, min(end, body_end)))
    if versions:
        entries.extend(_loose_entries(lines, versions, read))
    return [replace(e, module=_module_above(heads, e.line - 1)) for e in entries]


def _module_above(heads: list[tuple[int, int, str]], index: int) -> str | None:
    """The module the nearest heading above line `index` names, if it names one."""
    above = [text for i, _, text in heads if i < index]
    match = _MODULE_HEADING.match(above[-1].strip()) if above else None
    return match.group("m") if match else None


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


def _loose_entries(
    lines: list[str], versions: list[tuple[int, str | None]], read: list[tuple[int, int]]
) -> list[_Entry]:
    """Bullets outside the Deprecated/Removed sections (at any depth) that open by
    removing or deprecating a named thing; each of the version above it."""
    out: list[_Entry] = []
    i = 0
    while i < len(lines):
        bullet = _BULLET.match(lines[i].lstrip())
        if not bullet or any(a <= i < b for a, b in read):
            i += 1
            continue
        indent = len(lines[i]) - len(lines[i].lstrip())
        body, j = [lines[i].lstrip()[bullet.end() :]], i + 1
        while j < len(lines) and lines[j].strip() and not _BULLET.match(lines[j].lstrip()):
            if len(lines[j]) - len(lines[j].lstrip()) <= indent:
                break
            body.append(lines[j].strip())
            j += 1
        text = " ".join(b.strip() for b in body if b.strip())
        loose = _LOOSE.match(text) or _LOOSE_PASSIVE.match(text)
        listed = None if loose else _LISTED_AFTER.match(text)
        later = loose is None and listed is None and later_sentence(text) is not None
        if (loose or listed or later) and any(at < i for at, _ in versions):
            verb = loose or listed
            kind = _kind_of(verb.group("verb")) if verb else "deprecated"
            version = next((v for at, v in reversed(versions) if at < i), None)
            out.append(_Entry(kind, version, i + 1, text, later=later, listed=bool(listed)))
        i = j
    return out


def _entries(lines: list[str], offset: int, kind: str, version: str | None) -> list[_Entry]:
    """Bullets (with their continuation lines) or, without bullets, paragraphs."""
    entries: list[_Entry] = []
    current: list[str] = []
    start = 0
    fenced = False
    indents = [len(line) - len(line.lstrip()) for line in lines if _BULLET.match(line)]
    has_bullets = bool(indents)
    base = min(indents) if indents else 0  # deeper bullets continue their parent entry

    def flush() -> None:
        text = " ".join(s.strip() for s in current if s.strip())
        if text:
            entries.append(_Entry(kind, version, offset + start + 1, text))
        current.clear()

    for i, line in enumerate(lines):
        if _is_fence(lines, i):
            fenced = not fenced
            continue
        if fenced:
            continue  # code samples belong to the entry's story, not its names
        if _RULE.match(line):
            flush()
            continue
        if has_bullets:
            starts = bool(_BULLET.match(line)) and len(line) - len(line.lstrip()) == base
        else:
            starts = not line.strip()
        if starts or (not has_bullets and not current):
            flush()
            start = i
        if line.strip():
            current.append(_BULLET.sub("", line, count=1) if has_bullets else line)
    flush()
    return entries


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


def _records(entry: _Entry, source: str, relpath: str) -> list[Deprecation]:
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
    unlabelled = _LABEL.sub("", text, count=1)
    later = later_sentence(text) if entry.later else None
    if later is not None:  # the names are those of the sentence that deprecates them
        unlabelled = text[later:]
    names_listed = _LISTED_AFTER.match(text) if entry.listed else None
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
    replacement = (
        find_replacement(text[after:])
        or _renamed_to(text[after:])
        or find_replacement(text[:after])
    )
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
    # A removed parameter exists nowhere any more: it is also recorded under its own
    # dotted name (`Cls.method.param`), so asking for it finds the removal.
    records += [
        r.model_copy(update={"symbol": f"{r.symbol}.{r.parameter}", "note": r.text})
        for r in records
        if r.parameter and kind == "removed"
    ]
    return records


# "renamed to *x*": a parameter's new name is often set in italics, not backticks.
_RENAMED_TO = re.compile(r"\brenamed\s+to\s+[*_]{1,2}(?P<n>[A-Za-z_]\w*)[*_]{1,2}", re.I)


def _renamed_to(text: str) -> str | None:
    match = _RENAMED_TO.search(text)
    return match.group("n") if match else None
