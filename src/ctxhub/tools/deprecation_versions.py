"""Which release a deprecation answer holds for, and the records a newer release states.

A hub often holds the copy of a package the project runs (`pypi:NAME`, installed) beside
another release's sdist, or a docs site whose changelog goes further. "Deprecated in 6.3"
or "removed in 7.0" read there is not true of 6.1: such a record is told apart
(`DeprecationReport.newer`), never given as the current verdict. The release compared
against is the installed copy of the package, else its one indexed version (or the
source asked for); several indexed versions and none installed leave it unknown, and
then every record counts, whatever release it states.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from ctxhub.core.knowledge import Chunk, Deprecation
from ctxhub.core.outputs import RunningVersion
from ctxhub.search.versions import package_keys
from ctxhub.sources.pypi import distribution_of
from ctxhub.store.protocol import HubStore
from ctxhub.tools.deprecation_records import removed_in
from ctxhub.tools.hub_status import DRIFTED, INSTALLED, installed_now, installed_ranks
from ctxhub.tools.releases import label, release

#: Origins that state a release in prose (a changelog entry, a docs page), not read from
#: the code of the release that holds them.
STATED = ("changelog", "docs")


def running_version(
    store: HubStore,
    symbol: str,
    defined: Sequence[Chunk],
    records: Sequence[Deprecation],
    source: str | None = None,
) -> RunningVersion | None:
    """The release the answer about `symbol` holds for: `source` when one was asked for;
    else, among the sources that define it or index its package, the installed copy
    (one installed at another version since it was indexed next: the version installed
    now is what runs), else their one version; None when that is not one version."""
    states = {s.name: s for s in store.sources()}
    if source is not None:
        names = [source]
    else:
        defining = list(dict.fromkeys(c.source for c in defined))
        tops = {n.split(".")[0] for n in [symbol, *(c.symbol or "" for c in defined)] if "." in n}
        keys = tops | {k for n in defining if n in states for k in package_keys(states[n])}
        if not defining and not tops:
            # a bare name nothing defines (a changelog's removal): the package the
            # records name, or that their sources index, so that its installed copy
            # answers as it does for the qualified name
            recording = [n for n in dict.fromkeys(d.source for d in records) if n in states]
            keys = {d.symbol.split(".")[0] for d in records if "." in d.symbol}
            keys |= {k for n in recording for k in package_keys(states[n])}
        kin = [n for n, s in states.items() if n not in defining and package_keys(s) & keys]
        names = [*defining, *kin] or list(dict.fromkeys(d.source for d in records))
    names = [n for n in names if n in states]
    if not names:
        return None
    ranks = installed_ranks(store, set(names))
    picked = next((n for n in names if ranks.get(n) == INSTALLED), None)
    picked = picked or next((n for n in names if ranks.get(n) == DRIFTED), None)
    if picked is None:
        if len({states[n].version for n in names}) != 1:
            return None  # several releases indexed, none installed: which one runs is unknown
        picked = names[0]
    state = states[picked]
    if not state.version:
        return None
    version, indexed = state.version, None
    if ranks.get(picked) == DRIFTED:
        # installed at another version since it was indexed: that one runs
        version = installed_now(state.origin, state.version) or version
        indexed = state.version if version != state.version else None
    installed = ranks.get(picked) == INSTALLED or indexed is not None
    dist = distribution_of(state.origin) if installed else None
    return RunningVersion(
        source=picked,
        package=dist[0] if dist else picked,
        version=version,
        installed=installed,
        indexed=indexed,
    )


def split_newer(
    records: list[Deprecation],
    running: RunningVersion | None,
    defining: Collection[str],
    versions: Mapping[str, str | None],
) -> tuple[list[Deprecation], list[Deprecation]]:
    """(records in effect in the running release, records of a newer one). `defining`:
    the sources that define the name; `versions`: each source's indexed version."""
    now = release(running.version) if running is not None else None
    if running is None or now is None:
        return records, []
    current: list[Deprecation] = []
    newer: list[Deprecation] = []
    for record in records:
        later = _newer(record, running, now, defining, versions)
        (newer if later else current).append(record)
    return current, newer


def _newer(
    record: Deprecation,
    running: RunningVersion,
    now: tuple[int, ...],
    defining: Collection[str],
    versions: Mapping[str, str | None],
) -> bool:
    own = running.source in (record.source, *record.also_in)
    if own and record.origin not in STATED:
        return False  # the running release's own code says so, whatever release it names
    gone, when = removed_in(record)
    stated = release(when if gone else record.since)
    if stated is not None:
        return stated > now
    # no release stated: a warning only a newer release's code gives, where the running
    # release defines the name without one, arrived after it
    if own or record.origin in STATED or running.source not in defining:
        return False
    theirs = release(versions.get(record.source))
    return theirs is not None and theirs > now


def split_owners_newer(
    store: HubStore,
    records: list[Deprecation],
    definitions: Callable[[str], Sequence[Chunk]],
    source: str | None = None,
) -> tuple[list[Deprecation], list[Deprecation], RunningVersion | None]:
    """Records about several owners (where a bare parameter name is deprecated), each
    split as its owner's own answer splits it: by the release its package runs
    (`definitions(owner)`: what defines the owner). Returns (current, newer, the one
    release they all hold for, else None)."""
    versions = {s.name: s.version for s in store.sources()}
    current: list[Deprecation] = []
    newer: list[Deprecation] = []
    runs: dict[str, RunningVersion | None] = {}
    for record in records:
        defined = definitions(record.symbol)
        running = running_version(store, record.symbol, defined, [record], source)
        runs[running.source if running is not None else ""] = running
        now, later = split_newer([record], running, {c.source for c in defined}, versions)
        current += now
        newer += later
    return current, newer, next(iter(runs.values())) if len(runs) == 1 else None


def absent_note(
    symbol: str,
    running: RunningVersion | None,
    records: Sequence[Deprecation],
    stated: Sequence[Deprecation] = (),
) -> str | None:
    """For a name no indexed source defines: what is known of it, the removal a record
    states (`stated`: the records in effect) and that the running release (else any
    indexed source) does not define it; None when that release's own code names it (a
    name a module provides on access)."""
    if running is not None and any(
        d.origin not in STATED and running.source in (d.source, *d.also_in) for d in records
    ):
        return None
    where = f"the {label(running)}" if running is not None else "any indexed source"
    removal = next((d for d in stated if removed_in(d)[0] and not d.partial), None)
    if removal is not None:
        version = removed_in(removal)[1]
        when = f" in {version}" if version else ""
        return f"removed{when} per {_told_by(removal)}; not defined in {where}"
    told = list(dict.fromkeys(_told_by(d) for d in records)) or ["a record"]
    return f"not defined in {where}: only {' and '.join(told)} names {symbol}"


def _told_by(record: Deprecation) -> str:
    """Where a record comes from, as a note words it."""
    return {"changelog": "the changelog", "docs": "the docs"}.get(
        record.origin, f"a {record.origin} record"
    )
