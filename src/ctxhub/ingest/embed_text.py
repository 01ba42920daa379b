"""The text a chunk is embedded as: a compact header plus the start of its body.

The model sees at most 256 tokens, so the header carries what a query is most likely to
name (where the chunk lives, what it defines) and the body is cut to roughly what fits.
Cutting by characters first keeps tokenisation cheap; the tokenizer truncates exactly.
"""

from __future__ import annotations

from collections.abc import Iterable

#: ~4 characters per token for prose, fewer for code: enough to fill 256 tokens.
BODY_CHARS = 1400


def build_embed_text(header: Iterable[str | None], body: str, body_chars: int = BODY_CHARS) -> str:
    """Header parts (empty ones dropped) on one line each, then the body's first characters."""
    lines = [h.strip() for h in header if h and h.strip()]
    text = body.strip()
    if len(text) > body_chars:
        cut = text.rfind("\n", 0, body_chars)
        text = text[: cut if cut > body_chars // 2 else body_chars]
    return "\n".join([*lines, text]) if lines else text
