"""Records as SQLite rows, and MemoryFilters as a WHERE clause over `records r`."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ctxhub.core.records import MemoryFilters, Record

#: records columns a Record field maps to one-to-one
RECORD_FIELDS = (
    "id",
    "problem",
    "solution",
    "error_type",
    "stack_trace",
    "code_snippet",
    "code_diff",
    "language",
    "framework",
    "file_path",
    "agent",
    "logged_by",
    "os",
    "confidence",
    "resolved",
    "source",
    "session_id",
    "url",
    "variant_of",
    "created_at",
    "last_seen",
    "occurrences",
    "worked",
    "not_worked",
)
#: Who rated a target, and how (both backends; `%s` is the parameter).
RATINGS_BY = (
    "SELECT author, SUM(worked), SUM(1 - worked) FROM feedback_events "
    "WHERE target = %s AND author IS NOT NULL GROUP BY author ORDER BY author"
)
#: BM25 column weights: problem, error_type, stack_trace, solution, code
RECORD_BM25_WEIGHTS = (1.0, 2.0, 0.6, 0.8, 0.6)


def _like_escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def memory_where(filters: MemoryFilters) -> tuple[str, list[object]]:
    """A WHERE clause over `records r` (never empty) and its parameters."""
    parts: list[str] = []
    params: list[object] = []
    if filters.language:
        parts.append("r.language = ?")
        params.append(filters.language)
    if filters.framework:
        parts.append("r.framework = ?")
        params.append(filters.framework)
    if filters.error_type:
        parts.append("r.error_type = ? COLLATE NOCASE")
        params.append(filters.error_type.strip())
    if filters.source:
        if filters.source.endswith(":"):
            parts.append("r.source LIKE ? ESCAPE '\\'")
            params.append(_like_escape(filters.source) + "%")
        else:
            parts.append("r.source = ?")
            params.append(filters.source)
    for tag in filters.tags or []:
        parts.append("r.rowid IN (SELECT record FROM record_tags WHERE tag = ?)")
        params.append(tag)
    return (" AND ".join(parts) if parts else "1"), params


def row_record(row: Any) -> Record:
    data: dict[str, Any] = {k: row[k] for k in RECORD_FIELDS}
    data["resolved"] = bool(data["resolved"])
    data["libraries"] = json.loads(row["libraries"])
    data["tags"] = json.loads(row["tags"])
    return Record.model_validate(data)


def records_in_order(
    ids: Sequence[str], rows: Mapping[str, Any], links: Mapping[int, list[tuple[str, bool]]]
) -> list[Record]:
    """The records of `ids` that exist, in the order asked, with their linked symbols and
    those whose code changed since (`links`: {record rowid: [(symbol, stale)]})."""
    out: list[Record] = []
    for rid in ids:
        row = rows.get(rid)
        if row is None:
            continue
        record = row_record(row)
        linked = links.get(int(row["rowid"]), [])
        record.linked_symbols = [s for s, _ in linked]
        record.stale_symbols = [s for s, stale in linked if stale]
        out.append(record)
    return out
