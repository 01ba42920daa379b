"""The indexed names closest to one that is not there: what "did you mean" offers."""

from __future__ import annotations

import difflib

from ctxhub.core.knowledge import SearchFilters, SearchRequest
from ctxhub.search.reexports import public_paths
from ctxhub.session import HubSession

#: Names compared by spelling: every indexed last part with the same first letter (a
#: typo rarely starts a name), at most this many
MAX_SPELLED = 20_000


def nearest_names(
    hub: HubSession, symbol: str, source: str | None = None, most: int = 5
) -> list[str]:
    """Qualified API names spelled closest to `symbol` (a typo, another case, a missing
    letter: `Litestr` -> `litestar.app.Litestar`), then what a search for it finds."""
    filters = SearchFilters(source=[source] if source else None)
    request = SearchRequest(query=symbol, kinds=["api"], filters=filters, limit=10)
    # one name once: a property's getter and setter are two chunks of one symbol
    found = list(dict.fromkeys(h.symbol for h in hub.retriever.search(request).hits if h.symbol))
    last = symbol.strip().strip("`").removesuffix("()").rsplit(".", 1)[-1].lower()
    if not last:
        public = public_paths(hub.store, found[:most])
        return list(dict.fromkeys(public.get(n, n) for n in found[:most]))
    spelled = hub.store.bare_names(last[:1], MAX_SPELLED)
    tails = {n: n.rsplit(".", 1)[-1].lower() for n in found}
    close = difflib.get_close_matches(
        last, list(dict.fromkeys([*tails.values(), *spelled])), n=most, cutoff=0.6
    )
    for name in close:  # the definitions of a close name the search did not find
        if name not in tails.values():
            ids = [cid for cid, _ in hub.store.symbol_lookup([name], filters, ["api"], 2)]
            for chunk in hub.store.get_chunks(ids):
                if chunk.symbol and chunk.symbol not in tails:
                    tails[chunk.symbol] = name
                    found.append(chunk.symbol)
    ranked = sorted(found, key=lambda n: close.index(tails[n]) if tails[n] in close else most)
    # offered as a user imports them: `anyio.Lock`, not `anyio._core._synchronization.Lock`
    public = public_paths(hub.store, ranked[:most])
    return list(dict.fromkeys(public.get(n, n) for n in ranked[:most]))
