"""Errors a tool reports to its caller (the MCP layer turns them into error results)."""

from __future__ import annotations


class ToolInputError(ValueError):
    """The arguments are invalid; the message says precisely which and why."""


class NotFoundError(LookupError):
    """An id, symbol or path that is not in the index."""
