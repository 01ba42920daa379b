"""A typed id to what it names: a chunk or a memory record, given whole or as a unique
prefix (digests and narrow tables print the first characters of an id)."""

from __future__ import annotations

from typing import Literal

from ctxhub.core.errors import InputError
from ctxhub.core.records import Record
from ctxhub.store.protocol import HubStore

IdKind = Literal["chunk", "record"]
#: A shorter prefix names too many things to be a person's choice.
MIN_PREFIX = 4


def resolve_id(store: HubStore, text: str) -> tuple[IdKind, str] | None:
    """(kind, full id) for a whole id or a unique prefix of one; None when nothing
    matches. A prefix of several ids is an InputError that lists them."""
    text = text.strip()
    if not text:
        return None
    if store.get_chunks([text]):
        return ("chunk", text)
    if store.get_records([text]):
        return ("record", text)
    if len(text) < MIN_PREFIX:
        return None
    found: list[tuple[IdKind, str]] = [
        *(("chunk", i) for i in store.chunk_ids_with_prefix(text, 3)),
        *(("record", i) for i in store.record_ids_with_prefix(text, 3)),
    ]
    if len(found) > 1:
        listed = ", ".join(f"{i} ({kind})" for kind, i in found[:3])
        raise InputError(f"{text!r} starts several ids: {listed}; give more characters")
    return found[0] if found else None


def record_text(r: Record) -> str:
    """A memory record in full, for `ctxhub show`."""
    rated = f"rated {r.worked}/{r.ratings} worked" if r.ratings else "not rated yet"
    labels = [x for x in (r.language, r.framework) if x] + list(r.tags)
    lines = [
        f"record {r.id} · seen {r.occurrences}x · {rated}",
        f"labels: {', '.join(labels)}" if labels else "",
        f"variant of {r.variant_of}" if r.variant_of else "",
        "",
        "problem:",
        r.problem,
    ]
    if r.error_type:
        lines += ["", f"error: {r.error_type}"]
    if r.stack_trace:
        lines += ["", "stack trace:", r.stack_trace]
    if r.code_snippet:
        lines += ["", "code:", r.code_snippet]
    if r.code_diff:
        lines += ["", "diff:", r.code_diff]
    lines += ["", "solution:", r.solution or "(none recorded)"]
    if r.stale_symbols:
        lines += ["", f"possibly stale: {', '.join(r.stale_symbols)} changed since it was logged"]
    return "\n".join(line for i, line in enumerate(lines) if line or i > 2)
