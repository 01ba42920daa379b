"""The Sphinx `changelog` extension's format (SQLAlchemy, alembic, Mako, dogpile):
entries are `.. change::` directives with a `:tags:` option, inside a
`.. changelog::` directive whose `:version:` option is their release; unreleased
entries sit one per file in an `unreleased*/` folder, outside any `.. changelog::`.

    .. changelog::
        :version: 1.5.0

        .. change::
            :tags: removed, autogenerate

            The long deprecated ``include_symbol`` hook is removed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_CHANGELOG = re.compile(r"^(?P<indent>\s*)\.\.\s+changelog::\s*$")
_CHANGE = re.compile(r"^(?P<indent>\s*)\.\.\s+change::\s*$")
_OPTION = re.compile(r"^\s*:(?P<key>[\w-]+):\s*(?P<value>.*?)\s*$")
# a nested directive (`.. seealso::`, `.. note::`) ends what the entry says of itself
_DIRECTIVE = re.compile(r"^\s*\.\.\s+[\w-]+::")
_UNRELEASED_DIR = re.compile(r"^unreleased(?:[_-]\w+)?$", re.IGNORECASE)


@dataclass(frozen=True)
class SphinxChange:
    tags: frozenset[str]
    version: str | None
    line: int  # 1-based line of the entry's first words
    text: str
    bullets: tuple[str, ...] = ()  # the items of its bullet list, each on one line
    lead: str = ""  # its words before that list


def uses_sphinx_changelog(text: str) -> bool:
    return any(_CHANGE.match(line) for line in text.splitlines())


def is_unreleased_fragment(relpath: str) -> bool:
    """`docs/build/unreleased/1234.rst`: one entry of the next release."""
    parts = relpath.split("/")
    return (
        len(parts) > 1
        and bool(_UNRELEASED_DIR.match(parts[-2]))
        and parts[-1].lower().endswith(".rst")
    )


def sphinx_changes(text: str) -> list[SphinxChange]:
    """Every `.. change::` entry, with its tags and the version of the `.. changelog::`
    it is under (None outside one: an unreleased fragment)."""
    lines = text.splitlines()
    out: list[SphinxChange] = []
    version: str | None = None
    changelog_indent = -1
    i = 0
    while i < len(lines):
        line = lines[i]
        ends_block = changelog_indent >= 0 and _indent(line) <= changelog_indent
        if line.strip() and ends_block and not _CHANGELOG.match(line):
            version, changelog_indent = None, -1  # text after the last release's block
        block = _CHANGELOG.match(line)
        if block:
            changelog_indent = len(block.group("indent"))
            options, i = _options(lines, i + 1)
            version = options.get("version") or None
            continue
        change = _CHANGE.match(line)
        if not change:
            i += 1
            continue
        options, i = _options(lines, i + 1)
        start = i
        body, first, i = _body(lines, i, len(change.group("indent")))
        tags = frozenset(t.strip().lower() for t in options.get("tags", "").split(",") if t.strip())
        if body:
            lead, bullets = _bullets(lines[start:i])
            out.append(SphinxChange(tags, version, first + 1, body, bullets, lead))
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _options(lines: list[str], i: int) -> tuple[dict[str, str], int]:
    """The `:key: value` lines right after a directive, and where they end."""
    options: dict[str, str] = {}
    while i < len(lines):
        match = _OPTION.match(lines[i])
        if not lines[i].strip() or match is None:
            break
        options[match.group("key").lower()] = match.group("value")
        i += 1
    return options, i


_BULLET = re.compile(r"^(?P<indent>\s*)[*+-]\s+(?P<text>\S.*)$")


def _bullets(lines: list[str]) -> tuple[str, tuple[str, ...]]:
    """The words before the entry's own bullet list, and its items (up to a nested
    directive), each with its wrapped lines joined: ":meth:`.Ops.drop` - "type" (use ...)"."""
    lead: list[str] = []
    items: list[list[str]] = []
    indent = -1
    for line in lines:
        if _DIRECTIVE.match(line):
            break
        bullet = _BULLET.match(line)
        if bullet is None and not items:
            lead.append(line.strip())
            continue
        if bullet is not None and indent in (-1, len(bullet.group("indent"))):
            indent = len(bullet.group("indent"))
            items.append([bullet.group("text").strip()])
        elif items and line.strip() and _indent(line) > indent:
            items[-1].append(line.strip())
        elif line.strip() and items:
            break  # prose after the list: the list has ended
    return " ".join(w for w in lead if w), tuple(" ".join(item) for item in items)


def _body(lines: list[str], i: int, indent: int) -> tuple[str, int, int]:
    """The entry's own text (its paragraphs and bullets, up to a nested directive or
    the next line at the directive's indentation), its first line, and where it ends."""
    kept: list[str] = []
    first = i
    stopped = False
    while i < len(lines):
        line = lines[i]
        if line.strip() and _indent(line) <= indent:
            break
        if _DIRECTIVE.match(line):
            stopped = True
        if not stopped and line.strip():
            if not kept:
                first = i
            kept.append(line.strip())
        i += 1
    return " ".join(kept), first, i
