"""SearchFilters -> a SQL WHERE clause over `chunks c`, applied before any ranking."""

from __future__ import annotations

from ctxhub.core.calls import CALL_TERMS
from ctxhub.core.knowledge import ChunkQuery, SearchFilters

Params = list[object]


def _prefix(column: str, value: str, params: Params) -> str:
    """`column` equals value or starts with `value.` / `value/` (dotted or path prefixes)."""
    params.extend([value, _like_escape(value) + "%"])
    return f"({column} = ? OR {column} LIKE ? ESCAPE '\\')"


def _like_escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _term(field: str, value: str, params: Params) -> str:
    params.extend([field, value])
    return "c.rowid IN (SELECT chunk FROM chunk_terms WHERE field = ? AND value = ?)"


def _in(column: str, values: list[str], params: Params) -> str:
    params.extend(values)
    return f"{column} IN ({', '.join('?' for _ in values)})"


def where_clause(filters: SearchFilters, kinds: list[str] | None = None) -> tuple[str, Params]:
    """A clause (never empty: `1` when nothing filters) and its parameters."""
    params: Params = []
    parts: list[str] = []
    kind_values = list(kinds or []) or list(filters.kind or [])
    if kinds and filters.kind:
        kind_values = [k for k in kinds if k in filters.kind] or ["\x00none"]
    if kind_values:
        parts.append(_in("c.kind", kind_values, params))
    if filters.source:
        parts.append(_in("c.source", filters.source, params))
    if filters.path_prefix:
        prefix = filters.path_prefix.strip("/")
        params.extend([prefix, _like_escape(prefix) + "/%", _like_escape(prefix) + "%"])
        # a folder (`a/b`) or a stem prefix (`a/b/guide` matches `a/b/guide.mdx`)
        parts.append("(c.path = ? OR c.path LIKE ? ESCAPE '\\' OR c.path LIKE ? ESCAPE '\\')")
    if filters.symbol_prefix:
        parts.append(_prefix("c.symbol", filters.symbol_prefix, params))
    if filters.module_prefix:
        parts.append(_prefix("c.module", filters.module_prefix, params))
    if filters.class_prefix:
        # class_name is the qualname inside the module; match it or the tail of the symbol
        cls = filters.class_prefix
        params.extend([cls, _like_escape(cls) + ".%", "%." + _like_escape(cls) + ".%"])
        parts.append(
            "(c.class_name = ? OR c.class_name LIKE ? ESCAPE '\\' OR c.symbol LIKE ? ESCAPE '\\')"
        )
    if filters.chunk_type:
        parts.append(_in("c.chunk_type", filters.chunk_type, params))
    if filters.calls:
        parts.append(_term(CALL_TERMS[filters.calls_via], filters.calls, params))
    if filters.yields:
        parts.append(_term("yields", filters.yields, params))
    if filters.base_class:
        parts.append(_term("bases", filters.base_class, params))
    if filters.is_dataclass is not None:
        params.append(1 if filters.is_dataclass else 0)
        parts.append("COALESCE(c.is_dataclass, 0) = ?")
    for tag in filters.tags or []:
        parts.append(_term("tags", tag.lower(), params))
    if filters.language:
        params.append(filters.language.lower())
        parts.append("lower(c.language) = ?")
    if filters.execution_mode:
        params.append(filters.execution_mode.lower())
        parts.append("lower(c.execution_mode) = ?")
    if filters.version:
        params.append(filters.version)
        parts.append("c.version = ?")
    if filters.name_templates:
        marks = _in("value", list(filters.name_templates), params)
        parts.append(
            f"c.rowid IN (SELECT chunk FROM chunk_terms WHERE field = 'templates' AND {marks})"
        )
    if filters.ranked_only:
        parts.append("c.lookup_only = 0")
    if filters.declared_only:
        parts.append("c.symbol IN (SELECT value FROM chunk_terms WHERE field = 'exports')")
    return (" AND ".join(parts) if parts else "1"), params


def chunk_query_where(query: ChunkQuery) -> tuple[str, Params]:
    """A ChunkQuery -> a WHERE clause over `chunks c` (no LIMIT)."""
    params: Params = []
    parts: list[str] = []
    for column, value in (
        ("c.kind", query.kind),
        ("c.source", query.source),
        ("c.path", query.path),
        ("c.file", query.unit),
        ("c.symbol", query.symbol),
    ):
        if value is not None:
            parts.append(f"{column} = ?")
            params.append(value)
    if query.symbol_name is not None:
        parts.append("c.rowid IN (SELECT chunk FROM symbol_names WHERE name = ?)")
        params.append(query.symbol_name.lower().strip("."))
    if query.chunk_types:
        parts.append(_in("c.chunk_type", list(query.chunk_types), params))
    if query.covering_line is not None:
        parts.append("c.line_start <= ? AND c.line_end >= ?")
        params.extend([query.covering_line, query.covering_line])
    if query.calls is not None:
        parts.append(_term("calls", query.calls, params))
    if query.lookup_only is not None:
        parts.append("c.lookup_only = ?")
        params.append(int(query.lookup_only))
    return " AND ".join(parts) or "1", params
