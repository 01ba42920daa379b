"""The notices a search answer carries when its hits are not what they seem: an empty
hub, a query that is one name nothing defines, sources that hold nothing of the kinds
searched."""

from __future__ import annotations

from ctxhub.core.errors import shown
from ctxhub.core.identifiers import is_identifier_like
from ctxhub.core.knowledge import HitKind
from ctxhub.core.sentences import join_sentences
from ctxhub.search.analyzer import is_one_name
from ctxhub.session import HubSession
from ctxhub.sources.base import ADD_COMMAND, SOURCE_FORMS
from ctxhub.tools import resolve
from ctxhub.tools.nearest import did_you_mean

#: What an empty hub answers every search with.
EMPTY_HUB = (
    f"nothing is indexed yet: add a source with `{ADD_COMMAND}` ({SOURCE_FORMS}), then search again"
)


def empty_hub(hub: HubSession) -> str | None:
    """EMPTY_HUB when the hub holds no source at all (asked only of an empty answer)."""
    return None if hub.store.sources() else EMPTY_HUB


def named_nothing(hub: HubSession, query: str) -> str | None:
    """For a query that is one code name no definition has (a hallucinated method, a
    typo: `requests.Session.fetch_json`, `StreamingRespone`), a notice saying so with the
    nearest names: the hits are only what a search for its words finds, never that
    name's definition. A bare word that reads as English (`routing`) is a search."""
    if not is_one_name(query):
        return None
    name = query.strip().strip("`").removesuffix("()")
    if not is_identifier_like(name) or resolve.find_symbol(hub.store, name)[0]:
        return None
    return join_sentences(
        f"no definition named {shown(name)} is indexed{did_you_mean(hub, name)}",
        "The hits are what a search for its words finds.",
    )


#: What each hit kind is called where a source's kinds are named.
_KIND_WORDS = {"doc": "docs", "api": "API", "example": "examples"}


def nothing_of_kind(
    hub: HubSession, source: str | list[str] | None, kinds: list[HitKind] | None
) -> str | None:
    """For an answer limited to sources, when none of them holds a chunk of the kinds
    searched: which (`source websockets has no docs indexed (kinds: python)`), so an
    empty answer is not read as "the docs say nothing about it", nor search_examples'
    docs pages as "no example matches closely"; None otherwise."""
    names = [source] if isinstance(source, str) else source
    if not names or not kinds:
        return None
    counts = hub.store.counts()
    states = {s.name: s for s in hub.store.sources()}
    empty = [n for n in names if not any(counts.get(n, {}).get(k) for k in kinds)]
    if len(empty) < len(names):
        return None
    what = " or ".join(dict.fromkeys(_KIND_WORDS.get(k, k) for k in kinds))
    said = [
        f"source {n} has no {what} indexed"
        + (f" (kinds: {', '.join(states[n].kinds)})" if n in states and states[n].kinds else "")
        for n in empty
    ]
    return "; ".join(said) + "; search without source, or add a source that has them"
