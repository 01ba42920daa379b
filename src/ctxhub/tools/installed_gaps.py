"""Hits the installed version does not have.

A hub often indexes a package twice: the distribution installed in the project, and a
pinned release's sdist beside it for its docs. A definition that only the other release
has (a method added in 2.16 while 2.15 is installed) may rank first, and an agent
coding against the installed version would call what raises AttributeError. Such a hit
says so: `not_installed` in its metadata, rendered as a line of its own.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from ctxhub.core.knowledge import ChunkQuery, Hit
from ctxhub.search.versions import package_keys
from ctxhub.store.protocol import HubStore, SourceState
from ctxhub.tools.hub_status import INSTALLED, installed_ranks

#: The hit metadata key of the note
NOT_INSTALLED_KEY = "not_installed"


def installed_gaps(store: HubStore, hits: Sequence[Hit]) -> dict[str, str]:
    """Hit id -> note, for API hits from a source that is not the installed copy of
    its package when the installed copy (another source of that package) has no
    definition of that qualified name. The sources are read, and the environment asked,
    once for all the hits, and only when some hit's source shares a package with another
    source."""
    named = [h for h in hits if h.kind == "api" and h.symbol]
    if not named:
        return {}
    copies = _Copies.of(store, {h.source for h in named})
    notes: dict[str, str] = {}
    for hit in named:
        folded = {str(v.get("source")) for v in hit.metadata.get("also_in", ())}
        note = copies.note(store, str(hit.symbol), {hit.source: hit.version}, folded)
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
    return _Copies.of(store, set(found_in)).note(store, symbol, found_in, also)


@dataclass(frozen=True)
class _Copies:
    """The sources, the packages each indexes, and how installed each is: read once
    for the sources asked about and those sharing a package with them."""

    states: Mapping[str, SourceState]
    keys: Mapping[str, set[str]]
    ranks: Mapping[str, int]

    @classmethod
    def of(cls, store: HubStore, asked: Collection[str]) -> _Copies:
        states = {s.name: s for s in store.sources()}
        keys = {name: package_keys(state) for name, state in states.items()}
        # every copy of the asked sources' packages, themselves included
        copies = {o for a in asked for o in keys if o != a and keys[o] & keys.get(a, set())}
        # the environment is asked only where another copy of a package is indexed
        ranks = installed_ranks(store, set(asked) | copies) if copies else {}
        return cls(states, keys, ranks)

    def note(
        self,
        store: HubStore,
        symbol: str,
        found_in: Mapping[str, str | None],
        also: Collection[str],
    ) -> str | None:
        mine = set().union(*(self.keys.get(src, set()) for src in found_in))
        kin = [o for o in self.keys if o not in found_in and self.keys[o] & mine]
        if not kin or any(self.ranks.get(src) == INSTALLED for src in [*found_in, *also]):
            return None
        installed = [o for o in kin if self.ranks.get(o) == INSTALLED]
        if not installed:
            return None
        target = installed[0]
        if store.find_chunks(ChunkQuery(kind="api", source=target, symbol=symbol)):
            return None
        # a top-level package the installed copy never ships (an sdist's extra code) is
        # no definition a version lacks
        shipped = {k for k in self.keys[target] if not k.startswith("dist:")}
        if shipped and symbol.split(".", 1)[0] not in shipped:
            return None
        version = self.states[target].version
        source, indexed = next(iter(found_in.items()))
        return (
            f"not in the installed version: {target}"
            + (f" (v{version})" if version else "")
            + f" has no {symbol}; this is {source}"
            + (f" v{indexed}" if indexed else "")
        )
