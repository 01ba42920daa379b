"""Code names in text: which tokens are identifiers, and their parts.

`DailyTransport.configure` is searched as itself, its dotted parts and their Camel and
snake parts; the store indexes the same parts (the FTS `idents` column), so a query and
a chunk agree on what a name is made of."""

from __future__ import annotations

import re

# A dotted run of word characters: `a.b.C`, `snake_case`, `CamelCase`, `x`.
_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
# CamelCase parts, keeping acronyms together: LLMContextPair -> LLM, Context, Pair.
_CAMEL_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def is_identifier_like(token: str) -> bool:
    """True for tokens that look like code names rather than English words."""
    if "." in token.strip("."):
        return True
    if "_" in token.strip("_"):
        return True
    # CamelCase or an acronym followed by a word: has an inner capital.
    return any(c.isupper() for c in token[1:]) and any(c.islower() for c in token)


def split_identifier(name: str) -> list[str]:
    """The whole identifier, its dotted parts, and their snake/Camel parts (deduplicated).

    >>> split_identifier("DailyTransport.configure")
    ['DailyTransport.configure', 'DailyTransport', 'Daily', 'Transport', 'configure']
    """
    out: list[str] = []

    def add(part: str) -> None:
        if part and part not in out:
            out.append(part)

    add(name)
    for dotted in name.split("."):
        add(dotted)
        for snake in dotted.split("_"):
            add(snake)
            for camel in _CAMEL_PART.findall(snake):
                add(camel)
    return out


def identifier_parts(text: str) -> list[str]:
    """Split parts of every identifier-like token in text, for the FTS `idents` column."""
    seen: dict[str, None] = {}
    for token in _DOTTED.findall(text):
        if is_identifier_like(token):
            for part in split_identifier(token):
                seen.setdefault(part, None)
    return list(seen)


def code_names(text: str) -> list[str]:
    """The identifier-like tokens of `text` (CamelCase, snake_case, dotted), in order, once."""
    names: dict[str, None] = {}
    for token in _DOTTED.findall(text):
        token = token.strip(".")
        if is_identifier_like(token):
            names.setdefault(token, None)
    return list(names)


def is_private_path(dotted: str | None) -> bool:
    """A dotted name with a part under a leading underscore (`pkg._internal.x`,
    `Cls._helper`); dunders such as `__init__` or `__main__` are public protocol."""
    return any(
        p.startswith("_") and not (p.startswith("__") and p.endswith("__"))
        for p in (dotted or "").split(".")
    )


def canonical_name(name: str) -> str:
    """A distribution's name by PEP 503: `LiteStar`, `lite_star` and `lite.star` are one."""
    return re.sub(r"[-_.]+", "-", name).lower()
