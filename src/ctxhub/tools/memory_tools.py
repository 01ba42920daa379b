"""The memory tools' functions: log_solution, search_solutions, search_by_approach,
browse_solutions, ecosystem_digest (`rate` is `memory.feedback.rate` itself).

Records hooks captured wait in the pending folder (the hook never embeds: it must return
to the agent at once). `store_pending` embeds and stores them: log_solution calls it
first, and so do the server's background drainer and the CLI before a memory read. The
read tools themselves never write."""

from __future__ import annotations

import logging
from typing import Any

from ctxhub.core.outputs import BrowseResponse, DigestResponse, SolutionSearchResponse
from ctxhub.core.records import LogResult, MemoryFilters, RecordInput
from ctxhub.memory.records import log as records
from ctxhub.memory.search import browse
from ctxhub.memory.search import retrieval as search
from ctxhub.session import HubSession

log = logging.getLogger("ctxhub.memory")


def store_pending(hub: HubSession, limit: int | None = None) -> int:
    """Embed and store records hooks left in the pending folder; returns how many."""
    from ctxhub.memory.records.pending import drain_pending

    try:
        summary = drain_pending(hub) if limit is None else drain_pending(hub, limit=limit)
        return summary.stored
    except Exception as exc:  # a broken pending file never fails the tool call
        log.warning("could not store pending records: %s", exc)
        return 0


def log_solution(hub: HubSession, **fields: Any) -> LogResult:
    store_pending(hub)
    values = {k: v for k, v in fields.items() if v is not None}
    if hub.caller is not None:  # the token it came with, never the caller's say
        values["logged_by"] = hub.caller.name
    record = RecordInput.model_validate(values)
    return records.log_solution(hub, record)


def search_solutions(
    hub: HubSession,
    query: str,
    *,
    code_context: str | None = None,
    language: str | None = None,
    framework: str | None = None,
    tags: list[str] | None = None,
    error_type: str | None = None,
    limit: int = 5,
) -> SolutionSearchResponse:
    filters = MemoryFilters(
        language=language, framework=framework, tags=tags, error_type=error_type
    )
    return search.search_solutions(
        hub, query, code_context=code_context, filters=filters, limit=limit
    )


def search_by_approach(
    hub: HubSession, approach: str, *, language: str | None = None, limit: int = 5
) -> SolutionSearchResponse:
    return search.search_by_approach(
        hub, approach, filters=MemoryFilters(language=language), limit=limit
    )


def browse_solutions(
    hub: HubSession,
    *,
    language: str | None = None,
    framework: str | None = None,
    tag: str | None = None,
    error_type: str | None = None,
    source: str | None = None,
    limit: int = 20,
    cursor: str | None = None,
) -> BrowseResponse:
    filters = MemoryFilters(
        language=language,
        framework=framework,
        tags=[tag] if tag else None,
        error_type=error_type,
        source=source,
    )
    return browse.browse_solutions(hub, filters, limit, cursor)


def ecosystem_digest(
    hub: HubSession, languages: list[str], frameworks: list[str] | None = None, limit: int = 30
) -> DigestResponse:
    return browse.ecosystem_digest(hub, languages, frameworks, limit)
