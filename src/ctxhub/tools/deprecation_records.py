"""Shaping the records a deprecation answer gives: the other names of a definition
(its aliases and public paths), deprecations a later note withdrew, removals and
superseded deprecations told by a docstring's later note, and one record per statement
across indexed versions."""

from __future__ import annotations

import re
from collections.abc import Mapping

from ctxhub.core.knowledge import Chunk, ChunkQuery, Deprecation
from ctxhub.search.reexports import public_paths
from ctxhub.store.protocol import Store
from ctxhub.tools.deprecation_names import is_removal, is_undeprecation

# A docstring's deprecation note with a later note appended by ingest (deprecation
# subjects): "(changed in 19.2.0: *convert* keyword argument removed.)".
_LATER_REMOVAL = re.compile(
    r"\((?:changed|removed)\s+in\s+(?P<v>[^:()\s]+):[^()]*\b(?:removed|dropped)\b", re.I
)


# The later note ingest appends, at the end of a docstring record's note.
_LATER_NOTE = re.compile(r"\(changed\s+in\s+(?P<v>[^:()\s]+):\s(?P<t>.*)\)\s*$", re.S)
# ... which still speaks of a deprecation ("now emits a FutureWarning"): not over yet
_STILL_DEPRECATED = re.compile(r"deprecat|warn", re.I)


def superseded_in(record: Deprecation) -> str | None:
    """The version in which a docstring's later `versionchanged` about the same subject
    changed the deprecated behaviour for good ("now do not consider subclasses comparable
    anymore"): the deprecation is over, neither current nor a removal of the name."""
    later = _LATER_NOTE.search(record.text)
    if record.origin != "docstring" or later is None or removed_in(record)[0]:
        return None
    return None if _STILL_DEPRECATED.search(later.group("t")) else later.group("v")


def removed_in(record: Deprecation) -> tuple[bool, str | None]:
    """(removed, in which version): a changelog's removal (its own version), or a
    docstring note whose later `versionchanged` says the thing was removed."""
    if is_removal(record):
        return True, record.since
    later = _LATER_REMOVAL.search(record.text)
    if later is not None and record.origin != "changelog":
        return True, later.group("v")
    return False, None


def other_names(store: Store, definition: Chunk) -> list[str]:
    """The names that stand for `definition` besides its own: the aliases bound to it
    (`s = attributes = attrs`, in its module or in the module that exports it) and the
    shortest public path of each, so a record written against any of them counts."""
    own = definition.symbol or ""
    public = public_paths(store, [own]).get(own)
    targets = {own} | ({public} if public else set())
    modules = {own.rpartition(".")[0]} | ({public.rpartition(".")[0]} if public else set())
    aliases: list[str] = []
    for module in sorted(m for m in modules if m):
        for chunk in store.find_chunks(
            ChunkQuery(kind="api", symbol=module, chunk_types=("module",), limit=4)
        ):
            query = ChunkQuery(
                kind="api", source=chunk.source, path=chunk.path, chunk_types=("alias",)
            )
            aliases += [
                a.symbol
                for a in store.find_chunks(query)
                if a.symbol and str(a.metadata.extra.get("alias_of", "")) in targets
            ]
    names = list(dict.fromkeys([*(n for n in targets if n != own), *aliases]))
    spelled = public_paths(store, aliases)
    return list(dict.fromkeys([*names, *(spelled[a] for a in aliases if a in spelled)]))


def _key(version: str | None) -> tuple[int, ...] | None:
    parts = re.findall(r"\d+", version or "")
    return tuple(int(p) for p in parts) if parts else None


def withdrawn(
    records: list[Deprecation],
) -> tuple[list[Deprecation], list[Deprecation], list[tuple[Deprecation, Deprecation]]]:
    """(records still standing, the undeprecations, (withdrawn, by) pairs). A changelog or
    docstring deprecation is withdrawn by a later undeprecation of the same parameter
    (or of the same thing); a warning the code still emits never is."""
    undone = [r for r in records if is_undeprecation(r)]
    if not undone:
        return records, [], []
    kept: list[Deprecation] = []
    pairs: list[tuple[Deprecation, Deprecation]] = []
    for record in records:
        if record in undone:
            continue
        by = next((u for u in undone if _withdraws(u, record)), None)
        if by is None:
            kept.append(record)
        else:
            pairs.append((record, by))
    return kept, undone, pairs


def _withdraws(undo: Deprecation, record: Deprecation) -> bool:
    if record.origin not in ("changelog", "docstring", "docs") or is_removal(record):
        return False
    if undo.parameter != record.parameter:
        return False
    if (
        undo.parameter is None
        and undo.symbol.rsplit(".", 1)[-1] != record.symbol.rsplit(".", 1)[-1]
    ):
        return False
    mine, theirs = _key(record.since), _key(undo.since)
    return mine is None or theirs is None or theirs >= mine


def grouped(records: list[Deprecation], ranks: Mapping[str, int]) -> list[Deprecation]:
    """One record per statement: the same note about the same name from several sources
    (the installed package and an sdist of another version) is cited once, from the
    best-ranked source (the installed one), with the others in `also_in`. Order kept."""
    ordered = sorted(records, key=lambda d: ranks.get(d.source, 1))
    best: dict[tuple[str, str | None, str], Deprecation] = {}
    others: dict[tuple[str, str | None, str], list[str]] = {}
    for record in ordered:
        key = (record.symbol, record.note, record.origin)
        if key not in best:
            best[key] = record
            others[key] = []
        elif record.source != best[key].source and record.source not in others[key]:
            others[key].append(record.source)
    out: list[Deprecation] = []
    seen: set[tuple[str, str | None, str]] = set()
    for record in records:
        key = (record.symbol, record.note, record.origin)
        if key in seen:
            continue
        seen.add(key)
        out.append(best[key].model_copy(update={"also_in": others[key]}))
    return out


def module_usage_dating(
    store: Store, symbols: list[str], records: list[Deprecation]
) -> Deprecation | None:
    """For a deprecation whose records state no since: a changelog entry that deprecates
    one way of using a module the name is in ("Accessing package metadata as attributes
    on the *kit* module is deprecated") in favour of the same replacement, from the same
    source, and dated. A `__getattr__` proxy's warning often names no version; the
    changelog entry about what the proxy serves does."""
    replacements = {r.replacement for r in records if r.replacement}
    sources = {s for r in records for s in (r.source, *r.also_in)}
    for symbol in dict.fromkeys(symbols):
        parts = symbol.split(".")
        for owner in (".".join(parts[:n]) for n in range(len(parts) - 1, 0, -1)):
            for d in store.deprecations(owner):
                usage = d.partial and d.parameter is None
                same = d.replacement in replacements and d.source in sources
                if d.symbol == owner and d.origin == "changelog" and usage and same and d.since:
                    return d
    return None
