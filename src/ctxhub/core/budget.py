"""Token estimates and trimming: how responses are kept inside a `max_tokens` budget."""

from __future__ import annotations


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
