"""How Sphinx shows a cross-reference role, one rule for docs pages (ingest/docs) and
deprecation notes (ingest/python).

`:meth:`.Operations.drop_constraint`` shows `Operations.drop_constraint` (a leading dot
only tells Sphinx to search the current module first), `:class:`~pkg.mod.Name`` shows
`Name`, `:ref:`the guide <guide-label>`` shows `the guide`, and `!` (no link) is
dropped. Sphinx's own rule is `PyXRefRole.process_link`; this reads the same way without
Sphinx.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: `:role:`body``, `:domain:role:`body``: the role's name and its body.
ROLE = re.compile(r":(?P<name>(?:[\w.+-]+:)*[\w.+-]+):`(?P<body>[^`]*?)`")
_EXPLICIT = re.compile(r"^(.+?)\s*<([^<>]*)>$", re.S)
_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*(?:\(\))?")
#: Roles whose body is a number that Sphinx shows with a prefix (`:pep:`681`` -> PEP 681).
_NUMBERED = {"pep": "PEP", "rfc": "RFC"}


@dataclass(frozen=True)
class RoleReference:
    shown: str  # what Sphinx shows
    target: str  # what it points at: no `~`, `!` or leading `.`
    titled: bool  # an explicit title (`title <target>`) is what is shown


def role_reference(body: str, role: str = "") -> RoleReference:
    """The reference one role's body makes (`role`: its name, `py:meth` or `meth`)."""
    body = body.strip()
    explicit = _EXPLICIT.match(body)
    if explicit:
        return RoleReference(explicit.group(1), _bare_target(explicit.group(2)), True)
    target = _bare_target(body)
    prefix = _NUMBERED.get(role.rsplit(":", 1)[-1].lower())
    if prefix and target.isdigit():
        return RoleReference(f"{prefix} {target}", f"{prefix} {target}", False)
    shown = body.lstrip("!").lstrip(".")
    if shown.startswith("~"):
        shown = shown[1:].lstrip(".").rsplit(".", 1)[-1]
    return RoleReference(shown, target, False)


def _bare_target(target: str) -> str:
    return target.strip().lstrip("!~").lstrip(".")


def readable_roles(text: str) -> str:
    """A note's roles as Sphinx shows them: a name in code marks, as the note's other
    names are (`` `EnvironmentContext.configure` ``); a title, a label or a numbered
    reference (PEP 681) as words."""

    def shown(match: re.Match[str]) -> str:
        ref = role_reference(match.group("body"), match.group("name"))
        return f"`{ref.shown}`" if _NAME.fullmatch(ref.shown) and not ref.titled else ref.shown

    return ROLE.sub(shown, text)
