"""What a deprecation note is about when it is not the documented object itself.

A note may deprecate one parameter or keyword of a function (`.. deprecated:: 24.1.0
*repr_ns*`, "It is now deprecated to pass the instance using the keyword argument
*inst*", a warning guarded by a test on one argument, an `Annotated[..., Doc("... this
usage is deprecated ...")]`), and a later `.. versionchanged::` of the same docstring may
supersede it ("*inst* can't be passed as a keyword argument anymore", "*cmp*
undeprecated"). These read the phrasing only; no framework is known by name.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from ctxhub.ingest.python.callgraph import dotted_chain
from ctxhub.ingest.python.deprecation_text import parameter_entry

_WORD = r"[A-Za-z_]\w*"


def _marked(p: str = "") -> str:
    """`*name*` (how Sphinx docstrings mark an argument) or a code mark (``x``, `x`, 'x');
    `p` prefixes the group names so that one pattern can hold two."""
    return (
        rf"(?:\*(?P<{p}emph>{_WORD})\*|(?P<{p}mark>`{{1,2}}|['\"])(?P<{p}code>{_WORD})(?P={p}mark))"
    )


_MARKED = _marked()
# A note that opens with the name: "*repr_ns*", "*hash* is deprecated in favor of ...",
# "*cmp* Removal on or after ...".
_LEAD = re.compile(rf"^\s*{_MARKED}(?P<after>.*)$", re.DOTALL)
_LEAD_FOLLOW = re.compile(
    r"^\s*(?:$|[,.;:(]|(?:is|are|was|were|has|have|will|and|or|removal|keyword|argument"
    r"|parameter|kwarg|option)\b)",
    re.IGNORECASE,
)
_KIND = r"(?:keyword\s+argument|argument|parameter|kwarg|keyword|option)s?"
# "... using the keyword argument *inst*", "the `x` argument", "parameter 'y'"
_NAMED = re.compile(
    rf"\b{_KIND}\s+(?:{_MARKED}|(?P<bare>{_WORD}))|{_marked('r_')}\s+{_KIND}",
    re.IGNORECASE,
)
_PASSING = re.compile(
    rf"^\s*(?:passing|using|setting|specifying)\s+(?:{_MARKED}|(?P<bare>{_WORD}))",
    re.IGNORECASE,
)
# A sentence that speaks of passing or deprecating; not one that says what to use instead
# ("Use `g`, which takes the argument `x`" names the replacement's argument).
_ABOUT_USAGE = re.compile(r"deprecat|\bpass(?:ed|ing)?\b", re.IGNORECASE)
_INSTEAD = re.compile(r"^\W*(?:use|prefer|import|call|switch|migrate)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*'\"])")
_DEPRECATED = re.compile(r"\bdeprecated\b", re.IGNORECASE)
_FENCED = re.compile(r"^\s*(```|~~~).*?^\s*\1[^\n]*$", re.MULTILINE | re.DOTALL)
_NOT_DEPRECATED = re.compile(r"\b(?:not|no\s+longer|un-?)\s*deprecated\b", re.IGNORECASE)


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def _name(match: re.Match[str], prefix: str = "") -> str | None:
    for group in ("emph", "code", "bare"):
        value = match.groupdict().get(prefix + group)
        if value:
            return value
    return None


def note_parameter(text: str, params: set[str]) -> str | None:
    """The parameter (or keyword) a note deprecates, when its subject is one.

    An emphasized `*name*` opening the note is an argument by docstring convention; a
    code-marked one only when the function takes it; a name called an argument,
    parameter or keyword in a sentence about passing or deprecating; "passing x"."""
    lead = _LEAD.match(text)
    if lead and _LEAD_FOLLOW.match(lead.group("after")):
        name = _name(lead)
        if name and (lead.group("emph") or name in params):
            return name
    for sentence in sentences(text):
        passing = _PASSING.match(sentence)
        if passing:
            name = _name(passing)
            if name and (name in params or not passing.group("bare")):
                return name
        if not _ABOUT_USAGE.search(sentence) or _INSTEAD.match(sentence):
            continue
        for match in _NAMED.finditer(sentence):
            name = _name(match) or _name(match, "r_")
            if name and (name in params or not match.group("bare")):
                return name
    return None


def guard_parameter(test: ast.expr, params: set[str], subject: str | None) -> str | None:
    """The argument a warning's guard tests: the subject the message names when the test
    reads it (`if self._custom_x is not None` for "'x' is deprecated"), else the one
    parameter the test reads."""
    # names the test reads (not the strings it compares with): `_custom_x` reads x
    read_names = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)}
    read_names |= {n.attr for n in ast.walk(test) if isinstance(n, ast.Attribute)}
    if subject and any(f"_{subject}_" in f"_{name}_" for name in read_names):
        return subject
    read = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)} & params
    return read.pop() if len(read) == 1 else None


def deprecated_sentences(text: str, name: str | None = None) -> str | None:
    """The sentences of parameter `name`'s documentation that say it (or a usage) is
    deprecated, or that it will be removed in a future version (a pending deprecation);
    None when none does.

    Words in code marks are code, not a statement (`deprecated=True`). A parameter that
    marks something else deprecated (`deprecated: bool`, "Mark this command as
    deprecated") is a feature: its doc speaks of what the user marks, so such sentences,
    and for a parameter named after the word any sentence that does not say the
    parameter itself is deprecated, do not count."""
    prose = _FENCED.sub("\n\n", text)  # an example's code is no statement
    paragraphs = re.split(r"\n\s*\n", prose)
    said = [s for p in paragraphs for s in sentences(" ".join(p.split())) if _says_deprecated(s)]
    said = [s for s in said if not _NOT_DEPRECATED.search(s) and not _MARKS_OTHER.search(s)]
    if name is not None and _DEPRECATED_WORD.search(name):
        said = [s for s in said if _says_itself(s, name)]
    return " ".join(said) or None


_CODE_SPAN = re.compile(r"(`{1,2})[^`\n]+?\1")
# "Will likely be removed in future versions", "is scheduled for removal": still there,
# on its way out. A removal already made ("was removed") or one that is no API change
# ("the folder will be removed after the request") is none.
_PENDING_REMOVAL = re.compile(
    r"\b(?:will|may|might|(?:is|are)\s+(?:going|scheduled|planned|slated)\s+to)\s+"
    r"(?:\w+\s+){0,2}?be\s+(?:removed|dropped|deleted)\s+(?:in|from|with|by)\s+"
    r"(?:(?:a|an|the|some)\s+)?(?:future|next|upcoming|later|coming|subsequent|major|v?\d)"
    r"|\b(?:scheduled|slated|planned)\s+for\s+removal\b",
    re.IGNORECASE,
)


def _says_deprecated(sentence: str) -> bool:
    """The sentence's prose (code marks left out) says deprecated, or removed later."""
    prose = _CODE_SPAN.sub(" ", sentence)
    return bool(_DEPRECATED.search(prose) or _PENDING_REMOVAL.search(prose))


# "Mark this command as deprecated", "shows it as deprecated in the help": what the
# parameter does to another object, not a note about the parameter ("passing x is
# marked as deprecated", a passive, still is one).
_MARKS_OTHER = re.compile(
    r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )(?<!\bbeen )(?<!\bbe )"
    r"\b(?:mark|show|display|flag|label|list|render|print|treat|tag|highlight)\w*\b"
    r"[^.;]*?\bas\s+(?:being\s+)?deprecated\b",
    re.IGNORECASE,
)
_DEPRECATED_WORD = re.compile(r"deprecat", re.IGNORECASE)
_ITSELF = re.compile(
    rf"\bthis\s+{_KIND}\s+(?:itself\s+)?(?:is|are|has\s+been|was)\s+(?:now\s+)?deprecated",
    re.IGNORECASE,
)


def _says_itself(sentence: str, name: str) -> bool:
    """ "This parameter is deprecated", or "`name` is deprecated" for parameter `name`."""
    if _ITSELF.search(sentence):
        return True
    lead = _LEAD.match(sentence)
    return bool(lead and _name(lead) == name and _DEPRECATED.search(lead.group("after")))


def names_only(text: str, name: str) -> bool:
    """The note is the parameter's name and nothing more (`*repr_ns*`): it says nothing
    of its own."""
    return text.strip().strip("*`'\" .,;:") == name


def parameter_said(doc: str, param: str, text: str, version: str | None) -> tuple[str, bool]:
    """What a docstring note about parameter `param` says, and whether it is bare: a note
    that is only the parameter's name (`.. deprecated:: 24.1.0 *repr_ns*`) takes the
    sentences of the parameter's own entry that say it is deprecated, else it says no
    more than "deprecated since V" (bare)."""
    if text.strip() and not names_only(text, param):
        return text, False
    said = deprecated_sentences(parameter_entry(doc, param) or "", param)
    if said:
        return said, False
    return "deprecated" + (f" since {version}." if version else "."), True


def annotated_docs(args: ast.arguments, marker: str = "Doc") -> list[tuple[str, str, int]]:
    """(parameter, text, line) for each `Annotated[T, Doc("text")]` parameter (PEP 727's
    documentation in the annotation); with `marker="deprecated"`, each parameter whose
    annotation carries a `deprecated("message")` (PEP 702's marker) and its message."""
    out = []
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    for arg in every:
        note = arg.annotation if arg is not None else None
        if arg is None or not isinstance(note, ast.Subscript):
            continue
        chain = dotted_chain(note.value)
        if not chain or chain[-1] != "Annotated" or not isinstance(note.slice, ast.Tuple):
            continue
        for item in note.slice.elts[1:]:
            chain = dotted_chain(item.func) if isinstance(item, ast.Call) else None
            if not chain or chain[-1] != marker or not isinstance(item, ast.Call):
                continue
            first = item.args[0] if item.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                out.append((arg.arg, first.value, item.lineno))
    return out


# -- later notes of the same docstring ---------------------------------------------------

_VERSION_NOTE = re.compile(
    r"^\.\.\s+(?P<kind>versionchanged|versionadded|versionremoved|deprecated)::"
    r"[ \t]*(?P<version>\S*)[ \t]*(?P<rest>.*)$"
)
_REFERENCE = re.compile(rf"{_MARKED}|:\w+:`~?(?P<role>[\w.]+)`")
_UNDONE = re.compile(r"\bun-?deprecated\b|\bno\s+longer\s+deprecated\b", re.IGNORECASE)
_WORDING = {"versionchanged": "changed", "versionadded": "added", "versionremoved": "removed"}


@dataclass(frozen=True)
class VersionNote:
    """One top-level `.. versionchanged::` (or added, removed, deprecated) note."""

    kind: str
    version: str | None
    text: str
    line_offset: int


@dataclass(frozen=True)
class Supersession:
    """A later note about the same subject: it undoes the deprecation, or says what
    became of it."""

    undone: bool
    text: str  # "changed in 24.1.0: *inst* can't be passed as a keyword argument anymore."


def version_notes(doc: str) -> list[VersionNote]:
    """The top-level version notes of a cleaned docstring, in order."""
    lines = doc.splitlines()
    out = []
    for i, line in enumerate(lines):
        match = _VERSION_NOTE.match(line)
        if not match:
            continue
        body = [match.group("rest").strip()]
        for follow in lines[i + 1 :]:
            if follow.strip() and not follow[:1].isspace():
                break
            body.append(follow.strip())
        text = " ".join(b for b in body if b)
        out.append(VersionNote(match.group("kind"), match.group("version") or None, text, i))
    return out


def _first_reference(text: str) -> str | None:
    match = _REFERENCE.search(text)
    if not match:
        return None
    return match.group("role") or _name(match)


def _key(version: str | None) -> tuple[int, ...] | None:
    parts = re.findall(r"\d+", version or "")
    return tuple(int(p) for p in parts) if parts else None


def superseded(
    notes: list[VersionNote], line_offset: int, version: str | None, text: str
) -> Supersession | None:
    """Whether a later note of the docstring opens with the same subject as the
    deprecation note at `line_offset` (its first referenced name) and so supersedes it."""
    subject = _first_reference(text)
    if subject is None:
        return None
    mine = _key(version)
    later = []
    for note in notes:
        if note.line_offset == line_offset or note.kind == "deprecated":
            continue
        theirs = _key(note.version)
        newer = theirs > mine if mine and theirs else note.line_offset > line_offset
        if newer and _first_reference(note.text) == subject:
            later.append(note)
    if not later:
        return None
    undo = next((n for n in later if _UNDONE.search(n.text)), None)
    note = undo or later[0]
    said = f"{_WORDING.get(note.kind, note.kind)} in {note.version or 'a later version'}"
    return Supersession(undone=undo is not None, text=f"{said}: {note.text}")
