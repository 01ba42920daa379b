"""A changelog entry that removes or deprecates parameters and lists them in bullets,
one owner a bullet (alembic's 1.5.0 "Removed legacy parameter names from operations"):

    * :meth:`.Operations.drop_constraint` - "type" (use ``"type_"``) and "name"
      (use "constraint_name")

Each bullet that opens with a code-marked owner and then lists nothing but quoted names
(each with what to use instead, in parentheses) names parameters of that owner. The
owner's own name says nothing of what became of it (`drop_constraint` is not dropped).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ctxhub.core.knowledge import Deprecation, parameter_note
from ctxhub.ingest.python.deprecation_text import clean_name
from ctxhub.ingest.sphinx_roles import readable_roles

# the entry's words before its list say it is about parameters
_ABOUT_PARAMETERS = re.compile(r"\b(?:parameter|argument|keyword|kwarg)s?\b", re.I)
# "* :meth:`.Ops.drop` - ..." / "`Ops.drop()`: ...": a code-marked owner, then a dash or colon
_OWNER = re.compile(
    r"^(?::[\w:]+:)?(?P<m>`{1,2})(?P<owner>[^`]+)(?P=m)\s*(?:-|–|—|:)\s*(?P<rest>.+)$"
)
# a quoted or code-marked name, with what to use instead in parentheses
_LISTED = re.compile(r"(?P<q>``|[`\"'*])(?P<p>[A-Za-z_]\w*)(?P=q)(?:\s*\((?P<paren>[^()]*)\))?")
_BETWEEN = re.compile(r"^[\s,;.]*(?:(?:and|or)\s+)?[\s,;.]*$", re.I)
_SENTENCE_END = re.compile(r"(?<=[.!?:])\s+")
_INSTEAD = re.compile(r"^\s*(?:use|now|renamed\s+to)\s+(?P<r>\S+?)\s*$", re.I)


@dataclass(frozen=True)
class ListedParameter:
    owner: str
    parameter: str
    replacement: str | None
    bullet: str  # the bullet that names it


def listed_parameters(lead: str, bullets: tuple[str, ...]) -> list[ListedParameter]:
    """The parameters an entry's bullets list under their owners; none unless the words
    before the list speak of parameters."""
    if not _ABOUT_PARAMETERS.search(lead):
        return []
    out: list[ListedParameter] = []
    for bullet in bullets:
        head = _OWNER.match(bullet)
        owner = clean_name(head.group("owner")) if head else None
        if head is None or owner is None:
            continue
        out += [ListedParameter(owner, p, r, bullet) for p, r in _names(head.group("rest"))]
    return out


def _names(rest: str) -> list[tuple[str, str | None]]:
    """(parameter, replacement) for each name of a list of names and nothing else."""
    names: list[tuple[str, str | None]] = []
    at = 0
    for match in _LISTED.finditer(rest):
        if not _BETWEEN.match(rest[at : match.start()]):
            return []  # prose, not a list of names
        instead = _INSTEAD.match(match.group("paren") or "")
        replacement = instead.group("r").strip("`\"'*,.") if instead else None
        names.append((match.group("p"), replacement or None))
        at = match.end()
    return names if _BETWEEN.match(rest[at:]) else []


def listed_records(
    lead: str, bullets: tuple[str, ...], kind: str, entry: Deprecation
) -> list[Deprecation]:
    """One changelog record per listed parameter (`entry` gives source, version, place),
    its note the entry's first sentence and the parameter's bullet; a removed parameter
    is also recorded under its dotted name (`Ops.drop_constraint.type`), as a removal
    named in prose is."""
    first = _SENTENCE_END.split(lead.strip(), maxsplit=1)[0]
    out: list[Deprecation] = []
    for item in listed_parameters(lead, bullets):
        said = readable_roles(f"{first} {item.bullet}")
        note = said if kind != "removed" or "remov" in said[:40].lower() else f"Removed: {said}"
        record = entry.model_copy(
            update={
                "origin": "changelog",
                "symbol": item.owner,
                "replacement": item.replacement,
                "note": parameter_note(item.parameter, note),
            }
        )
        out.append(record)
        if kind == "removed":
            dotted = f"{item.owner}.{item.parameter}"
            out.append(record.model_copy(update={"symbol": dotted, "note": note}))
    return out
