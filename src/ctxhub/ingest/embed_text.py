"""The text a chunk is embedded as: a compact header plus the start of its body.

The model sees at most 256 tokens, so the header carries what a query is most likely to
name (where the chunk lives, what it defines) and the body is cut to roughly what fits.
Cutting by characters first keeps tokenisation cheap; the tokenizer truncates exactly.

A chunk longer than that (a constructor documenting fifty parameters, a long method)
also gets window texts: its content cut into pieces one vector can see, each under the
chunk's name. The dense path scores the chunk by its best window as well.
"""

from __future__ import annotations

from collections.abc import Iterable

from ctxhub.core.knowledge import MAX_WINDOWS

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


#: A chunk whose content is longer than this gets window texts.
WINDOW_MIN_CHARS = 1400
#: Characters per window (~256 tokens of code under a one-line name); at most
#: `core.knowledge.MAX_WINDOWS` windows per chunk.
WINDOW_CHARS = 1000


def window_texts(
    name: str,
    content: str,
    *,
    min_chars: int = WINDOW_MIN_CHARS,
    size: int = WINDOW_CHARS,
    max_windows: int = MAX_WINDOWS,
) -> list[str]:
    """`content` cut at line ends into up to `max_windows` windows of about `size`
    characters, each headed by `name`; none when the content is `min_chars` or shorter."""
    if len(content) <= min_chars:
        return []
    out: list[str] = []
    start = 0
    while start < len(content) and len(out) < max_windows:
        end = min(len(content), start + size)
        if end < len(content):
            cut = content.rfind("\n", start + size // 2, end)
            end = cut if cut > 0 else end
        piece = content[start:end].strip()
        if piece:
            out.append(f"{name}\n{piece}")
        start = end
    return out
