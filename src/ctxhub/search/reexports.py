"""What a public name stands for by its package's own record: `typer.Option` is
`typer.params.Option` because module `typer` declares or imports it from there.

The symbol path looks names up by the definitions' own qualified names, so a name
spelled as users import it (through a package's re-exports) matches nothing; this
follows the record the Python ingestion keeps on each module chunk (`extra.exports`:
its `__all__` and re-exports; `imports`: its own imports).

A star import (`from ._client import *`) records only the module it reads
(`extra.star_imports`): a package that declares `Client` in its `__all__` and
star-imports `._client` records `httpx.Client` as itself. Such a name is looked for in
each module the package star-imports that binds it by star (its `__all__`, else its
public names): `httpx._client.Client`. A lazy-import table (`extra.lazy`, PEP 562
`__getattr__`) binds the names it lists.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from ctxhub.core.identifiers import is_private_path
from ctxhub.core.knowledge import Chunk, ChunkQuery
from ctxhub.core.nesting import is_nested
from ctxhub.store.protocol import Store

#: Re-exports followed through at most this many modules (`pkg` -> `pkg.api` -> ...).
MAX_HOPS = 3


def recorded_targets(store: Store, name: str, hops: int = MAX_HOPS) -> list[str]:
    """Qualified names `pkg.mod.Name` stands for by what module `pkg.mod` recorded (see
    `bound_groups`); [] for an undotted name or a module that is not indexed or binds no
    such name. Targets that are themselves re-exports are followed (`hops` modules deep)
    and kept as well: the caller looks each one up."""
    if "." not in name or hops <= 0:
        return []
    chunks = module_chunks(store, name.rsplit(".", 1)[0])
    for recorded, targets in enumerate(bound_groups(store, chunks, name)):
        found: list[str] = []
        for target in targets:
            deeper = recorded_targets(store, target, hops - 1)
            # a lazy or star candidate counts only where it leads to a definition
            if recorded < 2 or _defined(store, target):
                found.append(target)
            found += deeper
        if found:
            return list(dict.fromkeys(found))
    return []


def _defined(store: Store, name: str) -> bool:
    return bool(store.find_chunks(ChunkQuery(kind="api", symbol=name, limit=1)))


def module_chunks(store: Store, module: str, source: str | None = None) -> list[Chunk]:
    query = ChunkQuery(kind="api", source=source, symbol=module, chunk_types=("module",))
    return store.find_chunks(query)


def bound_groups(
    store: Store, modules: Sequence[Chunk], name: str, source: str | None = None
) -> Iterator[list[str]]:
    """What the module chunks of `name`'s module bind under its last part, strongest
    record first, one group at a time (each read only when the ones before are empty):
    what it declares (`__all__`, a package's re-exports), what it imports, what its
    lazy-import table names, what its star imports bring (a star-imported module's
    `__all__` when it has one, else any public name). The candidates of the last two
    may be defined nowhere: the caller looks each one up."""
    declared, imported = recorded_as(modules, name)
    yield declared
    yield imported
    yield _lazy_targets(store, modules, name, source)
    yield _star_candidates(store, modules, name, source)


def _lazy_targets(
    store: Store, modules: Sequence[Chunk], name: str, source: str | None
) -> list[str]:
    """`websockets.connect` -> `websockets.asyncio.client.connect` for a lazy table entry
    `"connect": ".asyncio.client"`: a path naming a module holds the name; any other
    names the object itself (`"pkg.mod:New"`)."""
    last = name.rsplit(".", 1)[-1]
    out: list[str] = []
    for m in modules:
        path = m.metadata.extra.get("lazy", {}).get(last)
        if isinstance(path, str) and path != name:
            out.append(f"{path}.{last}" if module_chunks(store, path, source) else path)
    return list(dict.fromkeys(out))


def _star_candidates(
    store: Store, modules: Sequence[Chunk], name: str, source: str | None
) -> list[str]:
    last = name.rsplit(".", 1)[-1]
    out: list[str] = []
    for star in dict.fromkeys(s for m in modules for s in m.metadata.extra.get("star_imports", ())):
        candidate = f"{star}.{last}"
        if candidate != name and star_exports(module_chunks(store, star, source), last):
            out.append(candidate)
    return out


def star_exports(modules: Sequence[Chunk], last: str) -> bool:
    """Whether `from <module> import *` binds `last`: it is in the module's `__all__`,
    or the module has none and the name is public."""
    declared = [m.metadata.extra["all"] for m in modules if "all" in m.metadata.extra]
    if declared:
        return any(last in names for names in declared)
    return not last.startswith("_")


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


def public_paths_of(store: Store, chunks: Iterable[Chunk]) -> dict[str, str]:
    """`public_paths` of the API definitions among `chunks`, leaving out those local to a
    function (core/nesting.py): a closure is no name anyone imports, though the class
    holding its function is re-exported (`pkg.Router.add_route.insert` reaches nothing)."""
    return public_paths(
        store, [c.symbol for c in chunks if c.kind == "api" and c.symbol and not is_nested(c)]
    )


def public_paths(store: Store, symbols: Iterable[str]) -> dict[str, str]:
    """{symbol: the shortest public dotted name of it} for those of `symbols` that a
    module re-exports, itself or its class (`anyio._core._tasks.fail_after` ->
    `anyio.fail_after`, `httpx._client.Client.send` -> `httpx.Client.send`): the
    exporting module's name and the name it binds the definition to (its own, or the one
    an `import x as y` gives). A re-export may pass through private modules first
    (`pluggy` exports `pluggy._hooks.X`, which `_hooks` imports from `pluggy._other`),
    or through public ones that re-export it in turn (`falcon.util` exports
    `falcon.util.misc.to_query_str`, `falcon` exports `falcon.util.to_query_str`):
    both are followed, at most `MAX_HOPS` deep and never twice through one spelling.
    Only the definition's own distribution spells it (its top-level package, or one a
    source indexes beside it): an app or a docs tutorial importing it names nothing.
    A definition in a public module competes with its own name: it keeps it unless a
    shorter path re-exports it, or one as long lists it in its `__all__`.
    The best name any of them leads to wins: one in the symbol's own top-level package
    before one in another (a compat package re-exporting it), a re-export of the object
    (or its class) before a path through a submodule a package binds as an attribute
    (`falcon.misc.to_query_str` after `from falcon.util import misc`: no module
    `falcon.misc` to import from), then the shortest. One store query for the exporters
    and one for the importers per hop, and one per exporting module and per exported
    module; a symbol already spelled as its best public name is left out."""
    wanted = {s for s in symbols if s and "." in s}
    # the names each symbol goes by: itself, then as modules that import or export it bind it
    spellings: dict[str, set[str]] = {s: {s} for s in wanted}
    frontier: dict[str, set[str]] = {s: {s} for s in wanted}
    public: dict[str, list[Spelling]] = {s: [] for s in wanted}
    modules = _ModuleNames(store)
    for hop in range(MAX_HOPS + 1):
        names = {n for ns in frontier.values() for n in ns}
        if not names:
            break
        exported = _exported_spellings(store, names, modules)
        reexported: dict[str, set[str]] = {}
        for symbol, spelled in frontier.items():
            named = [p for n in spelled for p in exported.get(n, ())]
            public[symbol] += named
            # a public module's export of the object is followed to whoever exports it
            for p in named:
                if not p.through_module and p.name not in spellings[symbol]:
                    spellings[symbol].add(p.name)
                    reexported.setdefault(symbol, set()).add(p.name)
        if hop == MAX_HOPS:
            break
        frontier = _imported_spellings(store, frontier, spellings)
        for symbol, names_ in reexported.items():
            frontier.setdefault(symbol, set()).update(names_)
    found: dict[str, str] = {}
    retired = _deprecated_modules(
        store, {o for ps in public.values() for p in ps for o in _owners(p.name)}
    )
    siblings = _SiblingPackages(store)
    for symbol, candidates in public.items():
        # only the definition's own distribution spells it: a tutorial or an app that
        # imports `pkg.config.Configurator` into its own package is no import path of it
        top = symbol.split(".", 1)[0]
        own = siblings.of(top)
        candidates = [p for p in candidates if p.name.split(".", 1)[0] in own]
        # a path through a deprecated module (`pkg.types`, a shim left for `pkg.typing`)
        # is no import to write while another public path exists, the definition's own
        kept = [p for p in candidates if retired.isdisjoint(_owners(p.name))]
        if kept or not is_private_path(symbol):
            candidates = kept
        if not is_private_path(symbol):
            # a definition already spelled publicly keeps its name unless a shorter path
            # of its own package re-exports it (`pkg.Client`), or one as long declares it
            # in its `__all__`; never for a sibling module importing it (`pkg.config.Router`)
            candidates = [*candidates, Spelling(symbol, False)]
        # the symbol's own top-level package first: a compat package re-exporting it
        # (`cattr`, the legacy name beside `cattrs`) is shorter but not the import to write
        best = min(
            candidates,
            key=lambda s: (
                s.name.split(".", 1)[0] != top,
                s.through_module,
                s.name.count("."),
                # at one depth: a module's declared `__all__` (`srv.web.Response`), then
                # the definition's own name, then a module's mere import of it
                0 if s.declared else 1 if s.name == symbol else 2,
                len(s.name),
                s.name,
            ),
            default=None,
        )
        if best is not None and best.name != symbol:
            found[symbol] = best.name
    return found


class _SiblingPackages:
    """The top-level packages indexed beside a package by one source (the distribution's
    declared packages: `attr` beside `attrs`), the package itself always; the sources
    are read once, when first asked."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.groups: list[set[str]] | None = None

    def of(self, top: str) -> set[str]:
        if self.groups is None:
            self.groups = [
                {str(p) for p in s.stats.get("packages", ())} for s in self.store.sources()
            ]
        out = {top}
        for group in self.groups:
            if top in group:
                out |= group
        return out


class Spelling(NamedTuple):
    """A public name of a definition, and whether it reaches it through a module another
    module binds as an attribute (`pkg.misc.f` after `from pkg.util import misc`)."""

    name: str
    through_module: bool
    #: the exporting module lists the name in its `__all__`
    declared: bool = False


def _deprecated_modules(store: Store, names: set[str]) -> set[str]:
    """Those of `names` that are deprecated modules: flagged so at ingest (a
    module-level warning, a deprecated package above it, its docstring) or named by a
    deprecation record of the whole module (not of one of its parameters or uses)."""
    out: set[str] = set()
    for name in sorted(names):
        chunks = module_chunks(store, name)
        if chunks and (
            any(c.metadata.deprecated for c in chunks)
            or any(d.symbol == name and not d.partial for d in store.deprecations(name))
        ):
            out.add(name)
    return out


class _ModuleNames:
    """Which qualified names are modules, read once per name (one query each)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.known: dict[str, bool] = {}

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        if name not in self.known:
            self.known[name] = bool(module_chunks(self.store, name))
        return self.known[name]


def _exported_spellings(
    store: Store, names: set[str], modules: _ModuleNames
) -> dict[str, list[Spelling]]:
    """{name: the public names a module that declares it, or what holds it, gives it}:
    the exported holder a class (`pkg.Client.send`) or a module bound as an attribute
    (`pkg.misc.f`, `through_module`)."""
    prefixes = {p for n in names for p in _owners(n)}
    if not prefixes:
        return {}
    exporters = store.exporters(sorted(prefixes))
    # a module that renames what it exports spells it its own way (one read per module)
    chunks = {
        module: module_chunks(store, module)
        for module in sorted({m for ms in exporters.values() for m in ms})
    }
    renames = {module: renamed_in(found) for module, found in chunks.items()}
    declared = {
        module: {str(n) for c in found for n in c.metadata.extra.get("all", ())}
        for module, found in chunks.items()
    }
    out: dict[str, list[Spelling]] = {}
    for name in names:
        spelled = [
            Spelling(
                f"{module}.{bound}{name[len(prefix) :]}",
                prefix != name and prefix in modules,
                bound in declared[module],
            )
            for prefix in _owners(name)
            for module in exporters.get(prefix, ())
            for bound in [renames[module].get(prefix, prefix.rsplit(".", 1)[-1])]
        ]
        out[name] = [s for s in spelled if not is_private_path(s.name)]
    return out


def _imported_spellings(
    store: Store, frontier: dict[str, set[str]], spellings: dict[str, set[str]]
) -> dict[str, set[str]]:
    """The next hop: each frontier name (or its class) as a private module of its own
    package that imports it binds it (`pkg._b.X` imported by `pkg._a`: `pkg._a.X`);
    names seen before are not followed again. Adds them to `spellings`."""
    prefixes = {p for ns in frontier.values() for n in ns for p in _owners(n)}
    importers = store.importers(sorted(prefixes)) if prefixes else {}
    out: dict[str, set[str]] = {}
    for symbol, names in frontier.items():
        package = symbol.split(".", 1)[0]
        for name in names:
            for prefix in _owners(name):
                for module in importers.get(prefix, ()):
                    spelled = f"{module}.{prefix.rsplit('.', 1)[-1]}{name[len(prefix) :]}"
                    if (
                        module.split(".", 1)[0] == package
                        and is_private_path(module)
                        and spelled not in spellings[symbol]
                    ):
                        spellings[symbol].add(spelled)
                        out.setdefault(symbol, set()).add(spelled)
    return out


def _owners(symbol: str) -> list[str]:
    """`a.b.C.m` -> [`a.b.C.m`, `a.b.C`, `a.b`]: the definition and what holds it."""
    parts = symbol.split(".")
    return [".".join(parts[:n]) for n in range(len(parts), 1, -1)]
