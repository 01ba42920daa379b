"""The memory page: records with filters, their variants and merges, tag edits, forget
and export, through the MemoryStore protocol and the memory use cases."""

from __future__ import annotations

import io
from typing import Any

from ctxhub.core.errors import InputError, NotFoundError, shown
from ctxhub.core.records import MemoryFilters, Record, normalise_labels
from ctxhub.memory.records.transfer import export_records
from ctxhub.session import HubSession
from ctxhub.store.ids import resolve_id

#: Records per page (the page asks for the next with `offset`).
PAGE = 50
MAX_TAGS = 50


def _row(record: Record, merged: dict[str, list[str]]) -> dict[str, Any]:
    data = record.model_dump(mode="json")
    data["merged"] = merged.get(record.id, [])
    data["possibly_stale"] = bool(record.stale_symbols)
    return data


def _merged(hub: HubSession) -> dict[str, list[str]]:
    """record id -> the ids merged into it (aliases: a near-identical record logged
    again, or an import's id, now names this one)."""
    out: dict[str, list[str]] = {}
    for alias, record_id in hub.store.aliases():
        out.setdefault(record_id, []).append(alias)
    return out


def list_records(
    hub: HubSession, filters: dict[str, Any], offset: int = 0, limit: int = PAGE
) -> dict[str, Any]:
    """One page of records, most recently seen first, and how many match."""
    try:
        wanted = MemoryFilters.model_validate(filters)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    records, total = hub.store.list_records(wanted, limit=limit, offset=max(0, offset))
    merged = _merged(hub)
    return {
        "records": [_row(r, merged) for r in records],
        "total": total,
        "offset": offset,
        "counts": hub.store.memory_counts(),
    }


def _resolve(hub: HubSession, record_id: str) -> str:
    found = resolve_id(hub.store, record_id)
    if found is None or found[0] != "record":
        raise NotFoundError(f"no record with id {shown(record_id)}")
    return found[1]


def record_detail(hub: HubSession, record_id: str) -> dict[str, Any]:
    """A record with its variants (records logged as another fix of its problem) and
    the original it is a variant of."""
    full = _resolve(hub, record_id)
    record = hub.store.get_records([full])[0]
    data = _row(record, _merged(hub))
    variants, _ = hub.store.list_records(MemoryFilters(), limit=1000)
    data["variants"] = [
        {"id": r.id, "problem": r.problem[:200], "worked": r.worked, "not_worked": r.not_worked}
        for r in variants
        if r.variant_of == full
    ]
    return data


def set_tags(hub: HubSession, record_id: str, tags: Any) -> dict[str, Any]:
    """Replace a record's tags (normalised as logging normalises them)."""
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise InputError("tags must be a list of strings")
    clean = normalise_labels(tags)
    if len(clean) > MAX_TAGS:
        raise InputError(f"{len(clean)} tags; at most {MAX_TAGS}")
    full = _resolve(hub, record_id)
    hub.store.set_record_tags(full, clean)
    return record_detail(hub, full)


def forget(hub: HubSession, record_id: str) -> dict[str, Any]:
    """Delete a record with its ratings (what `ctxhub forget` does)."""
    full = _resolve(hub, record_id)
    hub.store.delete_record(full)
    return {"deleted": full}


def export(hub: HubSession) -> tuple[str, int]:
    """Every record as `ctxhub export` writes it (JSON Lines, no vectors)."""
    out = io.StringIO()
    n = export_records(hub, out)
    return out.getvalue(), n
