"""A typed id to what it names: a chunk or a memory record, given whole or as a unique
prefix (digests and narrow tables print the first characters of an id)."""

from __future__ import annotations

from typing import Literal

from ctxhub.core.errors import InputError
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
