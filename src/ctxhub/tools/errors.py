"""Errors a tool reports to its caller (the MCP layer turns them into error results), and
how a message quotes what the caller sent."""

from __future__ import annotations

from collections.abc import Sized

#: Most characters of a caller's value an error message repeats.
SHOWN_CHARS = 200


class ToolInputError(ValueError):
    """The arguments are invalid; the message says precisely which and why."""


class NotFoundError(LookupError):
    """An id, symbol or path that is not in the index."""


def shown(value: object, limit: int = SHOWN_CHARS) -> str:
    """`repr(value)`, cut to `limit` characters with its size said, so an error message
    about a 1 MB argument is one line, not a megabyte echoed back to the agent."""
    text = repr(value)
    if len(text) <= limit:
        return text
    size = ""
    if isinstance(value, str | bytes):
        size = f" ({len(value):,} characters)"
    elif isinstance(value, Sized):
        size = f" ({len(value):,} items)"
    return f"{text[:limit]}...{size}"
