"""`rate`: worked / did not work for a record, useful / not useful for a knowledge hit.

Each rating is an append-only event plus an atomic counter increment in one
transaction (see `MemoryQueries.add_feedback`). Record ratings feed the worked-ratio
multiplier of search_solutions; knowledge ratings feed the knowledge re-ranker, and the
queries whose results were rated not useful show up in `get_hub_status`.
"""

from __future__ import annotations

from typing import Literal

from ctxhub.core.errors import InputError, NotFoundError, shown
from ctxhub.core.records import RateResult
from ctxhub.session import HubSession
from ctxhub.store.ids import resolve_id

MAX_NOTE = 2000


def rate(
    hub: HubSession,
    id: str,
    worked: bool,
    *,
    note: str | None = None,
    agent: str | None = None,
    session_id: str | None = None,
    query: str | None = None,
) -> RateResult:
    id = id.strip()
    if not id:
        raise InputError("id must not be empty: pass a record id or a knowledge hit id")
    if note is not None and len(note) > MAX_NOTE:
        raise InputError(f"note is {len(note)} characters; at most {MAX_NOTE}")
    resolved = resolve_id(hub.store, id)  # a unique prefix (digests print 8 characters)
    if resolved is not None:
        id = resolved[1]
    author = hub.caller.name if hub.caller is not None else None
    extra = {
        "note": note,
        "agent": agent,
        "session_id": session_id,
        "query": query,
        "author": author,
    }
    counts = hub.store.add_feedback(id, "memory", worked, **extra)
    kind: Literal["memory", "knowledge"] = "memory"
    if counts is None:
        counts = hub.store.add_feedback(id, "knowledge", worked, **extra)
        kind = "knowledge"
    if counts is None:
        raise NotFoundError(
            f"no record or knowledge hit with id {shown(id)}; ids come from"
            " search_solutions, browse_solutions or a knowledge search"
        )
    good, bad = counts
    word = ("worked", "did not work") if kind == "memory" else ("useful", "not useful")
    return RateResult(
        id=id,
        target=kind,
        worked=worked,
        worked_total=good,
        not_worked_total=bad,
        message=f"recorded: {word[0] if worked else word[1]} ({good} {word[0]}, {bad} {word[1]})",
    )
