"""A class's bases as the indexed classes they are, its method resolution order, and the
method a name reaches along it.

A base is the class its module binds it to (`extra["bases_qualified"]`, recorded at
ingest: ingest/python/bases.py): `ClientConnection(Connection)` after `from .connection
import Connection` derives from that module's `Connection`, never from another class
that shares the name. That name is looked up exactly, through the re-exports its module
recorded and through an alias (`Base = _Base`). A base bound to a module no source
indexes (`httpx.Client`, a builtin) is outside the index: nothing there is a namesake.
Only a base whose binding is unknown (a star import, `with_metaclass(...)`, a store
indexed before bases were qualified), or whose qualified name is in an indexed package
but defined nowhere there, is matched by its last name, and only when exactly one class
has it; otherwise it stays unknown, and a method that could come from it is not guessed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ctxhub.core.knowledge import Chunk
from ctxhub.search.stubs import is_stub
from ctxhub.store.protocol import Store
from ctxhub.tools.lookup import api_chunks, recorded_reexport, with_suffix

#: How deep a hierarchy is followed (bases of bases ...).
MAX_DEPTH = 12


@dataclass(frozen=True)
class Base:
    """One base of a class: the class it is (None when not indexed or unknown), and
    whether it is unknown (could be an indexed class, but which one is not known)."""

    written: str
    cls: Chunk | None
    unknown: bool = False


def class_named(store: Store, dotted: str, source: str | None) -> Chunk | None:
    """The class named exactly `dotted` (the given source's first), the class that name
    re-exports, or the class an alias of that name stands for; else None."""
    for scope in dict.fromkeys([source, None]):
        found = api_chunks(store, scope, symbol=dotted, chunk_types=("class", "alias"))
        classes = [c for c in found if c.metadata.chunk_type == "class"]
        if classes:
            return classes[0]
        for alias in found:
            target = str(alias.metadata.extra.get("alias_of", ""))
            if target and target != dotted:
                cls = api_chunks(store, scope, symbol=target, chunk_types=("class",))
                if cls:
                    return cls[0]
        exported = [
            c for c in recorded_reexport(store, dotted, scope) if c.metadata.chunk_type == "class"
        ]
        if exported:
            return exported[0]
    return None


def _indexed_packages(store: Store) -> set[str]:
    return {str(p) for s in store.sources() for p in s.stats.get("packages", ())}


def unique_class(
    store: Store, name: str, source: str | None, within: str | None = None
) -> Chunk | None:
    """The one class whose last name is `name` (below package `within`, if given), the
    given source's first; None when none or several (a class and its stub are one)."""
    for scope in dict.fromkeys([source, None]):
        found = [
            c
            for c in with_suffix(store, name, scope, ["class"])
            if (c.symbol or "").rsplit(".", 1)[-1] == name
            and (within is None or (c.symbol or "").startswith(within + "."))
        ]
        if not found:
            continue
        symbols = {c.symbol for c in found}
        if len(symbols) != 1:
            return None
        return sorted(found, key=is_stub)[0]
    return None


def qualified_base(cls: Chunk, index: int) -> str:
    """The base's qualified name recorded at ingest, else what the class's own imports
    say (a store indexed before bases were qualified); "" when unknown."""
    recorded = cls.metadata.extra.get("bases_qualified")
    if isinstance(recorded, list) and index < len(recorded):
        return str(recorded[index] or "")
    written = cls.metadata.bases[index].split("[", 1)[0]
    root = written.split(".", 1)[0]
    for target in cls.metadata.imports:
        if target.rsplit(".", 1)[-1] == root:
            return ".".join([target, *written.split(".")[1:]])
    return ""


def resolve_base(store: Store, cls: Chunk, index: int) -> Base:
    """The class chunk `cls`'s base number `index`, resolved (see the module docstring)."""
    written = cls.metadata.bases[index]
    last = written.split("[", 1)[0].rsplit(".", 1)[-1]
    qualified = qualified_base(cls, index)
    found: Chunk | None = None
    unknown = False
    if qualified and not qualified.startswith("builtins."):
        found = class_named(store, qualified, cls.source)
        top = qualified.split(".", 1)[0]
        if found is None and top in _indexed_packages(store):
            found = unique_class(store, last, cls.source, within=top)
            unknown = found is None
    elif not qualified:
        local = f"{cls.metadata.module}.{written.split('[', 1)[0]}"
        found = class_named(store, local, cls.source) if cls.metadata.module else None
        found = found or unique_class(store, last, cls.source)
        unknown = found is None
    if found is not None and found.id == cls.id:
        found, unknown = None, True
    return Base(written, found, unknown)


def bases_of(store: Store, cls: Chunk) -> list[Base]:
    """Each base of the class chunk `cls`, resolved."""
    return [resolve_base(store, cls, i) for i in range(len(cls.metadata.bases))]


def method_resolution_order(store: Store, cls: Chunk) -> list[Chunk | None]:
    """`cls` and its indexed ancestors in Python's C3 order; None stands where an
    unknown base (and what it brings) would be. Foreign bases are left out."""
    memo: dict[str, list[str]] = {}
    chunks: dict[str, Chunk | None] = {}

    def linearize(c: Chunk, depth: int, path: frozenset[str]) -> list[str]:
        key = c.id
        chunks[key] = c
        if key in memo:
            return memo[key]
        if depth > MAX_DEPTH or key in path:
            return [key]
        heads: list[list[str]] = []
        direct: list[str] = []
        for i, base in enumerate(bases_of(store, c)):
            if base.cls is not None:
                heads.append(linearize(base.cls, depth + 1, path | {key}))
                direct.append(base.cls.id)
            elif base.unknown:
                marker = f"?{key}:{i}"
                chunks[marker] = None
                heads.append([marker])
                direct.append(marker)
        memo[key] = [key, *_merge([*heads, direct])]
        return memo[key]

    return [chunks[k] for k in linearize(cls, 0, frozenset())]


def _merge(seqs: Sequence[list[str]]) -> list[str]:
    """C3's merge; on an inconsistent hierarchy, the remaining heads in order."""
    pending = [list(s) for s in seqs if s]
    out: list[str] = []
    while pending:
        for seq in pending:
            head = seq[0]
            if not any(head in s[1:] for s in pending):
                break
        else:
            head = pending[0][0]
        out.append(head)
        pending = [[x for x in s if x != head] for s in pending]
        pending = [s for s in pending if s]
    return out


def method_in_hierarchy(
    store: Store,
    cls: Chunk,
    name: str,
    *,
    skip_self: bool = False,
    chunk_types: tuple[str, ...] = ("method", "function", "alias"),
) -> Chunk | None:
    """`name` as `cls` (or `super()` in `cls`, with `skip_self`) reaches it: the first
    class along its MRO that defines it as one of `chunk_types` (a method alias in a class
    body, `pop = peek`, defines it as surely as a `def`: it shadows a base's method; a
    lookup by name also takes a documented attribute; a call does not). None when it is
    not indexed, or when an unknown base comes first (the method may be that base's)."""
    order = method_resolution_order(store, cls)
    for owner in order[1:] if skip_self else order:
        if owner is None:
            return None
        member = f"{owner.symbol}.{name}"
        # the class's own source first: another indexed version of it is another class
        own = api_chunks(store, owner.source, symbol=member, chunk_types=chunk_types) or api_chunks(
            store, symbol=member, chunk_types=chunk_types
        )
        if own:
            return sorted(own, key=is_stub)[0]
    return None


def derives_from(store: Store, cls: Chunk, target: Chunk) -> bool:
    """Whether one of `cls`'s own bases is the class `target` (by qualified name: the
    same class indexed in another source counts)."""
    return any(b.cls is not None and b.cls.symbol == target.symbol for b in bases_of(store, cls))
