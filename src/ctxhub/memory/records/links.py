"""Links from a record to the knowledge symbols its text names.

A record that says "`DeepgramSTTService.run_stt` now yields ErrorFrame" is about that
code. The link keeps the symbol's content hash at logging time; when a refresh changes
(or removes) the symbol, the record reads as possibly stale (see
`MemoryQueries.get_records`). Only names that look like code and resolve to a few API
definitions are linked: a bare `run` matching forty methods says nothing.
"""

from __future__ import annotations

from ctxhub.core.identifiers import code_names
from ctxhub.core.knowledge import SearchFilters
from ctxhub.core.records import RecordInput
from ctxhub.store.protocol import Store

#: a name resolving to more definitions than this is too generic to link
MAX_MATCHES = 3
MAX_LINKS = 20


def named_identifiers(record: RecordInput, limit: int = 60) -> list[str]:
    """Code-like names in the record's texts, longest (most specific) first."""
    texts = (
        record.problem,
        record.solution,
        record.code_snippet,
        record.code_diff,
        record.stack_trace,
    )
    names: dict[str, None] = {}
    for text in texts:
        for name in code_names(text or ""):
            if len(name) >= 4:
                names.setdefault(name, None)
    return sorted(names, key=lambda n: (-n.count("."), -len(n)))[:limit]


def symbol_links(store: Store, record: RecordInput) -> list[tuple[str, str]]:
    """(qualified symbol, content hash) of the API definitions the record names."""
    links: dict[str, str] = {}
    for name in named_identifiers(record):
        found = store.symbol_lookup([name], SearchFilters(), ["api"], MAX_MATCHES + 1)
        if not found or len(found) > MAX_MATCHES:
            continue
        for chunk in store.get_chunks([cid for cid, _ in found]):
            symbol, wanted = (chunk.symbol or "").lower(), name.lower()
            if chunk.symbol and (symbol == wanted or symbol.endswith("." + wanted)):
                links.setdefault(chunk.symbol, chunk.content_hash)
        if len(links) >= MAX_LINKS:
            break
    return sorted(links.items())
