"""Names -> indexed definitions: the symbol cascade and call-target resolution.

The call graph stores what the code says (`self.push_frame`, `super().start`,
`FrameProcessor.__init__`, `create_task`), and each call's receiver (core/calls.py);
resolving it to definitions uses the index itself: the caller's class and its bases (by
name, through the class chunks' `bases`), classes named in the call, then functions of
the caller's module, then unique names. A call through a typed attribute or local was
resolved at ingest (`pkg.mod.Client.send`) and reaches that class's method, or nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ctxhub.core.calls import as_written, call_sites, marker, via_kind
from ctxhub.core.knowledge import Chunk, ChunkQuery
from ctxhub.search.reexports import recorded_as
from ctxhub.search.stubs import is_stub, runtime_definition
from ctxhub.store.protocol import Store

#: Definitions before overviews when a name matches several chunks.
_TYPE_ORDER = {"class": 0, "method": 1, "function": 1, "module": 3}


def _by_preference(chunks: Sequence[Chunk]) -> list[Chunk]:
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


def _api(
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
    return _by_preference(
        _api(store, source, symbol_name=name, chunk_types=tuple(chunk_types or ()))
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
    modules = _api(store, source, symbol=module, chunk_types=("module",))
    for targets in recorded_as(modules, name):
        found: dict[str, Chunk] = {}
        for target in targets:
            chunks = _api(store, source, symbol=target) or recorded_reexport(
                store, target, source, depth + 1
            )
            found.update((c.id, c) for c in _by_preference(chunks)[:1])
        if found:
            return list(found.values())
    return []


def find_symbol(store: Store, name: str, source: str | None = None) -> tuple[list[Chunk], str]:
    """Definitions for `name`: exact qualified name -> a re-export (`pkg.File` defined as
    `pkg.file.File`: what module `pkg` recorded it imports, else a guess among the
    definitions named `File` below `pkg`, "ambiguous re-export" when several) ->
    `Class.method` (a dotted suffix) -> a class of that name -> a function or method of
    that name -> a module-level alias of that name -> a documented module-level instance
    (`format_exc_info = ExceptionRenderer()`). ([], "") if none; `through_alias`
    follows an alias to its definition."""
    name = name.strip().strip("`").removesuffix("()")
    exact = _api(store, source, symbol=name)
    if exact:
        return _by_preference(exact), "exact"
    last = name.rsplit(".", 1)[-1]
    if "." in name:
        recorded = recorded_reexport(store, name, source)
        if recorded:
            return recorded, "re-export" if len(recorded) == 1 else "ambiguous re-export"
        package = name.rsplit(".", 1)[0]
        exported = [
            c
            for c in with_suffix(store, last, source, ["class", "function", "instance"])
            if f".{package}." in f".{c.symbol}"  # defined in a module below `package`
            and (c.symbol or "").rsplit(".", 1)[-1] == last
        ]
        if exported:
            return exported, "re-export" if len(exported) == 1 else "ambiguous re-export"
        found = with_suffix(store, name, source)
        if found:
            return _exact_case_first(found, last), "class.method"
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


def through_alias(store: Store, found: list[Chunk], how: str) -> tuple[list[Chunk], str]:
    """An alias chunk (`name = Definition`) stands for the definition it names."""
    if not found or found[0].metadata.chunk_type != "alias":
        return found, how
    target = str(found[0].metadata.extra.get("alias_of", ""))
    definition = _api(store, found[0].source, symbol=target) or _api(store, symbol=target)
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


def class_chunk(
    store: Store, module: str | None, class_name: str, source: str | None = None
) -> Chunk | None:
    if module:
        exact = _api(store, source, symbol=f"{module}.{class_name}", chunk_types=("class",))
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
        own = _api(store, cls.source, symbol=member, chunk_types=types) or _api(
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


def _qualified_class(store: Store, dotted: str, source: str | None) -> Chunk | None:
    """The class chunk named exactly `dotted` (a class resolved at ingest), or None."""
    found = _api(store, source, symbol=dotted, chunk_types=("class",)) or _api(
        store, symbol=dotted, chunk_types=("class",)
    )
    return found[0] if found else None


def resolve_call(
    store: Store, caller: Chunk, name: str, qualified: str | None, via: str | None = None
) -> Chunk | None:
    """The indexed definition a call in `caller` most likely reaches, or None. `via` is the
    call's receiver (core/calls.py); without it, the written text tells. A call by name
    looks in the caller's own source first: with two versions of a package indexed (two
    sources), a call stays in its version, and the other never makes a name ambiguous."""
    meta = caller.metadata
    text = qualified or name
    kind = via_kind(via)
    if kind in ("attribute", "local"):
        # resolved at ingest to `pkg.mod.Class.name`: that class, exactly, or nothing
        cls = _qualified_class(store, text.rsplit(".", 1)[0], caller.source)
        return method_in_hierarchy(store, cls, name) if cls is not None else None
    owner = (
        class_chunk(store, meta.module, meta.class_name, caller.source)
        if (meta.class_name)
        else None
    )
    if (kind == "self" or text.startswith(("self.", "cls."))) and owner is not None:
        return method_in_hierarchy(store, owner, name)
    if (kind == "super" or text.startswith("super(")) and owner is not None:
        return method_in_hierarchy(store, owner, name, skip_self=True)
    parts = text.split(".")
    # Python's own order: the enclosing functions' defs, then what the module imports
    inner = _nested_def(store, caller, name) if kind is None and len(parts) == 1 else None
    imported = inner or _imported(store, caller, parts)
    if imported is not None:
        return imported
    if len(parts) >= 2 and parts[-2][:1].isupper():
        cls = class_chunk(store, None, parts[-2], caller.source)
        if cls is not None:
            return method_in_hierarchy(store, cls, name)
    return _by_name(store, caller, name, caller.source) or _by_name(store, caller, name, None)


def _by_name(store: Store, caller: Chunk, name: str, scope: str | None) -> Chunk | None:
    """A function of the caller's module, else the one top-level definition of that
    name, within the source `scope` (None: every source)."""
    if caller.metadata.module:
        local = _api(store, scope, symbol=f"{caller.metadata.module}.{name}")
        if local:
            return local[0]
    candidates = with_suffix(store, name, scope, ["function", "class"])
    top_level = [
        c
        for c in candidates
        if c.symbol and c.metadata.module and c.symbol == f"{c.metadata.module}.{name}"
    ]
    # a definition and its type stub (search/stubs.py) are one name, not two
    runtime = [c for c in top_level if not is_stub(c)]
    if len(runtime) == 1 or (not runtime and len(top_level) == 1):
        return (runtime or top_level)[0]
    return None


def _nested_def(store: Store, caller: Chunk, name: str) -> Chunk | None:
    """The def a plain `name()` reaches when it is nested in the calling function or in a
    function enclosing it (`do_it()` in `wrap`, both defined inside `define`). A def in a
    class body is a method, never reached by a plain name, so only functions count."""
    parts = (caller.symbol or "").split(".")
    floor = len((caller.metadata.module or "").split("."))
    for end in range(len(parts), floor, -1):
        scope = ".".join(parts[:end])
        found = _api(store, caller.source, symbol=f"{scope}.{name}", chunk_types=("function",))
        if found:
            return found[0]
    return None


def _imported(store: Store, caller: Chunk, parts: list[str]) -> Chunk | None:
    """The definition a call's first name is imported as (`from .exceptions import X`,
    relative imports resolved at ingest into the chunk's `imports`), or None."""
    head, rest = parts[0], parts[1:]
    for target in caller.metadata.imports:
        if target.rsplit(".", 1)[-1] != head:
            continue
        dotted = ".".join([target, *rest])
        found = _api(store, caller.source, symbol=dotted) or recorded_reexport(
            store, dotted, caller.source
        )
        if found:
            first = _by_preference(found)[0]
            return runtime_definition(store, first) or first  # a stub stands for the code
        cls = _qualified_class(store, target, caller.source) if len(rest) == 1 else None
        if cls is not None:
            return method_in_hierarchy(store, cls, rest[0])
    return None


@dataclass(frozen=True)
class CallEdge:
    """One call between indexed definitions: the call as the code writes it, its receiver
    when a listing should say so (`super()`, `self.client`; else None), and the nested def
    of the calling function it is made in (`do_it` inside `define`; else None)."""

    name: str
    target: Chunk
    through: str | None = None
    nested: str | None = None


def _sites(chunk: Chunk) -> list[tuple[str, str, str | None]]:
    """The chunk's calls (core/calls.call_sites), and any `calls` name no site spells."""
    sites = call_sites(chunk.metadata.extra)
    spelled = {name for name, _, _ in sites}
    return sites + [(n, n, None) for n in chunk.metadata.calls if n not in spelled]


def _nested_in(chunk: Chunk, outer: Chunk) -> bool:
    """Whether `chunk` is a def nested (at any depth) in the function `outer`."""
    return bool(chunk.metadata.extra.get("nested_in")) and (chunk.symbol or "").startswith(
        f"{outer.symbol}."
    )


def callees(store: Store, caller: Chunk) -> tuple[list[CallEdge], list[str]]:
    """The definitions a function's calls reach, and the calls that reach none indexed.
    Its nested defs are parts of it: what they call counts as its calls (the edge names
    the def), and they are neither callees nor "not indexed"."""
    found: list[CallEdge] = []
    unresolved: list[str] = []
    _collect_callees(store, caller, caller, None, (found, unresolved), {caller.id})
    return found, unresolved


def _collect_callees(
    store: Store,
    root: Chunk,
    caller: Chunk,
    nested: str | None,
    out: tuple[list[CallEdge], list[str]],
    seen: set[str],
) -> None:
    found, unresolved = out
    inner = set(caller.metadata.extra.get("calls_nested", ()))
    for name, qualified, via in _sites(caller):
        written = as_written(qualified, via)
        target = resolve_call(store, caller, name, qualified, via)
        if target is not None and _nested_in(target, root):
            if target.id not in seen:
                seen.add(target.id)
                def_name = (target.symbol or "").rsplit(".", 1)[-1]
                _collect_callees(store, root, target, def_name, out, seen)
        elif target is None or target.id == root.id:
            # a nested def too small to index calls nothing indexed: no loss
            if qualified not in inner and written not in unresolved:
                unresolved.append(written)
        elif all(e.target.id != target.id for e in found):
            found.append(CallEdge(written, target, marker(via), nested))


def _enclosing(store: Store, chunk: Chunk) -> tuple[Chunk, str | None]:
    """The outermost function a nested def belongs to, and the def's name; (chunk, None)
    for a function that is not nested."""
    current, inner = chunk, None
    for _ in range(8):
        parent, module = current.metadata.extra.get("nested_in"), current.metadata.module
        if not parent or not module:
            break
        found = _api(
            store, current.source, symbol=f"{module}.{parent}", chunk_types=("function", "method")
        )
        if not found:
            break
        inner = inner or (chunk.symbol or "").rsplit(".", 1)[-1]
        current = found[0]
    return current, inner


def callers(store: Store, callee: Chunk, limit: int = 200) -> list[CallEdge]:
    """Functions whose calls name `callee` and resolve to it (through super() and typed
    attributes too: the edge says so). A call made in a nested def is its enclosing
    function's, the edge naming the def."""
    name = (callee.symbol or "").rsplit(".", 1)[-1]
    if not name:
        return []
    candidates = _api(store, calls=name, limit=limit * 4)
    out: list[CallEdge] = []
    for cand in candidates:
        for called, qualified, via in _sites(cand):
            if called != name:
                continue
            target = resolve_call(store, cand, name, qualified, via)
            if target is not None and target.id == callee.id:
                outer, inner = _enclosing(store, cand)
                if outer.id != callee.id and all(e.target.id != outer.id for e in out):
                    out.append(CallEdge(as_written(qualified, via), outer, marker(via), inner))
                break
        if len(out) >= limit:
            break
    return out
