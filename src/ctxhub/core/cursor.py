"""Page cursors: `<position>:<key>`, where the key is a hash of the query and filters, so a
cursor cannot be replayed against another listing. The position is an offset for ranked
listings (search_api) and a keyset position for browse_solutions."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TypeVar

from ctxhub.core.errors import InputError, shown

T = TypeVar("T")
ANOTHER_LISTING = "cursor belongs to another query or filter set; start again"


def cursor_key(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:8]


def make_cursor(position: str, key: str) -> str:
    return f"{position}:{key}"


def cursor_position(cursor: str | None, key: str, parse: Callable[[str], T]) -> T | None:
    """The position a cursor carries, parsed (None without a cursor). A cursor whose
    position does not parse, or that belongs to another listing, is an input error."""
    if not cursor:
        return None
    position, sep, found_key = cursor.partition(":")
    try:
        if not sep:
            raise ValueError(cursor)
        value = parse(position)
    except ValueError:
        raise InputError(f"cursor {shown(cursor)} is not one this server returned") from None
    if found_key != key:
        raise InputError(ANOTHER_LISTING)
    return value


def parse_cursor(cursor: str | None, key: str) -> int:
    """The offset an offset cursor points at (0 without one)."""
    offset = cursor_position(cursor, key, int)
    if offset is not None and offset < 0:
        raise InputError(ANOTHER_LISTING)
    return offset or 0
