"""Type stubs and the runtime definitions they describe.

A package that ships stubs has two chunks for one definition: the stub (`attrs.define`
in `attrs/__init__.pyi`, `@overload`s with `...` bodies) and the code that runs
(`attr._next_gen.define`); an `@overload` in a `.py` file is a stub of the definition
after it. Asked for "the source of define", an answer wants the code that runs. The
runtime definition is found from what the package recorded, never by a guess on names:
the same qualified name outside a stub (`exceptions.pyi` beside `exceptions.py`), else
the runtime module's re-exports, then its imports, followed to a definition
(`attrs` -> `attr.define` -> `attr._next_gen.define`), else, for a member, the same
name on the runtime definition of its class.
"""

from __future__ import annotations

from collections.abc import Callable

from ctxhub.core.knowledge import Chunk, ChunkQuery
from ctxhub.search.rank import Candidate
from ctxhub.search.reexports import recorded_as, renamed_in
from ctxhub.store.protocol import Store

#: Re-exports followed from a stub's name to a definition (a package re-exporting a
#: re-export is common; a longer chain is a cycle or a mistake).
MAX_HOPS = 6
#: The places whose stubs are always looked up, to be answered with the code that runs
#: (a hit list is read from the top; each lookup is a few store reads).
STUB_LOOKUPS = 10


def is_stub(chunk: Chunk) -> bool:
    """A `.pyi` definition, or an `@overload` (typed signature, `...` body)."""
    extra = chunk.metadata.extra
    return chunk.path.endswith(".pyi") or bool(extra.get("stub") or extra.get("overload"))


def _runtime_chunks(
    store: Store, source: str, symbol: str, types: tuple[str, ...] = ()
) -> list[Chunk]:
    query = ChunkQuery(kind="api", source=source, symbol=symbol, chunk_types=types)
    return [c for c in store.find_chunks(query) if not is_stub(c)]


def _resolve(store: Store, source: str, symbol: str, depth: int) -> Chunk | None:
    if depth > MAX_HOPS:
        return None
    exact = _runtime_chunks(store, source, symbol)
    if exact:
        # a definition before a module overview or an alias of the same name
        return min(exact, key=lambda c: (c.metadata.chunk_type in ("module", "alias"), c.id))
    if "." not in symbol:
        return None
    owner, last = symbol.rsplit(".", 1)
    modules = _runtime_chunks(store, source, owner, ("module",))
    if modules:
        for recorded in recorded_as(modules, symbol):
            for target in recorded:
                found = _resolve(store, source, target, depth + 1)
                if found is not None:
                    return found
        # the stub's `Logger` where the module runs `from ._logger import Logger as
        # _Logger`: the class it describes, though Python binds it under another name
        for target, bound in renamed_in(modules).items():
            if bound.startswith("_") and target.rsplit(".", 1)[-1] == last:
                found = _resolve(store, source, target, depth + 1)
                if found is not None:
                    return found
        return None
    parent = _resolve(store, source, owner, depth + 1)
    if parent is None or parent.metadata.chunk_type != "class" or parent.symbol == owner:
        return None  # (the class itself runs: its member was looked up exactly above)
    return _resolve(store, source, f"{parent.symbol}.{last}", depth + 1)


def runtime_definition(store: Store, stub: Chunk) -> Chunk | None:
    """The definition in `stub`'s source that runs where `stub` describes it, or None
    (no runtime code indexed, or nothing recorded leads to it)."""
    if not stub.symbol or not is_stub(stub):
        return None
    found = _resolve(store, stub.source, stub.symbol, 0)
    return found if found is not None and found.id != stub.id else None


def _last(chunk: Chunk) -> str:
    return (chunk.symbol or "").rsplit(".", 1)[-1]


def _where(chunk: Chunk) -> str:
    return f"{chunk.source}:{chunk.path}:{chunk.line_start or 1}"


def _absorb(into: Candidate, stub: Candidate) -> None:
    """`into` takes `stub`'s place: the better score, each path's better rank, and the
    stub's location in its duplicates."""
    into.score = max(into.score, stub.score)
    into.fused = max(into.fused, stub.fused)
    for path, signal in stub.signals.items():
        if path not in into.signals or signal.rank < into.signals[path].rank:
            into.signals[path] = signal
    into.duplicates.append(_where(stub.chunk))


def fold_stubs(
    ranked: list[Candidate], runtime_of: Callable[[Chunk], Chunk | None]
) -> list[Candidate]:
    """One place per definition, held by the code that runs: a stub whose runtime
    definition is also a candidate gives it its place when the stub ranks higher, and is
    listed among its duplicates; a stub in the first STUB_LOOKUPS places whose runtime
    definition was not retrieved (its text shares few words with the query: `attrs.define`
    is `attr._next_gen.define`) is replaced by it, the stub listed the same way; further
    stubs of one name (a stub's `@overload`s) fold into the first. Below those places only
    a stub that shares its source and last name with a runtime candidate is looked up."""
    plain = {
        (c.chunk.source, _last(c.chunk))
        for c in ranked
        if c.chunk.kind == "api" and not is_stub(c.chunk)
    }
    by_id = {c.chunk.id: c for c in ranked}
    target: dict[str, Candidate] = {}
    first_stub: dict[tuple[str, str], Candidate] = {}
    looked_up: dict[tuple[str, str], Chunk | None] = {}  # a stub's overloads: one lookup
    for place, cand in enumerate(ranked):
        chunk = cand.chunk
        if chunk.kind != "api" or not chunk.symbol or not is_stub(chunk):
            continue
        key = (chunk.source, chunk.symbol)
        if key not in looked_up:
            wanted = place < STUB_LOOKUPS or (chunk.source, _last(chunk)) in plain
            looked_up[key] = runtime_of(chunk) if wanted else None
        runtime = looked_up[key]
        if runtime is not None and runtime.id not in by_id and place < STUB_LOOKUPS:
            # the runtime code takes the stub's candidate as it stands (scores, signals)
            by_id[runtime.id] = Candidate(
                chunk=runtime,
                fused=cand.fused,
                signals=dict(cand.signals),
                score=cand.score,
                boosts=dict(cand.boosts),
            )
        if runtime is not None and runtime.id in by_id:
            target[chunk.id] = by_id[runtime.id]
        else:
            first = first_stub.setdefault(key, cand)
            if first is not cand:
                target[chunk.id] = first
    if not target:
        return ranked
    out: list[Candidate] = []
    placed: set[str] = set()
    for cand in ranked:
        into = target.get(cand.chunk.id)
        if into is None:
            if cand.chunk.id not in placed:
                placed.add(cand.chunk.id)
                out.append(cand)
            continue
        _absorb(into, cand)
        if into.chunk.id not in placed:
            placed.add(into.chunk.id)
            out.append(into)
    return out
