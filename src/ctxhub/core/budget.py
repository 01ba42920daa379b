"""Token estimates and trimming: how responses are kept inside a `max_tokens` budget."""

from __future__ import annotations

import re

#: Characters per token: conservative for code, whose tokens are short.
CHARS_PER_TOKEN = 3


def estimate_tokens(text: str) -> int:
    """A conservative token estimate for LLM budgets (~3 characters per token for code)."""
    return len(text) // CHARS_PER_TOKEN + 1


def token_chars(tokens: int) -> int:
    """The characters `tokens` tokens hold, as `estimate_tokens` counts them."""
    return tokens * CHARS_PER_TOKEN


def trim(text: str, max_chars: int) -> tuple[str, bool]:
    """Cut a line of prose (a title, a one-line summary) to at most max_chars, on a line
    boundary when one is near. Shown content (code, a page) is cut by `trim_lines`."""
    if len(text) <= max_chars:
        return text, False
    cut = text.rfind("\n", 0, max_chars)
    if cut < max_chars // 2:
        cut = max_chars
    return text[:cut].rstrip() + "\n…", True


#: The mark a cut text ends with.
CUT_MARK = "…"
#: Where a line of prose may be cut: after a sentence's end.
_SENTENCE_END = re.compile(r"[.!?](?=\s)")


def trim_lines(text: str, max_chars: int) -> tuple[str, bool]:
    """Cut shown content (a snippet, code, a page) to at most max_chars, its `…` mark
    included, never mid-line: at the last line break that fits, or, when that would
    leave over half the room unused (a long line of prose), at the last sentence end
    that fits in the line it cuts; only the mark when not even the first line (or its
    first sentence) fits."""
    if len(text) <= max_chars:
        return text, False
    room = max_chars - len(CUT_MARK) - 1  # "\n…"
    cut = text.rfind("\n", 0, room + 1) if room > 0 else -1
    if cut < room // 2:
        ends = [m.end() for m in _SENTENCE_END.finditer(text, cut + 1, max(cut + 1, room + 1))]
        cut = ends[-1] if ends else cut
    kept = text[: max(cut, 0)].rstrip()
    return (kept + "\n" + CUT_MARK if kept else CUT_MARK), True


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
