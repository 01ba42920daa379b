"""Where a changelog's entries are: the version headings and `Deprecated` / `Removed`
sections of a Keep-a-Changelog style file (ATX, underlined and bold pseudo-headings),
the bullets or paragraphs of a section or a towncrier fragment, the bullets outside
such sections that open by removing or deprecating a named thing, and the Sphinx
`changelog` extension's tagged entries. Each `Entry` says what became of its names
(its kind), its version and line; changelog.py reads the names and records."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ctxhub.ingest.python.changelog_later import later_sentence
from ctxhub.ingest.python.changelog_nested import LISTS_NAMES, split_nested
from ctxhub.ingest.python.changelog_sphinx import sphinx_changes

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
    r"(?:is|are|was|were|has\s+been|have\s+been)\s+(?:now\s+)?(?:fully\s+)?"
    r"(?P<verb>removed|deprecated|undeprecated)\b",
    re.IGNORECASE,
)
# An entry that says some things are gone or deprecated, then lists them: "Some older
# portions of this module have been removed. This includes `engine`, ..., and `Task`."
LISTED_AFTER = re.compile(
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


@dataclass
class Entry:
    """One entry of a changelog: what became of the names it gives, under which version,
    at which line (1-based), its text."""

    kind: str  # deprecated | removed
    version: str | None
    line: int
    text: str
    lead: str = ""  # a Sphinx entry's words before its bullet list, and the list's items
    bullets: tuple[str, ...] = ()
    later: bool = False  # a later sentence deprecates the names (changelog_later.py)
    listed: bool = False  # the names follow "This includes" (`LISTED_AFTER`)
    module: str | None = None  # the module its heading names


#: `:tags:` of a Sphinx changelog entry that say what became of the names it gives
_SPHINX_TAGS = {"deprecated": "deprecated", "deprecations": "deprecated", "removed": "removed"}


def sphinx_entries(text: str) -> list[Entry]:
    """Entries of the Sphinx `changelog` extension's format tagged `removed` or
    `deprecated`, or that open by removing or deprecating a named thing."""
    out: list[Entry] = []
    for change in sphinx_changes(text):
        kinds = {_SPHINX_TAGS[t] for t in change.tags if t in _SPHINX_TAGS}
        kind = "removed" if "removed" in kinds else next(iter(kinds), None)
        if kind is None:
            loose = _LOOSE.match(change.text) or _LOOSE_PASSIVE.match(change.text)
            kind = _kind_of(loose.group("verb")) if loose else None
        if kind is not None:
            entry = Entry(kind, change.version, change.line, change.text)
            out.append(replace(entry, lead=change.lead, bullets=change.bullets))
    return out


def _kind_of(verb: str) -> str:
    return "removed" if verb.lower() in ("removed", "dropped") else "deprecated"


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


def changelog_entries(lines: list[str]) -> list[Entry]:
    """The entries of a Keep-a-Changelog style file: those of its Deprecated / Removed
    sections, and the loose ones elsewhere under a version, each with the module its
    heading names (tornado's "`tornado.gen`")."""
    heads = _headings(lines)
    entries: list[Entry] = []
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
        entries.extend(section_entries(lines[start : min(end, body_end)], start, kind, version))
        read.append((i, min(end, body_end)))
    if versions:
        entries.extend(_loose_entries(lines, versions, read))
    return [replace(e, module=_module_above(heads, e.line - 1)) for e in entries]


def _module_above(heads: list[tuple[int, int, str]], index: int) -> str | None:
    """The module the nearest heading above line `index` names, if it names one."""
    above = [text for i, _, text in heads if i < index]
    match = _MODULE_HEADING.match(above[-1].strip()) if above else None
    return match.group("m") if match else None


def _loose_entries(
    lines: list[str], versions: list[tuple[int, str | None]], read: list[tuple[int, int]]
) -> list[Entry]:
    """Bullets outside the Deprecated/Removed sections (at any depth) that open by
    removing or deprecating a named thing; each of the version above it."""
    out: list[Entry] = []
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
        listed = None if loose else LISTED_AFTER.match(text)
        later = loose is None and listed is None and later_sentence(text) is not None
        names_below = None if loose or listed or later else LISTS_NAMES.search(text)
        if names_below is not None and any(at < i for at, _ in versions):
            # "The following helpers are deprecated:" and a nested list of them
            end = _nested_end(lines, j, indent)
            lead, items = split_nested(lines[i:end])
            if items:
                version = next((v for at, v in reversed(versions) if at < i), None)
                kind = _kind_of(names_below.group("verb"))
                entry = Entry(kind, version, i + 1, text, lead=lead, bullets=items)
                out.append(entry)
                i = end
                continue
        if (loose or listed or later) and any(at < i for at, _ in versions):
            verb = loose or listed
            kind = _kind_of(verb.group("verb")) if verb else "deprecated"
            version = next((v for at, v in reversed(versions) if at < i), None)
            out.append(Entry(kind, version, i + 1, text, later=later, listed=bool(listed)))
        i = j
    return out


def _nested_end(lines: list[str], j: int, indent: int) -> int:
    """Where the lines indented below a bullet (at `indent`) from line j end."""
    while j < len(lines) and (
        not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent
    ):
        j += 1
    return j


def section_entries(lines: list[str], offset: int, kind: str, version: str | None) -> list[Entry]:
    """The entries of one section (or a towncrier fragment), all of `kind` and `version`:
    bullets (with their continuation lines) or, without bullets, paragraphs; `offset` is
    the index of `lines[0]` in the file."""
    entries: list[Entry] = []
    current: list[str] = []
    raw: list[str] = []  # the entry's lines as written, for a nested list (changelog_nested)
    start = 0
    fenced = False
    indents = [len(line) - len(line.lstrip()) for line in lines if _BULLET.match(line)]
    has_bullets = bool(indents)
    base = min(indents) if indents else 0  # deeper bullets continue their parent entry

    def flush() -> None:
        text = " ".join(s.strip() for s in current if s.strip())
        if text:
            lead, items = split_nested(raw) if has_bullets else ("", ())
            entry = Entry(kind, version, offset + start + 1, text)
            entries.append(replace(entry, lead=lead, bullets=items) if items else entry)
        current.clear()
        raw.clear()

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
        if current:
            raw.append(line)
    flush()
    return entries
