"""The calls a trace could not follow, told apart so none reads as a missing definition
when it is not: `unresolved` (an indexed definition has the called name, but the graph
could not tell the call reaches it: `self._make_spec` on a mixin's self, whose class the
code does not name), `not_indexed` (nothing indexed defines the name: a call into a
package not indexed), and the calls on objects of unknown type (`handler.emit` on an
untyped local), which the graph never records (`extra.calls_untyped`): counted."""

from __future__ import annotations

from dataclasses import dataclass, field

from ctxhub.core.calls import as_written, call_sites
from ctxhub.core.knowledge import Chunk
from ctxhub.store.protocol import Store
from ctxhub.tools import resolve

#: What a called name must be, indexed, for a call of it to be only unresolved.
_CALLABLE = ("function", "method", "class", "alias")


@dataclass
class Unplaced:
    unresolved: list[str] = field(default_factory=list)
    not_indexed: list[str] = field(default_factory=list)
    #: calls on objects of unknown type, as written (at most what the chunk lists)
    untyped: list[str] = field(default_factory=list)
    untyped_count: int = 0


def unplaced_calls(store: Store, caller: Chunk, missing: list[str]) -> Unplaced:
    """`missing` (calls of `caller` that reached no definition, as written) split into
    unresolved and not indexed, and `caller`'s calls on objects of unknown type."""
    extra = caller.metadata.extra
    receivers = {as_written(q, v): v for _, q, v in call_sites(extra)}
    raw = extra.get("calls_imported")
    imported = set(raw) if isinstance(raw, dict) else set()
    out = Unplaced()
    defined: dict[str, bool] = {}
    for written in missing:
        last = written.rsplit(".", 1)[-1]
        if _by_name(written, receivers, imported) and _indexed(store, last, caller, defined):
            out.unresolved.append(written)
        else:
            out.not_indexed.append(written)
    untyped = [str(c) for c in extra.get("calls_untyped", ())]
    out.untyped = untyped
    count = extra.get("calls_untyped_count")
    out.untyped_count = count if isinstance(count, int) else len(untyped)
    return out


def _by_name(written: str, receivers: dict[str, str | None], imported: set[str]) -> bool:
    """A call the index could answer by its name: on a receiver (`self`, `super()`, a
    local, an attribute) or a bare name no import binds. A name an import binds is
    the imported module's, and reaching none means that module is not indexed."""
    if written in imported:
        return False
    if receivers.get(written) is not None:
        return True
    root = written.split(".", 1)[0]
    return "." not in written or root in ("self", "cls") or written.startswith("super().")


def _indexed(store: Store, name: str, caller: Chunk, cache: dict[str, bool]) -> bool:
    """Whether the caller's source indexes a definition called `name`."""
    if name not in cache:
        found, _ = resolve.find_symbol(store, name, caller.source)
        cache[name] = any(c.metadata.chunk_type in _CALLABLE for c in found)
    return cache[name]
