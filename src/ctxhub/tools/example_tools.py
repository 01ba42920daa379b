"""get_example: a whole example (taxonomy plus every file) within a token budget."""

from __future__ import annotations

import posixpath

from ctxhub.hub import Hub
from ctxhub.models import Chunk
from ctxhub.search.budget import estimate_tokens, trim
from ctxhub.tools.errors import NotFoundError, ToolInputError, shown
from ctxhub.tools.models import ExampleBundle, ExampleFile

_README = ("readme.md", "readme.rst", "readme.txt", "readme")
MAX_TOKENS = 25000
#: Tokens per file for its path and JSON framing, plus the text rendering's header line.
_FILE_OVERHEAD = 30


def _unit_of(hub: Hub, chunk_id: str) -> tuple[str, str] | None:
    row = hub.store.conn.execute(
        "SELECT source, file FROM chunks WHERE id = ? AND kind = 'example'", (chunk_id,)
    ).fetchone()
    return None if row is None else (str(row[0]), str(row[1]))


def _overview(hub: Hub, source: str, unit: str) -> Chunk | None:
    chunks = hub.store.chunks_where(
        "c.source = ? AND c.file = ? AND c.chunk_type = 'example'", (source, unit)
    )
    return chunks[0] if chunks else None


def get_example(
    hub: Hub, example_id: str, include_readme: bool = True, max_tokens: int = 8000
) -> ExampleBundle:
    """The example a chunk id belongs to: taxonomy plus its files, entry point first."""
    if not 200 <= max_tokens <= MAX_TOKENS:
        raise ToolInputError(f"max_tokens must be between 200 and {MAX_TOKENS}, got {max_tokens}")
    found = _unit_of(hub, example_id.strip())
    if found is None:
        raise NotFoundError(
            f"no example chunk with id {shown(example_id)}; use search_examples to find one"
        )
    source, unit = found
    overview = _overview(hub, source, unit) or hub.store.get_chunks([example_id])[0]
    meta = overview.metadata
    rows = hub.store.conn.execute(
        "SELECT path, text FROM file_texts WHERE source = ? AND unit = ? ORDER BY path",
        (source, unit),
    ).fetchall()
    key_files = [str(k) for k in meta.extra.get("key_files", [])]
    entry = meta.extra.get("entry_point")
    priority = [p for p in [entry, *key_files] if p]

    def rank(path: str) -> tuple[int, str]:
        if path in priority:
            return (priority.index(path), path)
        return (len(priority) + (0 if path.endswith(".py") else 1), path)

    taxonomy = {k: v for k, v in meta.extra.items() if k not in ("summary",)}
    bundle = ExampleBundle(
        id=overview.id,
        source=source,
        name=meta.example or overview.title,
        path=str(meta.extra.get("example_path", unit)),
        summary=meta.extra.get("summary"),
        tags=meta.tags,
        language=meta.language,
        execution_mode=meta.execution_mode,
        taxonomy=taxonomy,
        files=[],
    )
    ordered = sorted(((str(r[0]), str(r[1])) for r in rows), key=lambda r: rank(r[0]))
    if not include_readme:
        ordered = [r for r in ordered if posixpath.basename(r[0]).lower() not in _README]
    # Room for file contents: the budget less the envelope and every path (all are listed,
    # as files or as omitted).
    room = (
        max_tokens
        - estimate_tokens(bundle.model_dump_json())
        - sum(estimate_tokens(path) + _FILE_OVERHEAD for path, _ in ordered)
    )
    for path, text in ordered:
        cost = estimate_tokens(text)
        if cost <= room:
            bundle.files.append(ExampleFile(path=path, content=text))
            room -= cost
        elif room > 100 and not bundle.files:
            content, _ = trim(text, room * 3)
            bundle.files.append(ExampleFile(path=path, content=content, truncated=True))
            room = 0
        else:
            bundle.omitted.append(path)
    return bundle
