"""Page cursors: `<offset>:<key>`, where the key is a hash of the query and filters, so a
cursor cannot be replayed against another listing."""

from __future__ import annotations

import hashlib

from ctxhub.tools.errors import ToolInputError


def cursor_key(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:8]


def parse_cursor(cursor: str | None, key: str) -> int:
    """The offset a cursor points at (0 without one); a foreign cursor is an input error."""
    if not cursor:
        return 0
    try:
        offset_text, found_key = cursor.split(":", 1)
        offset = int(offset_text)
    except ValueError:
        raise ToolInputError(f"cursor {cursor!r} is not one this server returned") from None
    if found_key != key or offset < 0:
        raise ToolInputError("cursor belongs to another query or filter set; start again")
    return offset


def next_cursor(end: int, total: int, key: str) -> str | None:
    return f"{end}:{key}" if end < total else None
