"""The indexed names closest to one that is not there: what "did you mean" offers."""

from __future__ import annotations

import difflib

from ctxhub.core.knowledge import SearchFilters, SearchRequest
from ctxhub.session import HubSession


def nearest_names(
    hub: HubSession, symbol: str, source: str | None = None, most: int = 5
) -> list[str]:
    """Qualified API names a search for `symbol` finds, those whose last part is spelled
    closest to it first (a typo, another case, a missing letter)."""
    request = SearchRequest(
        query=symbol,
        kinds=["api"],
        filters=SearchFilters(source=[source] if source else None),
        limit=10,
    )
    names = [h.symbol for h in hub.retriever.search(request).hits if h.symbol]
    last = symbol.strip().strip("`").removesuffix("()").rsplit(".", 1)[-1].lower()
    tails = {n: n.rsplit(".", 1)[-1].lower() for n in names}
    close = difflib.get_close_matches(last, list(dict.fromkeys(tails.values())), n=most, cutoff=0.6)
    ranked = sorted(names, key=lambda n: close.index(tails[n]) if tails[n] in close else most)
    return ranked[:most]
