"""The indexed names closest to one that is not there: what "did you mean" offers."""

from __future__ import annotations

import difflib
from typing import NamedTuple

from ctxhub.core.knowledge import Chunk, ChunkQuery, SearchFilters, SearchRequest
from ctxhub.core.nesting import is_nested
from ctxhub.search.reexports import bound_groups, module_chunks, public_paths
from ctxhub.session import HubSession
from ctxhub.tools.bound_names import defined_below, module_constants
from ctxhub.tools.importable import in_tests

#: Names compared by spelling: every indexed last part with the same first letter (a
#: typo rarely starts a name), at most this many
MAX_SPELLED = 20_000
#: Definitions read per close name, to pick those under a qualifier like the one asked
PER_NAME = 20


def nearest_names(
    hub: HubSession, symbol: str, source: str | None = None, most: int = 5
) -> list[str]:
    """Qualified API names a user could have meant by `symbol`, as they import them:
    for `pkg.mod.NAME` under a module that records constants, its constants spelled
    closest to `NAME` first (`pkg.status.HTTP_999` -> `pkg.status.HTTP_200_OK`); for
    `pkg.name` that `pkg` does not bind, the definitions of `name` below `pkg`
    (`pkg.sub.name`) first; then the names spelled closest to it (a typo, another case,
    a missing letter: `Litestr` -> `litestar.app.Litestar`), those under the package
    asked for first, and among names spelled alike those whose qualifier reads like the
    one asked (`Console.prnt` -> `rich.console.Console.print` before `rich.print`);
    then what a search for it finds, when spelled like it too. Only related names: in
    the scope of the qualifier typed (`typed_scope`: the indexed package it starts
    with, or the modules or classes it is the tail of, `gen.Task` -> only
    `tornado.gen.*` or nothing; with what the modules it names re-export), and, when a
    qualifier is asked, a last part a letter or so off or a qualifier that holds the
    owner asked (`falcon.Response.text` offers no `falcon.bench.TestController.test`);
    only importable names (no def nested in a function, nothing from a test suite
    unless the name asked is a test's), never the name asked; [] when nothing is close."""
    asked = symbol.strip().strip("`").removesuffix("()")
    last = asked.rsplit(".", 1)[-1].lower()
    below = defined_below(hub.store, asked, source)
    if not last:
        return as_imported(hub, below[:most])
    qualifier = asked.rsplit(".", 1)[0].lower() if "." in asked else ""
    tests_asked = "test" in asked.lower()
    filters = SearchFilters(source=[source] if source else None)
    request = SearchRequest(query=symbol, kinds=["api"], filters=filters, limit=10)
    searched = _importable_symbols(
        hub, [h.id for h in hub.retriever.search(request).hits], tests_asked
    )
    spelled = hub.store.bare_names(last[:1], MAX_SPELLED)
    # a search hit counts only when spelled like the name asked: else it is noise
    searched = [n for n in searched if _spelled_like(last, n.rsplit(".", 1)[-1].lower())]
    tails = {n: n.rsplit(".", 1)[-1].lower() for n in searched}
    close = difflib.get_close_matches(
        last, list(dict.fromkeys([*tails.values(), *spelled])), n=most, cutoff=CUTOFF
    )
    found = list(searched)
    for name in close:  # the definitions of a close name, those under a like qualifier
        ids = [cid for cid, _ in hub.store.symbol_lookup([name], filters, ["api"], PER_NAME)]
        named = _importable_symbols(hub, ids, tests_asked)
        named = [n for n in named if n.rsplit(".", 1)[-1].lower() == name]
        named.sort(key=lambda n: -_qualifier_likeness(n, qualifier))
        for defined in named[:2]:
            if defined not in tails:
                tails[defined] = name
                found.append(defined)
    top = qualifier.split(".", 1)[0]
    scope = typed_scope(hub, asked.rsplit(".", 1)[0] if qualifier else "", source)
    found = [n for n in found if scope.holds(n) and _related(n, tails[n], last, qualifier)]
    if is_dunder(last):
        # `__version__` is a module's or class's own: another class's `__len__` shares
        # only the underscores, so only the owner asked's dunders spelled alike count
        found = [n for n in found if _own_dunder(n, qualifier, last)]

    def order(n: str) -> tuple[bool, int, float]:
        spelling = close.index(tails[n]) if tails[n] in close else most
        outside = bool(top) and n.split(".", 1)[0].lower() != top
        return outside, spelling, -_qualifier_likeness(n, qualifier)

    constants = _constants_like(hub, asked, source, most)
    if is_dunder(last):
        constants = [c for c in constants if _own_dunder(c, qualifier, last)]
    # a constant spelled only loosely like the name (the module asked is all that admits
    # it: `Modle` -> `Tuple`) comes after the names spelled closely (`Model`)
    loose = [c for c in constants if not _spelled_like(last, c.rsplit(".", 1)[-1].lower())]
    first = [*(c for c in constants if c not in loose), *below]
    rest = [n for n in sorted(found, key=order) if n not in first]
    ranked = [*first, *rest, *(c for c in loose if c not in rest)]
    return [n for n in as_imported(hub, ranked) if n != asked][:most]


def is_dunder(name: str) -> bool:
    """`__version__`, `__init__`: a name Python or a protocol gives its meaning."""
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _own_dunder(name: str, qualifier: str, last: str) -> bool:
    """Whether `name` is a dunder of the owner `qualifier` names, spelled like `last`
    once the underscores both share are set aside."""
    owner, _, tail = name.lower().rpartition(".")
    return (
        owner == qualifier
        and is_dunder(tail)
        and difflib.SequenceMatcher(None, last.strip("_"), tail.strip("_")).ratio() >= CUTOFF
    )


def _related(name: str, tail: str, last: str, qualifier: str) -> bool:
    """Whether `name` (its last part `tail`) may be what `qualifier.last` meant: under a
    qualifier, spelled a letter or so off or held by the owner asked (`Response.text` ->
    `falcon.response.Response.set_text`); an undotted name needs only be spelled alike,
    as `close` and the search hits already are."""
    if not qualifier or _close(last, tail):
        return True
    owner = qualifier.rsplit(".", 1)[-1]
    return any(_close(owner, part.lower()) for part in name.split(".")[:-1])


#: Modules and classes read per qualifier to find those it is the tail of.
MAX_SCOPES = 50


class Scope(NamedTuple):
    """Where a typed qualifier points: names under `prefixes` (lowercase `pkg.`,
    `pkg.mod.`, `pkg.mod.Class.`) and the definitions its modules re-export
    (`exported`, lowercase), with what they hold; `prefixes` () holds everything."""

    prefixes: tuple[str, ...] = ()
    exported: frozenset[str] = frozenset()

    def holds(self, name: str) -> bool:
        if not self.prefixes:
            return True
        lowered = name.lower()
        if lowered.startswith(self.prefixes):
            return True
        parts = lowered.split(".")
        return any(".".join(parts[:n]) in self.exported for n in range(len(parts), 1, -1))


def typed_scope(hub: HubSession, qualifier: str, source: str | None = None) -> Scope:
    """The scope of `qualifier` as typed: the package it starts with when that is an
    indexed one (`aiohttp.web` -> `aiohttp.`), else the modules and classes whose
    qualified names end with it (`gen` -> `tornado.gen.`, `web.RequestHandler` ->
    `tornado.web.RequestHandler.`), and in both what the modules it names re-export
    (`aiohttp.web` re-exports `aiohttp.web_response.Response`: a name defined elsewhere
    that users reach through it). Holds everything without a qualifier or when nothing
    indexed is named so (a qualifier that names nothing says nothing of where to look)."""
    if not qualifier:
        return Scope()
    top = qualifier.split(".", 1)[0]
    if module_chunks(hub.store, top, source):
        named = module_chunks(hub.store, qualifier, source)
        return Scope((top.lower() + ".",), _exports(named))
    filters = SearchFilters(source=[source] if source else None)
    ids = [cid for cid, _ in hub.store.symbol_lookup([qualifier], filters, ["api"], MAX_SCOPES)]
    want = qualifier.lower()
    named = [
        chunk
        for chunk in hub.store.get_chunks(ids)
        if chunk.metadata.chunk_type in ("module", "class")
        and (symbol := (chunk.symbol or "").lower())
        and (symbol == want or symbol.endswith("." + want))
    ]
    prefixes = sorted({(c.symbol or "").lower() + "." for c in named})
    return Scope(tuple(prefixes), _exports(named))


def _exports(chunks: list[Chunk]) -> frozenset[str]:
    """What the module chunks among `chunks` declare as their API (`extra.exports`)."""
    return frozenset(
        str(name).lower()
        for c in chunks
        if c.metadata.chunk_type == "module"
        for name in c.metadata.extra.get("exports", ())
    )


def _close(asked: str, name: str) -> bool:
    return asked == name or difflib.SequenceMatcher(None, asked, name).ratio() >= CLOSE_SPELLING


#: How alike a constant of the module asked for must be spelled: looser than CUTOFF,
#: the qualifier already says where to look (`HTTP_999_NOPE` -> `HTTP_200_OK`, 0.58).
MODULE_CUTOFF = 0.4


def _constants_like(hub: HubSession, asked: str, source: str | None, most: int) -> list[str]:
    """The constants the module `asked`'s qualifier names records (names bound there),
    those spelled closest to its last part first."""
    if "." not in asked:
        return []
    module, last = asked.rsplit(".", 1)
    constants = {
        c.rsplit(".", 1)[-1].lower(): c for c in module_constants(hub.store, module, source)
    }
    close = difflib.get_close_matches(last.lower(), list(constants), n=most, cutoff=MODULE_CUTOFF)
    return [constants[name] for name in close]


#: How alike a name must be spelled to count as the same one mistyped (a letter off).
CLOSE_SPELLING = 0.85


def spelled_closely(asked: str, name: str) -> bool:
    """Whether `name`'s last part is `asked`'s (case-insensitively) or a letter or so off:
    `Request` -> `request`, `requests`; not `requires`."""
    a, n = asked.rsplit(".", 1)[-1].lower(), name.rsplit(".", 1)[-1].lower()
    return a == n or difflib.SequenceMatcher(None, a, n).ratio() >= CLOSE_SPELLING


#: How alike (difflib ratio) a name must be spelled to be offered.
CUTOFF = 0.6


def _spelled_like(asked: str, name: str) -> bool:
    return asked in name or difflib.SequenceMatcher(None, asked, name).ratio() >= CUTOFF


def _importable_symbols(hub: HubSession, ids: list[str], tests_asked: bool) -> list[str]:
    """The symbols of chunks `ids`, in order and once, leaving out what no user imports
    (tools/importable.py), a name only a type stub defines (`__init__.pyi`'s `Logger`
    beside an `__init__.py` that binds no such name: importing it fails); test code too
    unless `tests_asked`."""
    out: dict[str, None] = {}
    for chunk in hub.store.get_chunks(ids):
        if not chunk.symbol or is_nested(chunk) or (in_tests(chunk.path) and not tests_asked):
            continue
        if _stub_only(hub, chunk):
            continue
        out.setdefault(chunk.symbol, None)
    return list(out)


def _stub_only(hub: HubSession, chunk: Chunk) -> bool:
    """A `.pyi` definition under a name its module's code that runs (a `.py` of it)
    neither defines nor binds: `Logger` in `__init__.pyi` where `__init__.py` imports it
    as `_Logger`. A stub-only package (no `.py`) is its API as typed."""
    module = chunk.metadata.module or ""
    symbol = chunk.symbol or ""
    if not chunk.path.endswith(".pyi") or not symbol.startswith(f"{module}."):
        return False
    modules = module_chunks(hub.store, module, chunk.source)
    runtime = [m for m in modules if not m.path.endswith(".pyi")]
    if not runtime:
        return False
    top = f"{module}.{symbol[len(module) + 1 :].split('.', 1)[0]}"
    query = ChunkQuery(kind="api", source=chunk.source, symbol=top)
    if any(not c.path.endswith(".pyi") for c in hub.store.find_chunks(query)):
        return False
    return not any(bound_groups(hub.store, runtime, top, chunk.source))


def did_you_mean(hub: HubSession, symbol: str, source: str | None = None) -> str:
    """`; did you mean a, b?` with the names nearest `symbol`, or "" when none is near."""
    near = nearest_names(hub, symbol, source)
    return f"; did you mean {', '.join(near)}?" if near else ""


def as_imported(hub: HubSession, names: list[str]) -> list[str]:
    """Offered as a user imports them: `anyio.Lock`, not `anyio._core._synchronization.Lock`."""
    public = public_paths(hub.store, names)
    return list(dict.fromkeys(public.get(n, n) for n in names))


def _qualifier_likeness(name: str, qualifier: str) -> float:
    """How closely `name`'s qualifier (its parts before the last) reads like the one
    asked: 1 for the same top-level package, plus the best spelling ratio of the asked
    qualifier's last part to any of its parts; 0 when none was asked."""
    if not qualifier:
        return 0.0
    want = qualifier.rsplit(".", 1)[-1]
    parts = [p.lower() for p in name.split(".")[:-1]]
    same_package = 1.0 if parts and parts[0] == qualifier.split(".", 1)[0] else 0.0
    ratio = max((difflib.SequenceMatcher(None, want, p).ratio() for p in parts), default=0.0)
    return same_package + ratio
