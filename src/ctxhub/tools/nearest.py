"""The indexed names closest to one that is not there: what "did you mean" offers."""

from __future__ import annotations

import difflib

from ctxhub.core.knowledge import SearchFilters, SearchRequest
from ctxhub.search.reexports import public_paths
from ctxhub.session import HubSession

#: Names compared by spelling: every indexed last part with the same first letter (a
#: typo rarely starts a name), at most this many
MAX_SPELLED = 20_000
#: Definitions read per close name, to pick those under a qualifier like the one asked
PER_NAME = 20


def nearest_names(
    hub: HubSession, symbol: str, source: str | None = None, most: int = 5
) -> list[str]:
    """Qualified API names spelled closest to `symbol` (a typo, another case, a missing
    letter: `Litestr` -> `litestar.app.Litestar`), then what a search for it finds.
    Among names spelled alike, those whose qualifier reads like the one asked come
    first (`Console.prnt` -> `rich.console.Console.print` before `rich.print`)."""
    filters = SearchFilters(source=[source] if source else None)
    request = SearchRequest(query=symbol, kinds=["api"], filters=filters, limit=10)
    # one name once: a property's getter and setter are two chunks of one symbol
    found = list(dict.fromkeys(h.symbol for h in hub.retriever.search(request).hits if h.symbol))
    asked = symbol.strip().strip("`").removesuffix("()")
    last = asked.rsplit(".", 1)[-1].lower()
    if not last:
        return _as_imported(hub, found[:most])
    qualifier = asked.rsplit(".", 1)[0].lower() if "." in asked else ""
    spelled = hub.store.bare_names(last[:1], MAX_SPELLED)
    tails = {n: n.rsplit(".", 1)[-1].lower() for n in found}
    close = difflib.get_close_matches(
        last, list(dict.fromkeys([*tails.values(), *spelled])), n=most, cutoff=0.6
    )
    for name in close:  # the definitions of a close name, those under a like qualifier
        ids = [cid for cid, _ in hub.store.symbol_lookup([name], filters, ["api"], PER_NAME)]
        named = [c.symbol for c in hub.store.get_chunks(ids) if c.symbol]
        named.sort(key=lambda n: -_qualifier_likeness(n, qualifier))
        for defined in named[:2]:
            if defined not in tails:
                tails[defined] = name
                found.append(defined)

    def order(n: str) -> tuple[int, float]:
        spelling = close.index(tails[n]) if tails[n] in close else most
        return spelling, -_qualifier_likeness(n, qualifier)

    return _as_imported(hub, sorted(found, key=order)[:most])


def did_you_mean(hub: HubSession, symbol: str, source: str | None = None) -> str:
    """`; did you mean a, b?` with the names nearest `symbol`, or "" when none is near."""
    near = nearest_names(hub, symbol, source)
    return f"; did you mean {', '.join(near)}?" if near else ""


def _as_imported(hub: HubSession, names: list[str]) -> list[str]:
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
