"""Hits the installed version does not have.

A hub often indexes a package twice: the distribution installed in the project, and a
pinned release's sdist beside it for its docs. A definition that only the other release
has (a method added in 2.16 while 2.15 is installed) may rank first, and an agent
coding against the installed version would call what raises AttributeError. Such a hit
says so: `not_installed` in its metadata, rendered as a line of its own.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from ctxhub.core.knowledge import ChunkQuery, Hit
from ctxhub.search.versions import package_keys
from ctxhub.store.protocol import HubStore
from ctxhub.tools.hub_status import INSTALLED, installed_ranks

#: The hit metadata key of the note
NOT_INSTALLED_KEY = "not_installed"


def installed_gaps(store: HubStore, hits: Sequence[Hit]) -> dict[str, str]:
    """Hit id -> note, for API hits from a source that is not the installed copy of
    its package when the installed copy (another source of that package) has no
    definition of that qualified name. The environment is asked only when some hit's
    source shares a package with another source."""
    notes: dict[str, str] = {}
    for hit in hits:
        if hit.kind != "api" or not hit.symbol:
            continue
        folded = {str(v.get("source")) for v in hit.metadata.get("also_in", ())}
        note = missing_from_installed(store, hit.symbol, {hit.source: hit.version}, folded)
        if note:
            notes[hit.id] = note
    return notes


def missing_from_installed(
    store: HubStore,
    symbol: str,
    found_in: Mapping[str, str | None],
    also: Collection[str] = (),
) -> str | None:
    """The note for `symbol`, defined (or recorded) in the sources `found_in` (name ->
    version), when none of them is the installed copy of its package and the installed
    copy (another source of that package) has no definition of it; None otherwise.
    `also`: further sources known to hold it (a hit's folded versions)."""
    states = {s.name: s for s in store.sources()}
    keys = {name: package_keys(state) for name, state in states.items()}
    mine = set().union(*(keys.get(src, set()) for src in found_in)) if found_in else set()
    kin = [o for o in keys if o not in found_in and keys[o] & mine]
    if not kin:
        return None
    ranks = installed_ranks(store, set(found_in) | set(kin))
    if any(ranks.get(src) == INSTALLED for src in [*found_in, *also]):
        return None
    installed = [o for o in kin if ranks.get(o) == INSTALLED]
    if not installed:
        return None
    target = installed[0]
    if store.find_chunks(ChunkQuery(kind="api", source=target, symbol=symbol)):
        return None
    version = states[target].version
    source, indexed = next(iter(found_in.items()))
    return (
        f"not in the installed version: {target}"
        + (f" (v{version})" if version else "")
        + f" has no {symbol}; this is {source}"
        + (f" v{indexed}" if indexed else "")
    )
