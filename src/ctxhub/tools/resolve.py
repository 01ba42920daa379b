"""Names -> indexed definitions: the symbol cascade (exact, re-export, suffix, inherited,
class, method, alias, instance), a class's members along its bases, aliases and stubs
followed to what they stand for, and the order among several sources. The call graph's
edges are `call_edges.py`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ctxhub.core.knowledge import Chunk, ChunkQuery
from ctxhub.search.reexports import recorded_as, renamed_in
from ctxhub.search.stubs import is_stub, runtime_definition
from ctxhub.store.protocol import Store

#: Definitions before overviews when a name matches several chunks.
_TYPE_ORDER = {"class": 0, "method": 1, "function": 1, "module": 3}


def by_preference(chunks: Sequence[Chunk]) -> list[Chunk]:
    return sorted(
        chunks,
        key=lambda c: (
            _TYPE_ORDER.get(c.metadata.chunk_type or "", 2),
            is_stub(c),  # the code that runs before its type stub (search/stubs.py)
            len(c.symbol or ""),
            c.path,
            c.line_start or 0,
        ),
    )


def api_chunks(
    store: Store,
    source: str | None = None,
    *,
    symbol: str | None = None,
    symbol_name: str | None = None,
    chunk_types: tuple[str, ...] = (),
    calls: str | None = None,
    limit: int | None = None,
) -> list[Chunk]:
    query = ChunkQuery(
        kind="api",
        source=source,
        symbol=symbol,
        symbol_name=symbol_name,
        chunk_types=chunk_types,
        calls=calls,
        limit=limit,
    )
    # a lookup's first answer is the code that runs, not a `.pyi` or `@overload` of it
    return sorted(store.find_chunks(query), key=is_stub)


def with_suffix(
    store: Store,
    name: str,
    source: str | None = None,
    chunk_types: Sequence[str] | None = None,
) -> list[Chunk]:
    """API chunks whose symbol is `name` or ends with `.name` (case-insensitive)."""
    return by_preference(
        api_chunks(store, source, symbol_name=name, chunk_types=tuple(chunk_types or ()))
    )


def _exact_case_first(chunks: list[Chunk], last: str) -> list[Chunk]:
    """`File` asked: the class `...File` before the module `...file` (suffix matching is
    case-insensitive, a name's case is not)."""
    return sorted(chunks, key=lambda c: (c.symbol or "").rsplit(".", 1)[-1] != last)


def recorded_reexport(
    store: Store, name: str, source: str | None = None, depth: int = 0
) -> list[Chunk]:
    """The definitions `pkg.mod.name` stands for by what module `pkg.mod` recorded at
    ingest: its declared API (`__all__`, a package's re-exports), else its own imports
    (`from ._impl import name`), followed through further re-exports. [] when the
    module is not indexed or records no such name."""
    if "." not in name or depth > 4:
        return []
    module = name.rsplit(".", 1)[0]
    modules = api_chunks(store, source, symbol=module, chunk_types=("module",))
    for targets in recorded_as(modules, name):
        found: dict[str, Chunk] = {}
        for target in targets:
            chunks = api_chunks(store, source, symbol=target) or recorded_reexport(
                store, target, source, depth + 1
            )
            # the best definition per source: with two versions of a package indexed,
            # each is kept, and the caller puts the installed one first
            per_source: dict[str, Chunk] = {}
            for c in by_preference(chunks):
                per_source.setdefault(c.source, c)
            found.update((c.id, c) for c in per_source.values())
        if found:
            return list(found.values())
    return []


def find_symbol(store: Store, name: str, source: str | None = None) -> tuple[list[Chunk], str]:
    """Definitions for `name`: exact qualified name -> a re-export (`pkg.File` defined as
    `pkg.file.File`: what module `pkg` recorded it imports, else a guess among the
    definitions named `File` below `pkg`, "ambiguous re-export" when several) ->
    `Class.method` (a dotted suffix) -> a member the qualifier's class inherits
    (`pkg.Sub.run` defined on a base of `Sub`); a dotted name stops there. An undotted
    name goes on: a class of that name -> a function or method of that name -> a
    module-level alias of that name -> a documented module-level instance
    (`format_exc_info = ExceptionRenderer()`). ([], "") if none; `through_alias`
    follows an alias to its definition."""
    name = name.strip().strip("`").removesuffix("()")
    exact = api_chunks(store, source, symbol=name)
    if exact:
        return by_preference(exact), "exact"
    last = name.rsplit(".", 1)[-1]
    if "." in name:
        recorded = recorded_reexport(store, name, source)
        if recorded:
            # one symbol from two sources (two versions) is not ambiguous
            one = len({c.symbol for c in recorded}) == 1
            return recorded, "re-export" if one else "ambiguous re-export"
        package = name.rsplit(".", 1)[0]
        # what `package` binds under another name is not there under its own
        renamed = renamed_in(api_chunks(store, source, symbol=package, chunk_types=("module",)))
        exported = [
            c
            for c in with_suffix(store, last, source, ["class", "function", "instance"])
            if f".{package}." in f".{c.symbol}"  # defined in a module below `package`
            and (c.symbol or "").rsplit(".", 1)[-1] == last
            and c.symbol not in renamed
        ]
        if exported:
            return exported, "re-export" if len(exported) == 1 else "ambiguous re-export"
        found = with_suffix(store, name, source)
        if found:
            return _exact_case_first(found, last), "class.method"
        # A dotted name's qualifier must hold the name: a class's member is looked up
        # along its bases, and nothing else of that last name answers (never another
        # class's or package's method that happens to share it).
        inherited = _inherited(store, package, last, source)
        return (inherited, "inherited") if inherited else ([], "")
    found = with_suffix(store, last, source, ["class"])
    if found:
        return _exact_case_first(found, last), "class"
    found = with_suffix(store, last, source, ["method", "function"])
    if found:
        return _exact_case_first(found, last), "method"
    found = with_suffix(store, last, source, ["alias"])
    if found:
        return found, "alias"
    found = with_suffix(store, last, source, ["instance"])
    if found:
        return _exact_case_first(found, last), "instance"
    return [], ""


#: Classes a qualifier may name (`Event.wait`: several `Event`s) whose bases are read.
MAX_OWNERS = 5


def _inherited(store: Store, qualifier: str, member: str, source: str | None) -> list[Chunk]:
    """`member` as the classes `qualifier` names define or inherit it ([] when the
    qualifier names no class, or classes without that member)."""
    owners, _ = find_symbol(store, qualifier, source)
    found: dict[str, Chunk] = {}
    for owner in [c for c in owners if c.metadata.chunk_type == "class"][:MAX_OWNERS]:
        hit = method_in_hierarchy(store, owner, member)
        if hit is not None:
            found.setdefault(hit.id, hit)
    return list(found.values())


def class_chunk(
    store: Store, module: str | None, class_name: str, source: str | None = None
) -> Chunk | None:
    if module:
        exact = api_chunks(store, source, symbol=f"{module}.{class_name}", chunk_types=("class",))
        if exact:
            return exact[0]
    found = with_suffix(store, class_name, source, ["class"])
    return found[0] if found else None


def method_in_hierarchy(
    store: Store,
    cls: Chunk,
    name: str,
    *,
    skip_self: bool = False,
    depth: int = 0,
    seen: set[str] | None = None,
) -> Chunk | None:
    """`name` defined on `cls` or, following `bases` by name, on its nearest base."""
    seen = seen if seen is not None else set()
    if cls.symbol is None or cls.symbol in seen or depth > 8:
        return None
    seen.add(cls.symbol)
    if not skip_self:
        member = f"{cls.symbol}.{name}"
        types = ("method", "function")
        # the class's own source first: another indexed version of it is another class
        own = api_chunks(store, cls.source, symbol=member, chunk_types=types) or api_chunks(
            store, symbol=member, chunk_types=types
        )
        if own:
            return own[0]
    for base in cls.metadata.bases:
        base_name = base.split("[", 1)[0].rsplit(".", 1)[-1]
        base_cls = class_chunk(store, None, base_name, cls.source)
        if base_cls is not None and base_cls.id != cls.id:
            found = method_in_hierarchy(store, base_cls, name, depth=depth + 1, seen=seen)
            if found is not None:
                return found
    return None


def through_alias(store: Store, found: list[Chunk], how: str) -> tuple[list[Chunk], str]:
    """An alias chunk (`name = Definition`) stands for the definition it names."""
    if not found or found[0].metadata.chunk_type != "alias":
        return found, how
    target = str(found[0].metadata.extra.get("alias_of", ""))
    definition = api_chunks(store, found[0].source, symbol=target) or api_chunks(
        store, symbol=target
    )
    return (definition + found, "alias") if definition else (found, how)


#: Stubs of an answer looked up among the other matches (each costs a few reads).
MAX_STUBS = 8


def runtime_first(store: Store, found: list[Chunk]) -> tuple[list[Chunk], list[Chunk]]:
    """`found` led by the code that runs: a type stub first in line gives way to its
    runtime definition (search/stubs.py), and the stubs of the answer among `found`
    come back apart (its typed signatures), out of the list."""
    if found and is_stub(found[0]):
        runtime = runtime_definition(store, found[0])
        if runtime is not None:
            found = [runtime, *(c for c in found if c.id != runtime.id)]
    if not found or is_stub(found[0]):
        return found, []
    head = found[0]
    last = (head.symbol or "").rsplit(".", 1)[-1]
    maybe = [
        c
        for c in found[1:]
        if is_stub(c) and c.source == head.source and (c.symbol or "").endswith(f".{last}")
    ]
    runs: dict[str, str | None] = {}  # a stub's overloads: one lookup
    stubs: list[Chunk] = []
    for stub in maybe:
        if stub.symbol not in runs and len(runs) < MAX_STUBS:
            runtime = runtime_definition(store, stub)
            runs[stub.symbol or ""] = runtime.id if runtime else None
        if runs.get(stub.symbol or "") == head.id:
            stubs.append(stub)
    kept = {s.id for s in stubs}
    return [c for c in found if c.id not in kept], stubs


def prefer_sources(found: list[Chunk], ranks: Mapping[str, int]) -> tuple[list[Chunk], list[Chunk]]:
    """When the answer's symbol is defined in several sources (two versions of one
    package), the definition from the best-ranked source (hub_status.installed_ranks)
    first; the same symbol in the other sources comes back apart."""
    if not found:
        return found, []
    same = [c for c in found if c.symbol == found[0].symbol]
    if len({c.source for c in same}) < 2:
        return found, []
    best = min(same, key=lambda c: ranks.get(c.source, 1))
    others = [c for c in same if c.source != best.source]
    taken = {c.id for c in others} | {best.id}
    return [best, *(c for c in found if c.id not in taken)], others
