"""Hits the installed version does not have.

A hub often indexes a package twice: the distribution installed in the project, and a
pinned release's sdist beside it for its docs. A definition that only the other release
has (a method added in 2.16 while 2.15 is installed) may rank first, and an agent
coding against the installed version would call what raises AttributeError. Such a hit
says so: `not_installed` in its metadata, rendered as a line of its own.
"""

from __future__ import annotations

from collections.abc import Sequence

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
    named = [h for h in hits if h.kind == "api" and h.symbol]
    if not named:
        return {}
    states = {s.name: s for s in store.sources()}
    keys = {name: package_keys(state) for name, state in states.items()}
    kin = {
        src: [o for o in keys if o != src and keys[o] & keys.get(src, set())]
        for src in {h.source for h in named}
    }
    if not any(kin.values()):
        return {}
    ranks = installed_ranks(store, set(kin) | {o for others in kin.values() for o in others})
    notes: dict[str, str] = {}
    for hit in named:
        if ranks.get(hit.source) == INSTALLED:
            continue
        installed = [o for o in kin.get(hit.source, []) if ranks.get(o) == INSTALLED]
        folded = {str(v.get("source")) for v in hit.metadata.get("also_in", ())}
        if not installed or folded & set(installed):
            continue  # no installed copy known, or the hit stands for it too
        target = installed[0]
        if store.find_chunks(ChunkQuery(kind="api", source=target, symbol=hit.symbol)):
            continue
        version = states[target].version
        notes[hit.id] = (
            f"not in the installed version: {target}"
            + (f" (v{version})" if version else "")
            + f" has no {hit.symbol}; this is {hit.source}"
            + (f" v{hit.version}" if hit.version else "")
        )
    return notes
