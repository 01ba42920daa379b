"""Token estimates and trimming: how responses are kept inside a `max_tokens` budget."""

from __future__ import annotations

import re


def estimate_tokens(text: str) -> int:
    """A conservative token estimate for LLM budgets (~3 characters per token for code)."""
    return len(text) // 3 + 1


def trim(text: str, max_chars: int) -> tuple[str, bool]:
    """Cut text to at most max_chars, on a line boundary when one is near."""
    if len(text) <= max_chars:
        return text, False
    cut = text.rfind("\n", 0, max_chars)
    if cut < max_chars // 2:
        cut = max_chars
    return text[:cut].rstrip() + "\n…", True


#: A string literal longer than this inside a signature (a default, an `Annotated`
#: `Doc("...")` text) is shown as `'…'`: the parameter's docs are in the code, not in its
#: citation.
SIGNATURE_LITERAL_CHARS = 40
_LITERAL = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*\"""")


def elide_signature(signature: str, max_chars: int) -> str:
    """A signature at most `max_chars` long: long string literals become `'…'` first,
    then the parameters that still do not fit become `…` (the return type kept)."""
    if len(signature) <= max_chars:
        return signature
    signature = _LITERAL.sub(
        lambda m: m[0] if len(m[0]) <= SIGNATURE_LITERAL_CHARS else m[0][0] + "…" + m[0][0],
        signature,
    )
    if len(signature) <= max_chars:
        return signature
    arrow = signature.rfind(") -> ")
    tail = signature[arrow:] if arrow > 0 and len(signature) - arrow <= max_chars // 4 else ""
    tail = tail or (")" if signature.endswith(")") else "")
    room = max(1, max_chars - len(tail) - 3)
    head = signature[:room]
    comma = head.rfind(", ")
    if comma > room // 2:
        head = head[:comma]
    return head + ", …" + tail
