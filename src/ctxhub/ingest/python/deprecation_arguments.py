"""What the arguments of a deprecation helper call or decorator say, read by their names
and shapes: a version-like string is since when, `instead=`/`alternative=` what to use,
`thing=`/`name=` what is deprecated (`warn_deprecated("f(x=False)", version="0.25.0",
instead=...)`, `@deprecated("0.9.0", thing="pkg.Queue", instead="pkg.channel()")`)."""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping, Sequence

from ctxhub.ingest.python.callgraph import dotted_chain
from ctxhub.ingest.python.deprecation_text import clean_name
from ctxhub.ingest.python.message_fields import message_text

#: What a deprecation helper's keyword arguments usually mean, by their names.
_SUBJECT = re.compile(r"(?:^|_)(name|symbol|what|feature|deprecated|thing)$")
_SINCE = re.compile(r"^(?:version|since|deprecated_in|deprecated_since)$")
_INSTEAD = re.compile(r"^(?:alternative|alternatives|replacement|instead|use|new_name|new)$")
_NOTE = re.compile(r"^(?:info|message|msg|reason|details|extra|text)$")
_REMOVAL = re.compile(r"^(?:removal_in|removed_in|remove_in|pending)$")
_FIELDS = (
    ("subject", _SUBJECT),
    ("since", _SINCE),
    ("instead", _INSTEAD),
    ("note", _NOTE),
    ("removal", _REMOVAL),
)
_VERSION_LIKE = re.compile(r"^v?\d+(?:\.\d+)+(?:[.+-]?[A-Za-z0-9]+)*$")
# What a call's subject may be: a dotted name, `f()`, or `f(x=...)` / `f(..., x=...)`.
_DOTTED = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*(?:\(\))?$")
_CALLED_WITH = re.compile(
    r"^(?P<owner>[A-Za-z_][\w.]*)\((?:[^()]*,\s*)?(?P<param>[A-Za-z_]\w*)\s*=[^()]*\)$"
)


def deprecation_fields(
    keywords: Mapping[str, ast.expr], positional: Sequence[ast.expr] = ()
) -> dict[str, str]:
    """{subject, since, instead, note, removal} as far as the arguments say them: keywords
    by their names; a positional version-like string is since, another one the note."""
    fields: dict[str, str] = {}
    for expr in positional:
        value = message_text(expr)
        if value:
            fields.setdefault("since" if _VERSION_LIKE.match(value.strip()) else "note", value)
    for arg, expr in keywords.items():
        value = message_text(expr)
        for key, pattern in _FIELDS:
            if key == "instead" and value is None and isinstance(expr, ast.Attribute):
                value = ast.unparse(expr) if dotted_chain(expr) else None  # `instead=pkg.f`
            if value and pattern.search(arg.lower()):
                fields.setdefault(key, value)
    return fields


def named(text: str | None) -> str | None:
    """`text` as a dotted name when it is one (`pkg.channel(math.inf)` -> `pkg.channel`);
    None for prose ("the default value of True ...")."""
    if not text:
        return None
    head = text.strip().split("(", 1)[0]
    return clean_name(text) if _DOTTED.match(head) else None


def called_with(subject: str | None) -> tuple[str, str] | None:
    """(owner, parameter) of a subject that reads as a call passing one keyword:
    `open_nursery(strict_exception_groups=False)`, `pkg.run(..., x=False)`."""
    match = _CALLED_WITH.match(subject.strip()) if subject else None
    return (match.group("owner"), match.group("param")) if match else None


def fields_message(fields: Mapping[str, str]) -> str:
    """The sentence the fields say; "" without a subject."""
    if "subject" not in fields:
        return ""
    text = f"`{fields['subject']}` is deprecated"
    if "since" in fields:
        text += f" since {fields['since']}"
    if "removal" in fields:
        text += f" and will be removed in {fields['removal']}"
    instead = fields.get("instead")
    if instead:
        # prose (a URL, "the default value of True ...") is told, never read as a name
        text += f"; use `{instead}` instead" if named(instead) else f" (instead: {instead})"
    return text + (f". {fields['note']}" if "note" in fields else ".")


def arguments_message(arguments: Mapping[str, ast.expr]) -> str:
    """The sentence a helper's arguments (by parameter name) say; "" if no subject."""
    return fields_message(deprecation_fields(arguments))


def helper_message(call: ast.Call) -> str:
    """A project helper's warning (`warn_deprecation(version="2.0",
    deprecated_name="StaticFilesConfig", kind="class", alternative="...")`) as the
    sentence the helper would build: "StaticFilesConfig is deprecated since 2.0; use ...
    instead. ..."; "" when its arguments say nothing literal."""
    return arguments_message({kw.arg: kw.value for kw in call.keywords if kw.arg})


_FIRST_CODE = re.compile(r"`{1,2}([^`\n]+)`{1,2}")


def first_code(message: str) -> str | None:
    """The first code-marked text of a message, or the message itself when it is a call
    (`open_nursery(x=False) is deprecated ...`)."""
    match = _FIRST_CODE.search(message)
    if match:
        return match.group(1)
    return message.split(" ", 1)[0] if message else None
