"""get_example: a whole example (taxonomy plus every file) within a token budget."""

from __future__ import annotations

import posixpath

from ctxhub.core.budget import estimate_tokens, token_chars, trim_lines
from ctxhub.core.errors import NotFoundError, shown
from ctxhub.core.knowledge import Chunk, ChunkQuery
from ctxhub.core.limits import DEFAULT_TOKENS, MIN_TOKENS, check_tokens
from ctxhub.core.outputs import ExampleBundle, ExampleFile
from ctxhub.session import HubSession
from ctxhub.tools.fit import TAXONOMY_KEPT

_README = ("readme.md", "readme.rst", "readme.txt", "readme")
#: Tokens per file for its path and JSON framing, plus the text rendering's header line.
_FILE_OVERHEAD = 30


def _overview(hub: HubSession, source: str, unit: str) -> Chunk | None:
    query = ChunkQuery(source=source, unit=unit, chunk_types=("example",), limit=1)
    chunks = hub.store.find_chunks(query)
    return chunks[0] if chunks else None


#: Tokens the bundle's envelope around a doc page takes (name, summary, taxonomy).
_PAGE_ENVELOPE = 120


def _doc_page_example(hub: HubSession, chunk: Chunk, max_tokens: int) -> ExampleBundle:
    """A doc page that search_examples offered, as an example whose one file is the
    page: its whole content (within the budget), cited by path and url."""
    from ctxhub.tools.docs_tools import get_doc

    page = get_doc(hub, doc_id=chunk.id, max_tokens=max(MIN_TOKENS, max_tokens - _PAGE_ENVELOPE))
    taxonomy: dict[str, object] = {"kind": "doc page"}
    if page.url:
        taxonomy["url"] = page.url
    if page.version:
        taxonomy["version"] = page.version
    return ExampleBundle(
        id=page.id,
        source=page.source,
        name=page.title,
        path=page.path,
        summary=(
            "A documentation page with worked code, returned as one file; "
            f"get_doc(doc_id={page.id!r}, section=...) opens one of its sections."
        ),
        tags=chunk.metadata.tags,
        taxonomy=taxonomy,
        files=[ExampleFile(path=page.path, content=page.content, truncated=page.truncated)],
    )


#: Tokens of the entry point's code worth slimming the taxonomy for.
_ENTRY_TOKENS = 400


def _room(bundle: ExampleBundle, ordered: list[tuple[str, str]], max_tokens: int) -> int:
    """Room for file contents: the budget less the envelope and every path (all are
    listed, as files or as omitted)."""
    return (
        max_tokens
        - estimate_tokens(bundle.model_dump_json())
        - sum(estimate_tokens(path) + _FILE_OVERHEAD for path, _ in ordered)
    )


def get_example(
    hub: HubSession, example_id: str, include_readme: bool = True, max_tokens: int = DEFAULT_TOKENS
) -> ExampleBundle:
    """The example a chunk id belongs to: taxonomy plus its files, entry point first."""
    check_tokens(max_tokens)
    example_id = example_id.strip()
    chunk = next(iter(hub.store.get_chunks([example_id])), None)
    if chunk is not None and chunk.kind == "doc":
        # search_examples returns doc pages that are worked examples: open them here too.
        return _doc_page_example(hub, chunk, max_tokens)
    if chunk is not None and chunk.kind == "api":
        raise NotFoundError(
            f"{shown(example_id)} is an API definition ({chunk.symbol or chunk.path}), not "
            f"an example; open it with get_code_snippet(chunk_id={example_id!r})"
        )
    found = hub.store.unit_of(example_id) if chunk and chunk.kind == "example" else None
    if found is None:
        raise NotFoundError(
            f"no example chunk with id {shown(example_id)}; use search_examples to find one"
        )
    source, unit = found
    overview = _overview(hub, source, unit) or chunk
    assert overview is not None
    meta = overview.metadata
    rows = hub.store.unit_texts(source, unit)
    key_files = [str(k) for k in meta.extra.get("key_files", [])]
    entry = meta.extra.get("entry_point")
    priority = [p for p in [entry, *key_files] if p]

    def rank(path: str) -> tuple[int, str]:
        if path in priority:
            return (priority.index(path), path)
        return (len(priority) + (0 if path.endswith(".py") else 1), path)

    # what the bundle says in its own fields is not said twice (`tags:` in the header)
    fields = {
        "summary": None,
        "tags": meta.tags,
        "language": meta.language,
        "execution_mode": meta.execution_mode,
    }
    taxonomy = {
        k: v
        for k, v in meta.extra.items()
        if k not in fields or (k != "summary" and v != fields[k])
    }
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
    ordered = sorted(rows, key=lambda r: rank(r[0]))
    if not include_readme:
        ordered = [r for r in ordered if posixpath.basename(r[0]).lower() not in _README]
    room = _room(bundle, ordered, max_tokens)
    if ordered and room < min(estimate_tokens(ordered[0][1]), _ENTRY_TOKENS):
        # the taxonomy is not the answer: it gives way before the entry point's code
        bundle.taxonomy = {k: v for k, v in taxonomy.items() if k in TAXONOMY_KEPT}
        room = _room(bundle, ordered, max_tokens)
    for path, text in ordered:
        cost = estimate_tokens(text)
        if cost <= room:
            bundle.files.append(ExampleFile(path=path, content=text))
            room -= cost
        elif room > 100 and not bundle.files:
            content, _ = trim_lines(text, token_chars(room))
            bundle.files.append(ExampleFile(path=path, content=content, truncated=True))
            room = 0
        else:
            bundle.omitted.append(path)
    return bundle
