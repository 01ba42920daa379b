"""search_api's `calls` filter past the store's match by last name.

The store matches a chunk's calls by their last dotted part (`atomic` admits every
`x.atomic()`). A qualified or `Class.method` name (`pkg.db.Database.atomic`,
`Database.atomic`) asks for one definition: each admitted chunk's calls of that last
name are resolved as trace_calls resolves them (tools/call_edges.py), and a chunk stays
when one of them reaches that definition (any indexed copy of it: the same qualified
name). A call the graph resolves to another definition (`Other.atomic`) drops the chunk.
So does a call of an imported name no source indexes
(`driver.connect()` after `import driver`). A call it cannot resolve otherwise, on a
receiver whose class the index cannot place (`self.atomic()` or
`super().atomic()` in a mixin, `conn.atomic()` on a local rebound to an unknown value
before the call), may reach it: the chunk stays, marked `call_unresolved`, and the
notice counts them. A name no source defines keeps every match by last name and says
so. A call on a parameter or local whose type the code never states (`conn.atomic()`,
`conn` an unannotated parameter) is not in the call graph at all (core/calls.py), so
neither filter lists it: trace_calls' `untyped_callers` caveat holds here too.
"""

from __future__ import annotations

from dataclasses import dataclass

from ctxhub.core.calls import CallsVia, call_sites, via_kind
from ctxhub.core.knowledge import Chunk
from ctxhub.search.stubs import runtime_definition
from ctxhub.store.protocol import Store
from ctxhub.tools import resolve
from ctxhub.tools.call_edges import resolve_call

#: Listed chunks whose calls are resolved at most (each a few store reads); past it the
#: last-name match stands, and the notice says so.
MAX_RESOLVED = 1000


@dataclass(frozen=True)
class CallsMatch:
    """The chunk ids the filter keeps (None: every one the store admitted), those kept
    only because their call's receiver is of unknown type, and a notice (or None)."""

    keep: set[str] | None
    unresolved: set[str]
    notice: str | None


def cleaned(name: str) -> str:
    return name.strip().strip("`").removesuffix("()")


def _targets(store: Store, name: str) -> set[str]:
    """The qualified names of the definitions `name` stands for (a stub's by the code
    that runs, as a call resolves to it)."""
    found, _ = resolve.find_symbol(store, name)
    out: set[str] = set()
    for chunk in found:
        if chunk.metadata.chunk_type == "module":
            continue
        runtime = runtime_definition(store, chunk) or chunk
        out.update(s for s in (chunk.symbol, runtime.symbol) if s)
    return out


def _sites(chunk: Chunk) -> list[tuple[str, str, str | None]]:
    """The chunk's calls, and any `calls` name no recorded site spells (as written)."""
    sites = call_sites(chunk.metadata.extra)
    spelled = {called for called, _, _ in sites}
    return sites + [(n, n, None) for n in chunk.metadata.calls if n not in spelled]


def match_calls(store: Store, calls: str, via: CallsVia, chunks: list[Chunk]) -> CallsMatch:
    """Which of `chunks` (what the store's last-name match admitted) call the definition
    the dotted `calls` names (see the module docstring). An undotted name keeps all."""
    name = cleaned(calls)
    last = name.rsplit(".", 1)[-1]
    if "." not in name:
        return CallsMatch(None, set(), None)
    targets = _targets(store, name)
    if not targets:
        return CallsMatch(
            None,
            set(),
            f"no indexed definition is named {name!r}: listed every call of {last!r}, "
            "whatever it is called on",
        )
    if len(chunks) > MAX_RESOLVED:
        return CallsMatch(
            None,
            set(),
            f"{len(chunks)} functions call {last!r}: too many to resolve, listed by last name",
        )
    keep: set[str] = set()
    unresolved: set[str] = set()
    for chunk in chunks:
        unknown = False
        recorded = chunk.metadata.extra.get("calls_imported")
        imported = recorded if isinstance(recorded, dict) else {}
        for called, qualified, receiver in _sites(chunk):
            if called != last or via not in ("any", via_kind(receiver)):
                continue
            target = resolve_call(store, chunk, called, qualified, receiver)
            if target is None:
                # an import names what it calls (`driver.connect` after `import driver`):
                # a definition no source indexes, not an unknown
                unknown = unknown or qualified not in imported
            elif target.symbol in targets:
                keep.add(chunk.id)
                break
        else:
            if unknown:
                keep.add(chunk.id)
                unresolved.add(chunk.id)
    notice = None
    if unresolved:
        # one definition indexed twice (two sources of one version) is one function
        count = len({c.symbol or c.id for c in chunks if c.id in unresolved})
        notice = (
            f"{count} of the listed functions call {last!r} on an object whose "
            f"type the code does not state: they may call another {last!r} "
            "(marked call_unresolved)"
        )
    return CallsMatch(keep, unresolved, notice)
