"""SearchFilters, ChunkQueries and MemoryFilters as WHERE clauses for PostgreSQL.

The knowledge filters are SQLite's own (`sqlite/filters.py`: the same columns and side
tables exist here), with `?` placeholders written as psycopg's `%s`, so both backends
filter by exactly the same rules. Memory filters differ only in case-folding (no
COLLATE NOCASE in PostgreSQL).
"""

from __future__ import annotations

from ctxhub.core.knowledge import ChunkQuery, SearchFilters
from ctxhub.core.records import MemoryFilters
from ctxhub.store.sqlite import filters as sqlite_filters

Params = list[object]


def _pg(clause: str) -> str:
    # the shared clauses hold no literal `?` or `%`: every value is a parameter. SQLite's
    # LIKE ignores ASCII case; ILIKE is PostgreSQL's spelling of the same match
    if clause == "1":
        return "TRUE"
    return clause.replace("?", "%s").replace(" LIKE ", " ILIKE ")


def where_clause(filters: SearchFilters, kinds: list[str] | None = None) -> tuple[str, Params]:
    """A clause over `chunks c` (`TRUE` when nothing filters) and its parameters."""
    clause, params = sqlite_filters.where_clause(filters, kinds)
    return _pg(clause), params


def chunk_query_where(query: ChunkQuery) -> tuple[str, Params]:
    clause, params = sqlite_filters.chunk_query_where(query)
    return _pg(clause), params


def _like_escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def memory_where(filters: MemoryFilters) -> tuple[str, Params]:
    """A clause over `records r` (`TRUE` when nothing filters) and its parameters."""
    parts: list[str] = []
    params: Params = []
    if filters.language:
        parts.append("r.language = %s")
        params.append(filters.language)
    if filters.framework:
        parts.append("r.framework = %s")
        params.append(filters.framework)
    if filters.error_type:
        parts.append("lower(r.error_type) = lower(%s)")
        params.append(filters.error_type.strip())
    if filters.source:
        if filters.source.endswith(":"):
            parts.append("r.source ILIKE %s ESCAPE '\\'")
            params.append(_like_escape(filters.source) + "%")
        else:
            parts.append("r.source = %s")
            params.append(filters.source)
    for tag in filters.tags or []:
        parts.append("r.rowid IN (SELECT record FROM record_tags WHERE tag = %s)")
        params.append(tag)
    return (" AND ".join(parts) if parts else "TRUE"), params
