"""Calls -> indexed definitions: which definition a call reaches, and a definition's
callees and callers.

The call graph stores what the code says (`self.push_frame`, `super().start`,
`FrameProcessor.__init__`, `create_task`), and each call's receiver (core/calls.py);
resolving it to definitions uses the index itself: the caller's class and its bases in
method resolution order (each base the class its module binds it to: tools/hierarchy.py),
what an imported first name names (`extra.calls_imported`: that, or nothing), classes and
functions of the caller's module, then unique names. A call through a typed attribute or
local was resolved at ingest (`pkg.mod.Client.send`) and reaches that class's method (the
class read through re-exports when `pkg.mod` only imports it), or nothing; one on a local
whose class is unknown where the call is made (`locale.describe`, as written) reaches
nothing: it is listed unresolved.
"""

from __future__ import annotations

from dataclasses import dataclass

from ctxhub.core.calls import as_written, call_sites, marker, via_kind
from ctxhub.core.knowledge import Chunk
from ctxhub.search.stubs import is_stub, runtime_definition
from ctxhub.store.protocol import Store
from ctxhub.tools import hierarchy
from ctxhub.tools.lookup import api_chunks, by_preference, recorded_reexport, with_suffix


def _qualified_class(store: Store, dotted: str, source: str | None) -> Chunk | None:
    """The class chunk named exactly `dotted` (a class resolved at ingest), or the one
    that name re-exports (`pluggy._hooks.HookCaller`, imported by `_hooks` from
    `pluggy._caller`), or None."""
    return hierarchy.class_named(store, dotted, source)


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
        class_name = text.rsplit(".", 1)[0]
        if class_name == via:
            return None  # `locale.describe`: a local of no class known there, unresolved
        cls = _qualified_class(store, class_name, caller.source)
        return hierarchy.method_in_hierarchy(store, cls, name) if cls is not None else None
    owner = _owner(store, caller)
    if kind == "self" or (kind is None and text.startswith(("self.", "cls."))):
        return hierarchy.method_in_hierarchy(store, owner, name) if owner is not None else None
    if kind == "super" or (kind is None and text.startswith("super(")):
        if owner is None:
            return None
        return hierarchy.method_in_hierarchy(store, owner, name, skip_self=True)
    parts = text.split(".")
    imported = meta.extra.get("calls_imported")
    if isinstance(imported, dict) and text in imported:
        # its first name is an import: that definition exactly, or nothing indexed
        # (`httpx.Response` after `import httpx` is never another package's Response)
        return _dotted(store, caller, str(imported[text]))
    # Python's own order: the enclosing functions' defs, then what the module binds
    inner = _nested_def(store, caller, name) if kind is None and len(parts) == 1 else None
    found = inner or _imported(store, caller, parts)
    if found is not None:
        return found
    if len(parts) >= 2 and meta.module:
        found = _dotted(store, caller, f"{meta.module}.{text}")
        if found is not None:
            return found
    if len(parts) >= 2 and not _class_like(parts[0]):
        # `mod.x()` through a module this index cannot place: the name as written, or
        # nothing (an unknown module's `Response` is not an indexed `Response`)
        return _dotted(store, caller, text)
    if len(parts) == 2:
        cls = hierarchy.unique_class(store, parts[0], caller.source)
        return hierarchy.method_in_hierarchy(store, cls, name) if cls is not None else None
    if len(parts) > 2:
        return None
    return _by_name(store, caller, name, caller.source) or _by_name(store, caller, name, None)


def _class_like(name: str) -> bool:
    """`Client`, `_Base`: a class by convention; `httpx`, `np`: a module."""
    stripped = name.lstrip("_")
    return bool(stripped) and stripped[0].isupper()


def _owner(store: Store, caller: Chunk) -> Chunk | None:
    """The class a method is defined in, by its exact name (never a namesake)."""
    meta = caller.metadata
    if not (meta.class_name and meta.module):
        return None
    return hierarchy.class_named(store, f"{meta.module}.{meta.class_name}", caller.source)


def _dotted(store: Store, caller: Chunk, dotted: str) -> Chunk | None:
    """The definition named by the absolute `dotted`: exactly, through the re-exports
    its module recorded (the caller's source first, then any: a project calling another
    indexed package), or as a method its class inherits; else None."""
    found = (
        api_chunks(store, caller.source, symbol=dotted)
        or recorded_reexport(store, dotted, caller.source)
        or api_chunks(store, None, symbol=dotted)
        or recorded_reexport(store, dotted, None)
    )
    if found:
        first = by_preference(found)[0]
        return runtime_definition(store, first) or first  # a stub stands for the code
    if "." not in dotted:
        return None
    owner, member = dotted.rsplit(".", 1)
    cls = _qualified_class(store, owner, caller.source)
    return hierarchy.method_in_hierarchy(store, cls, member) if cls is not None else None


def _by_name(store: Store, caller: Chunk, name: str, scope: str | None) -> Chunk | None:
    """A function of the caller's module, else the one top-level definition of that
    name, within the source `scope` (None: every source)."""
    if caller.metadata.module:
        local = api_chunks(store, scope, symbol=f"{caller.metadata.module}.{name}")
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
        found = api_chunks(
            store, caller.source, symbol=f"{scope}.{name}", chunk_types=("function",)
        )
        if found:
            return found[0]
    return None


def _imported(store: Store, caller: Chunk, parts: list[str]) -> Chunk | None:
    """The definition a call's first name is imported as, by the framework-internal
    imports the chunk records (`from .exceptions import X`, relative imports resolved at
    ingest): what a store indexed before `calls_imported` existed answers by."""
    head, rest = parts[0], parts[1:]
    for target in caller.metadata.imports:
        if target.rsplit(".", 1)[-1] != head:
            continue
        found = _dotted(store, caller, ".".join([target, *rest]))
        if found is not None:
            return found
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
    #: the line of the call itself, when the index recorded it (callers only)
    line: int | None = None


def _sites(chunk: Chunk) -> list[tuple[str, str, str | None]]:
    """The chunk's calls (core/calls.call_sites), and any `calls` name no site spells."""
    sites = call_sites(chunk.metadata.extra)
    spelled = {name for name, _, _ in sites}
    return sites + [(n, n, None) for n in chunk.metadata.calls if n not in spelled]


def _nested_in(chunk: Chunk, outer: Chunk) -> bool:
    """Whether `chunk` is a def nested (at any depth) in the function `outer`. A class
    made in a function, and its methods, are local too (`nested_in`) but are objects of
    their own: a call of them stays an edge."""
    return (
        chunk.metadata.chunk_type == "function"
        and bool(chunk.metadata.extra.get("nested_in"))
        and (chunk.symbol or "").startswith(f"{outer.symbol}.")
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
        if not parent or not module or current.metadata.chunk_type != "function":
            # a method of a class made in a function is its own caller, as any method
            break
        found = api_chunks(
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
    function's, the edge naming the def. A constructor (`Cls.__init__`) is also called
    by every construction of its class (`Cls(...)`), and those callers count too."""
    out = _callers_of(store, callee, limit)
    if (callee.symbol or "").endswith(".__init__") and callee.metadata.chunk_type == "method":
        cls = _qualified_class(store, (callee.symbol or "").rsplit(".", 1)[0], callee.source)
        if cls is not None:
            seen = {e.target.id for e in out}
            out += [e for e in _callers_of(store, cls, limit) if e.target.id not in seen]
    return out[:limit]


def _callers_of(store: Store, callee: Chunk, limit: int) -> list[CallEdge]:
    name = (callee.symbol or "").rsplit(".", 1)[-1]
    if not name:
        return []
    candidates = api_chunks(store, calls=name, limit=limit * 4)
    out: list[CallEdge] = []
    for cand in candidates:
        for called, qualified, via in _sites(cand):
            if called != name:
                continue
            target = resolve_call(store, cand, name, qualified, via)
            if target is not None and target.id == callee.id:
                outer, inner = _enclosing(store, cand)
                if outer.id != callee.id and all(e.target.id != outer.id for e in out):
                    line = _call_line(cand, qualified)
                    out.append(
                        CallEdge(as_written(qualified, via), outer, marker(via), inner, line)
                    )
                break
        if len(out) >= limit:
            break
    return out


def _call_line(chunk: Chunk, qualified: str) -> int | None:
    """The line of the chunk's first call written `qualified` (indexed since chunker 26)."""
    lines = chunk.metadata.extra.get("call_lines")
    line = lines.get(qualified) if isinstance(lines, dict) else None
    return line if isinstance(line, int) else None
