"""What a public name stands for by its package's own record: `typer.Option` is
`typer.params.Option` because module `typer` declares or imports it from there.

The symbol path looks names up by the definitions' own qualified names, so a name
spelled as users import it (through a package's re-exports) matches nothing; this
follows the record the Python ingestion keeps on each module chunk (`extra.exports`:
its `__all__` and re-exports; `imports`: its own imports).

A star import (`from ._client import *`) records only the module it reads: a package
that declares `Client` in its `__all__` and star-imports `._client` records
`httpx.Client` as itself. Such a name is looked for in each module the package
imports (`httpx._client.Client`), and kept where it is defined.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ctxhub.core.identifiers import is_private_path
from ctxhub.core.knowledge import Chunk, ChunkQuery
from ctxhub.store.protocol import Store

#: Re-exports followed through at most this many modules (`pkg` -> `pkg.api` -> ...).
MAX_HOPS = 3


def recorded_targets(store: Store, name: str, hops: int = MAX_HOPS) -> list[str]:
    """Qualified names `pkg.mod.Name` stands for by what module `pkg.mod` recorded: its
    declared API first, else its imports, else the name in a module it imports (a star
    import); [] for an undotted name or a module that is not indexed or records no such
    name. Targets that are themselves re-exports are followed (`hops` modules deep) and
    kept as well: the caller looks each one up."""
    if "." not in name or hops <= 0:
        return []
    module = name.rsplit(".", 1)[0]
    chunks = store.find_chunks(ChunkQuery(kind="api", symbol=module, chunk_types=("module",)))
    for targets in recorded_as(chunks, name):
        if targets:
            deeper = [d for t in targets for d in recorded_targets(store, t, hops - 1)]
            return list(dict.fromkeys([*targets, *deeper]))
    return _star_imported(store, chunks, name, hops)


def _star_imported(store: Store, modules: Sequence[Chunk], name: str, hops: int) -> list[str]:
    """`name`'s last part as defined in (or re-exported by) the modules its module
    imports: `httpx.Client` -> `httpx._client.Client` when `httpx` star-imports
    `httpx._client`. Only names that lead to a definition are kept."""
    last = name.rsplit(".", 1)[-1]
    found: list[str] = []
    for imported in dict.fromkeys(t for m in modules for t in m.metadata.imports):
        candidate = f"{imported}.{last}"
        if candidate == name or not _is_module(store, imported):
            continue  # an imported class or function holds methods, not re-exports
        if store.find_chunks(ChunkQuery(kind="api", symbol=candidate, limit=1)):
            found.append(candidate)
        else:
            found += recorded_targets(store, candidate, hops - 1)
    return list(dict.fromkeys(found))


def _is_module(store: Store, name: str) -> bool:
    query = ChunkQuery(kind="api", symbol=name, chunk_types=("module",), limit=1)
    return bool(store.find_chunks(query))


def recorded_as(modules: Sequence[Chunk], name: str) -> tuple[list[str], list[str]]:
    """What the module chunks of `name`'s module record under `name`'s last part: the
    qualified names it declares (`extra.exports`), and those it imports, each in order
    and once, `name` itself left out. Read the declared ones first: a module's imports
    include what it only uses."""
    last = name.rsplit(".", 1)[-1]
    declared = [str(t) for m in modules for t in m.metadata.extra.get("exports", ())]
    imported = [t for m in modules for t in m.metadata.imports]
    renamed = renamed_in(modules)

    def named(recorded: list[str]) -> list[str]:
        return [
            t
            for t in dict.fromkeys(recorded)
            if renamed.get(t, t.rsplit(".", 1)[-1]) == last and t != name
        ]

    return named(declared), named(imported)


def renamed_in(modules: Sequence[Chunk]) -> dict[str, str]:
    """{definition: the name the modules bind it to} for what they import under another
    name (`extra.renamed`: `... import WebsocketImplProtocol as Websocket`)."""
    out: dict[str, str] = {}
    for m in modules:
        out.update({str(k): str(v) for k, v in m.metadata.extra.get("renamed", {}).items()})
    return out


def public_paths(store: Store, symbols: Iterable[str]) -> dict[str, str]:
    """{symbol: the shortest public dotted name of it} for those of `symbols` that a
    module re-exports, itself or its class (`anyio._core._tasks.fail_after` ->
    `anyio.fail_after`, `httpx._client.Client.send` -> `httpx.Client.send`): the
    exporting module's name and the name it binds the definition to (its own, or the one
    an `import x as y` gives). One store query for all of them, and one per exporting
    module; a symbol already spelled as its shortest public name is left out."""
    wanted = {s for s in symbols if s and "." in s}
    prefixes = {p for s in wanted for p in _owners(s)}
    if not prefixes:
        return {}
    exporters = store.exporters(sorted(prefixes))
    # a module that renames what it exports spells it its own way (one read per module)
    renames = {
        module: renamed_in(
            store.find_chunks(ChunkQuery(kind="api", symbol=module, chunk_types=("module",)))
        )
        for module in sorted({m for ms in exporters.values() for m in ms})
    }
    found: dict[str, str] = {}
    for symbol in wanted:
        spelled = [
            f"{module}.{renames[module].get(prefix, prefix.rsplit('.', 1)[-1])}"
            f"{symbol[len(prefix) :]}"
            for prefix in _owners(symbol)
            for module in exporters.get(prefix, ())
        ]
        public = [s for s in spelled if not is_private_path(s)]
        best = min(public, key=lambda s: (s.count("."), len(s), s), default=None)
        if best is not None and best != symbol:
            found[symbol] = best
    return found


def _owners(symbol: str) -> list[str]:
    """`a.b.C.m` -> [`a.b.C.m`, `a.b.C`, `a.b`]: the definition and what holds it."""
    parts = symbol.split(".")
    return [".".join(parts[:n]) for n in range(len(parts), 1, -1)]
