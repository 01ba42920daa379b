"""Chunk <-> row conversion, and the derived text columns the FTS index searches; the
source and deprecation rows too. Both SQL backends use these (their rows read by column
name), so a row means the same in each."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from ctxhub.core.calls import CALL_TERMS, call_sites, via_kind
from ctxhub.core.identifiers import identifier_parts, split_identifier
from ctxhub.core.knowledge import Chunk, ChunkMeta, Deprecation, content_hash
from ctxhub.core.message_templates import segments
from ctxhub.store.protocol import SourceState

#: Columns written for one chunk, in insert order.
CHUNK_COLUMNS = (
    "id",
    "source",
    "file",
    "kind",
    "path",
    "symbol",
    "title",
    "section",
    "line_start",
    "line_end",
    "url",
    "version",
    "content",
    "embed_text",
    "content_hash",
    "embed_hash",
    "row_hash",
    "chunk_type",
    "module",
    "class_name",
    "language",
    "execution_mode",
    "is_dataclass",
    "deprecated",
    "names",
    "idents",
    "meta",
    "lookup_only",
)

#: Side-table fields for list-valued metadata, filtered by exact value.
TERM_FIELDS = (*CALL_TERMS.values(), "yields", "bases", "tags")

# Cap identifier parts taken from a body: enough to match, bounded for huge chunks.
_MAX_BODY_IDENTS = 400


def row_hash(chunk: Chunk) -> str:
    """Hash of everything stored for a chunk: equal hash means nothing to rewrite."""
    return hashlib.sha256(chunk.model_dump_json().encode("utf-8")).hexdigest()


def names_text(chunk: Chunk) -> str:
    """What a chunk is called: title, breadcrumb, symbol, path and signature, and for a
    window of a Sphinx API page the definitions it describes (`extra.describes`)."""
    meta = chunk.metadata
    parts = [chunk.title, chunk.section or "", chunk.symbol or "", chunk.path.replace("/", " ")]
    if meta.signature:
        parts.append(meta.signature)
    if meta.example:
        parts.append(meta.example)
    described = meta.extra.get("describes")
    if isinstance(described, list):
        parts.append(" ".join(str(n) for n in described))
    return "\n".join(p for p in parts if p)


def idents_text(chunk: Chunk) -> str:
    """Split identifier parts: the chunk's own names first, then names used in its body,
    then the messages it emits by key (`ingest/python/messages.py`): the words a pasted
    error shares with the code that raises it."""
    own: dict[str, None] = {}
    for name in (chunk.symbol, chunk.title, chunk.metadata.signature, *chunk.metadata.bases):
        if name:
            for part in identifier_parts(name):
                own.setdefault(part, None)
    for segment in chunk.path.replace(".", "/").split("/"):
        for part in split_identifier(segment):
            own.setdefault(part, None)
    body = identifier_parts(chunk.content)[:_MAX_BODY_IDENTS]
    for part in body:
        own.setdefault(part, None)
    return "\n".join([" ".join(own), *chunk.metadata.extra.get("messages", ())])


def symbol_suffixes(symbol: str) -> list[tuple[str, int]]:
    """Every dotted suffix of a symbol, lowercased, with its number of parts."""
    parts = symbol.lower().split(".")
    return [(".".join(parts[i:]), len(parts) - i) for i in range(len(parts))]


def chunk_row(chunk: Chunk, file: str) -> tuple[Any, ...]:
    meta = chunk.metadata
    values: dict[str, Any] = {
        "id": chunk.id,
        "source": chunk.source,
        "file": file,
        "kind": chunk.kind,
        "path": chunk.path,
        "symbol": chunk.symbol,
        "title": chunk.title,
        "section": chunk.section,
        "line_start": chunk.line_start,
        "line_end": chunk.line_end,
        "url": chunk.url,
        "version": chunk.version,
        "content": chunk.content,
        "embed_text": chunk.embed_text,
        "content_hash": chunk.content_hash,
        "embed_hash": content_hash(chunk.embed_text),
        "row_hash": row_hash(chunk),
        "chunk_type": meta.chunk_type,
        "module": meta.module,
        "class_name": meta.class_name,
        "language": meta.language,
        "execution_mode": meta.execution_mode,
        "is_dataclass": None if meta.is_dataclass is None else int(meta.is_dataclass),
        "deprecated": int(meta.deprecated),
        "names": names_text(chunk),
        "idents": idents_text(chunk),
        "meta": meta.model_dump_json(exclude_defaults=True),
        "lookup_only": int(chunk.lookup_only),
    }
    return tuple(values[c] for c in CHUNK_COLUMNS)


def window_values(rowid: int, chunk: Chunk) -> list[tuple[int, int, str, str]]:
    """(chunk rowid, seq, embed_hash, embed_text) of a chunk's window texts."""
    return [(rowid, i, content_hash(t), t) for i, t in enumerate(chunk.embed_windows)]


def term_values(chunk: Chunk) -> list[tuple[str, str]]:
    meta = chunk.metadata
    out: set[tuple[str, str]] = set()
    for name in meta.calls:
        out.add(("calls", name))
    for name, _, via in call_sites(meta.extra):
        kind = via_kind(via)
        if kind is not None:
            out.add((CALL_TERMS[kind], name))
    for name in meta.yields:
        out.add(("yields", name))
    for base in meta.bases:
        out.add(("bases", base))
        out.add(("bases", base.rsplit(".", 1)[-1].split("[", 1)[0]))
    for base in meta.extra.get("bases_qualified", ()):
        if base:  # the class the base names, as its module binds it
            out.add(("bases", str(base)))
    for tag in (*meta.tags, *meta.capabilities):
        out.add(("tags", tag.lower()))
    for key in meta.extra.get("name_templates", ()):
        out.add(("templates", key))
    for parts in meta.extra.get("message_templates", ()):
        for segment in segments(parts):
            out.add(("msgsegs", segment))
    for name in meta.extra.get("exports", ()):
        out.add(("exports", name))
    for name in meta.extra.get("describes", ()):
        # a doc window's API descriptions, as the symbol path looks names up: the name
        # as written and its last part (`Huey.lock_task`, `lock_task`), lower case
        out.add(("describes", str(name).lower()))
        out.add(("describes", str(name).rsplit(".", 1)[-1].lower()))
    if meta.chunk_type == "module":
        for name in meta.imports:  # who imports a definition (Store.importers)
            out.add(("imports", name))
    return sorted(out)


#: Every text the store wants a vector for, as table `x` (h, t, src, pri, ord, seq): each
#: chunk's own text (pri 0), then its windows (pri 1), so a refresh embeds what the
#: plain dense path needs before the extra windows; a lookup-only chunk never (it has
#: no vector). The same SQL on both backends.
EMBED_TEXTS = (
    "(SELECT c.embed_hash AS h, c.embed_text AS t, c.source AS src, 0 AS pri, "
    "c.rowid AS ord, 0 AS seq FROM chunks c WHERE c.lookup_only = 0 UNION ALL "
    "SELECT w.embed_hash, w.embed_text, c.source, 1, c.rowid, w.seq FROM chunk_windows w "
    "JOIN chunks c ON c.rowid = w.chunk WHERE c.lookup_only = 0) x"
)
#: The window texts of the chunks a WHERE on `chunks c` admits: (chunk id, text), in order.
WINDOWS_OF = (
    "SELECT c.id, w.embed_text FROM chunk_windows w JOIN chunks c ON c.rowid = w.chunk "
    "WHERE {where} ORDER BY w.chunk, w.seq"
)


def with_windows(chunks: list[Chunk], rows: Iterable[Sequence[Any]]) -> list[Chunk]:
    """`chunks` with the window texts of `rows` ((chunk id, text), in order) attached."""
    by_id = {c.id: c for c in chunks}
    for cid, text in rows:
        chunk = by_id.get(cid)
        if chunk is not None:
            chunk.embed_windows.append(text)
    return chunks


#: Columns read back to rebuild a Chunk.
READ_COLUMNS = (
    "id, source, kind, path, symbol, title, section, line_start, line_end, url, version, "
    "content, embed_text, content_hash, meta"
)


def chunk_from_row(row: sqlite3.Row) -> Chunk:
    return Chunk(
        id=row["id"],
        source=row["source"],
        kind=row["kind"],
        path=row["path"],
        symbol=row["symbol"],
        title=row["title"],
        section=row["section"],
        line_start=row["line_start"],
        line_end=row["line_end"],
        url=row["url"],
        version=row["version"],
        content=row["content"],
        embed_text=row["embed_text"],
        content_hash=row["content_hash"],
        metadata=ChunkMeta.model_validate(json.loads(row["meta"])),
    )


#: Columns of a deprecation row after (source, file), in insert order.
DEPRECATION_FIELDS = ("symbol", "replacement", "since", "note", "path", "line", "origin")


def deprecation_values(
    source: str, file: str, deprecations: Sequence[Deprecation]
) -> list[tuple[Any, ...]]:
    """Insert values (source, file, *DEPRECATION_FIELDS) for one unit's deprecations."""
    return [(source, file, *(getattr(d, f) for f in DEPRECATION_FIELDS)) for d in deprecations]


def deprecation_from_row(row: Any) -> Deprecation:
    return Deprecation(source=row["source"], **{f: row[f] for f in DEPRECATION_FIELDS})


def source_from_row(row: Any) -> SourceState:
    return SourceState(
        name=row["name"],
        kinds=[k for k in row["kinds"].split(",") if k],
        origin=row["origin"],
        root=row["root"],
        version=row["version"],
        commit=row["commit_sha"],
        status=row["status"],
        error=row["error"],
        last_refresh=row["last_refresh"],
        stats=json.loads(row["stats"] or "{}"),
    )
