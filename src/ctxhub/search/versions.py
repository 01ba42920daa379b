"""One definition or page indexed in two versions of its package (the installed
distribution beside a pinned release's sdist for its docs) is one hit: the copy from the
preferred source (the version installed: `tools/hub_status.installed_ranks`) takes the
better rank of the two, and the other copies ride along in its `versions`, so the same
answer never spends two of the top five.

Copies are recognised by their qualified name (an API definition) or, for doc pages,
examples and chunks without a name, by their path, between two sources that index one
package: a shared top-level Python package or one distribution. `README.md` in two
unrelated packages is two answers."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence

from ctxhub.core.identifiers import canonical_name
from ctxhub.core.knowledge import Chunk
from ctxhub.search.rank import Candidate
from ctxhub.store.protocol import SourceState

#: Source name -> rank (lower preferred) for the sources asked; a source missing from the
#: answer ranks UNRANKED. Asked only when two sources hold one copy each.
SourceRank = Callable[[Collection[str]], Mapping[str, int]]
UNRANKED = 2  # as tools/hub_status.UNKNOWN: a source the answer does not rank


def copy_key(chunk: Chunk) -> tuple[str, str]:
    """What two versions of one definition or page share."""
    if chunk.kind == "api" and chunk.symbol:
        return ("symbol", chunk.symbol)
    if chunk.kind == "example" and chunk.metadata.example:
        return ("example", chunk.metadata.example)
    return (chunk.kind, chunk.path)


def package_keys(state: SourceState) -> set[str]:
    """The top-level packages a source indexes, and the distribution it was read from."""
    names = {str(p) for p in state.stats.get("packages", ())}
    if state.origin.startswith("pypi:"):
        dist = re.split(r"[\s=<>!~@\[]", state.origin.removeprefix("pypi:"), maxsplit=1)[0]
        names.add("dist:" + canonical_name(dist))
    return names


def fold_versions(
    ranked: list[Candidate],
    sources: Callable[[], Sequence[SourceState]],
    source_rank: SourceRank | None = None,
) -> list[Candidate]:
    """`ranked` with each copy key held by several sources of one package kept once: the
    first chunk of the best-ranked source (by `source_rank`, then by position) moves to
    the group's best position and lists the other sources' first chunks in `versions`;
    their further chunks of that key go. `sources` (the store's source rows) is read only
    when a path is shared."""
    firsts: dict[tuple[str, str], dict[str, int]] = {}
    for i, cand in enumerate(ranked):
        firsts.setdefault(copy_key(cand.chunk), {}).setdefault(cand.chunk.source, i)
    shared = {key: by_source for key, by_source in firsts.items() if len(by_source) > 1}
    if not shared:
        return ranked
    packages: dict[str, set[str]] | None = None
    groups: list[dict[str, int]] = []
    for key, by_source in shared.items():
        if key[0] != "symbol":  # one qualified name is one module's definition
            if packages is None:
                packages = {s.name: package_keys(s) for s in sources()}
            kin = _one_package(by_source, packages)
            if len(kin) < 2:
                continue
            by_source = {name: i for name, i in by_source.items() if name in kin}
        groups.append(by_source)
    if not groups:
        return ranked
    ranks = source_rank({s for g in groups for s in g}) if source_rank else {}
    place: dict[int, Candidate] = {}  # the group's best position -> its keeper
    gone: set[int] = set()
    for by_source in groups:
        keeper = min(by_source, key=lambda s: (ranks.get(s, UNRANKED), by_source[s]))
        kept = ranked[by_source[keeper]]
        for name, i in sorted(by_source.items(), key=lambda x: x[1]):
            if name != keeper:
                _absorb(kept, ranked[i])
        key = copy_key(kept.chunk)
        others = set(by_source) - {keeper}
        gone.update(
            i for i, c in enumerate(ranked) if c.chunk.source in others and copy_key(c.chunk) == key
        )
        gone.add(by_source[keeper])
        place[min(by_source.values())] = kept
    out: list[Candidate] = []
    for i, cand in enumerate(ranked):
        if i in place:
            out.append(place[i])
        elif i not in gone:
            out.append(cand)
    return out


def _one_package(by_source: Mapping[str, int], packages: Mapping[str, set[str]]) -> set[str]:
    """Those of `by_source` that share a package with another of them."""
    names = list(by_source)
    return {
        a
        for a in names
        for b in names
        if a != b and packages.get(a, set()) & packages.get(b, set())
    }


def _absorb(kept: Candidate, other: Candidate) -> None:
    """`kept` takes `other`'s better score and ranks, and lists it as another version."""
    kept.score = max(kept.score, other.score)
    kept.fused = max(kept.fused, other.fused)
    for path, signal in other.signals.items():
        if path not in kept.signals or signal.rank < kept.signals[path].rank:
            kept.signals[path] = signal
    kept.versions.append(other.chunk)
