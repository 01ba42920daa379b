"""check_deprecation: whether a symbol is deprecated, since when, and what replaces it."""

from __future__ import annotations

from ctxhub.core.errors import InputError
from ctxhub.core.knowledge import Chunk, Deprecation
from ctxhub.core.outputs import DeprecationReport, RunningVersion
from ctxhub.ingest.python.deprecation_text import find_replacements
from ctxhub.search.reexports import public_paths
from ctxhub.search.stubs import is_stub, runtime_definition
from ctxhub.session import HubSession
from ctxhub.tools import resolve
from ctxhub.tools.deprecation_checks import CHECKED
from ctxhub.tools.deprecation_docs import docs_deprecations, docs_records, docs_report
from ctxhub.tools.deprecation_names import is_undeprecation, names_it
from ctxhub.tools.deprecation_records import (
    grouped,
    module_usage_dating,
    other_names,
    removed_in,
    withdrawn,
)
from ctxhub.tools.deprecation_versions import (
    absent_note,
    running_version,
    split_newer,
    split_owners_newer,
)
from ctxhub.tools.hub_status import installed_ranks, source_notes
from ctxhub.tools.installed_gaps import missing_from_installed
from ctxhub.tools.nearest import nearest_names
from ctxhub.tools.source_check import check_sources

#: Where ctxhub reads deprecations (ingest/python/deprecations.py, deprecation_helpers.py,
#: changelog.py; tools/deprecation_docs.py at query time).


def check_deprecation(hub: HubSession, symbol: str, source: str | None = None) -> DeprecationReport:
    symbol = symbol.strip()
    if not symbol:
        raise InputError("symbol must not be empty")
    check_sources(hub.store, source)
    defined, how = _definitions(hub, symbol, source)
    # a guess among definitions (a short name, a `Class.method` suffix, a re-export
    # several modules could give) may mean more than one
    guessed = "." not in symbol or how in ("ambiguous re-export", "class.method")
    candidates = _distinct(hub, _namesakes(hub, symbol, source) or defined) if guessed else []
    if len(candidates) > 1:
        report = _ambiguous(hub, symbol, candidates, source)
    else:
        report = _answer(hub, symbol, source, defined)
    return _as_parameter(hub, report, source)


def _as_parameter(
    hub: HubSession, report: DeprecationReport, source: str | None
) -> DeprecationReport:
    """A bare name that is not deprecated as a symbol may be a deprecated parameter
    (`shell_complete`): say of which callables, rather than "no deprecation found"."""
    if "." in report.symbol or report.deprecated:
        return report
    known = {(d.symbol, d.note) for d in report.parameters}
    records = [
        d
        for d in hub.store.parameter_deprecations(report.symbol)
        if source in (None, d.source) and (d.symbol, d.note) not in known
    ]
    if not records:
        return report
    ranks = installed_ranks(hub.store, {d.source for d in records})
    # each owner's release decides, as it does for the owner's own answer
    of, later, running = split_owners_newer(
        hub.store,
        grouped(records, ranks)[:10],
        lambda owner: _definitions(hub, owner, source)[0],
        source,
    )
    cited = [*report.parameters, *report.entries, *report.undeprecated, *report.newer, *of]
    update: dict[str, object] = {
        "parameter_of": of,
        "parameter_of_newer": later,
        "source_versions": _versions(hub, [*cited, *later]),
    }
    if report.running is None and later:
        update["running"] = running  # the release those records are newer than
    return report.model_copy(update=update)


def _other_case(name: str, asked: str) -> bool:
    return name != asked and name.lower() == asked.lower()


def _answer(
    hub: HubSession, symbol: str, source: str | None, defined: list[Chunk]
) -> DeprecationReport:
    entries = [d for d in hub.store.deprecations(symbol) if source is None or d.source == source]
    entries += _constructor_records(hub, symbol, source)
    # Another name of a definition (an alias `s = attrs`, a re-export `pkg.Option`, a type
    # stub) answers as the definition that runs does: its records count too, and so do
    # those written against any other name of it (`attr.s` for `attr.attrs`).
    runtime = runtime_definition(hub.store, defined[0]) if defined else None
    if runtime is not None:
        defined = [runtime, *defined]
    if defined and defined[0].symbol:
        own = defined[0].symbol
        known = {(d.symbol, d.path, d.line, d.note) for d in entries}
        names = [n for n in (own, *other_names(hub.store, defined[0])) if n != symbol]
        for name in names:
            for d in [*hub.store.deprecations(name), *_constructor_records(hub, name, source)]:
                key = (d.symbol, d.path, d.line, d.note)
                if key in known or source not in (None, d.source):
                    continue
                if d.symbol in (name, f"{name}.__init__") or names_it(d.symbol, name):
                    known.add(key)
                    entries.append(d)
    if not defined:
        # A name defined nowhere: only a record that names it (a changelog's removal, a
        # deprecated alias) answers; one about a namesake (`get` for `a.Session.get`)
        # does not.
        entries = [d for d in entries if names_it(d.symbol, symbol)]
    # the store matches names case-insensitively; `Connect` (a class) is another name
    # than `connect` (a function) of the same module
    tail = symbol.rsplit(".", 1)[-1]
    entries = [d for d in entries if not _other_case(d.symbol.rsplit(".", 1)[-1], tail)]
    entries, undone, _ = withdrawn(entries)
    low = symbol.lower()

    def rank(d: Deprecation) -> tuple[bool, bool, bool]:
        # code over changelog prose; whole-symbol records over parameter notes; then the
        # record whose name is closest to what was asked
        named = d.symbol.lower() == low or d.symbol.lower().endswith("." + low)
        return (d.origin == "changelog", d.partial, not named)

    entries.sort(key=rank)
    ranks = installed_ranks(hub.store, {d.source for d in [*entries, *undone]})
    entries = grouped(entries, ranks)
    undone = grouped(undone, ranks)
    # a record stating a release newer than the one that runs is no verdict about it
    running = running_version(hub.store, symbol, defined, [*entries, *undone], source)
    versions = {s.name: s.version for s in hub.store.sources()}
    defining = {c.source for c in defined}
    entries, newer = split_newer(entries, running, defining, versions)
    # the running release's copy says whether the definition itself is marked deprecated
    running_copy = [c for c in defined if running is not None and c.source == running.source]
    flagged = [c for c in (running_copy or defined)[:1] if c.metadata.deprecated]
    parameters = [d for d in entries if d.partial]
    if parameters and not flagged and len(parameters) == len(entries):
        # Only parameters (or usages) are deprecated: the symbol itself stays current.
        return _finished(
            hub,
            DeprecationReport(symbol=symbol, deprecated=False, parameters=parameters, newer=newer),
            defined,
            running,
            undone,
        )
    if not entries and not flagged:
        # an undefined name must be named whole past its modules (`Event.clear`, not
        # any `clear`)
        stated = docs_deprecations(hub.store, symbol, source=source, whole=not defined)
        records = docs_records(symbol, stated)
        said, said_later = split_newer(records, running, defining, versions)
        newer += said_later
        if said and not undone:
            current = [d for d, r in zip(stated, records, strict=True) if any(r is k for k in said)]
            return _finished(hub, docs_report(symbol, current, newer), defined, running, undone)
        if not defined and not undone and not newer:
            return DeprecationReport(
                symbol=symbol,
                deprecated=False,
                found=False,
                did_you_mean=nearest_names(hub, symbol, source),
            )
        return _finished(
            hub,
            DeprecationReport(symbol=symbol, deprecated=False, checked=list(CHECKED), newer=newer),
            defined,
            running,
            undone,
        )
    first = entries[0] if entries else None
    # a removal is cited where it is recorded; the deprecation before it second
    removal = next((d for d in entries if removed_in(d)[0] and not d.partial), None)
    notice = next((d for d in entries if not removed_in(d)[0] and not d.partial), None)
    cited = removal or first
    location = _place(cited) if cited is not None else None
    if location is None and flagged:
        c = flagged[0]
        location = f"{c.source}:{c.path}:{c.line_start}"
    replacement = next((replacement_of(d) for d in entries if d.replacement), None)
    removals = [removed_in(d) for d in entries if removed_in(d)[0] and not d.partial]
    notices = [d for d in entries if not removed_in(d)[0]]
    if notices and not any(d.since for d in notices):
        # dated by its module's changelog entry about the same usage, cited with the rest
        names = [symbol, *(c.symbol for c in defined[:1] if c.symbol)]
        dating = module_usage_dating(hub.store, names, notices)
        notices += [dating] if dating is not None else []
        entries += [dating] if dating is not None else []
    final, itself_deprecated = _final_replacement(hub, replacement)
    # deprecated in the release that has it, and gone from the one the project runs
    held = {c.source: c.version for c in defined}
    gone = missing_from_installed(hub.store, defined[0].symbol or symbol, held) if defined else None
    report = DeprecationReport(
        symbol=symbol,
        deprecated=True,
        replacement=final,
        replacement_deprecated=itself_deprecated,
        since=next((d.since for d in notices if d.since), None),
        removed_in=next((v for _, v in removals if v), None),
        removed=bool(removals),
        not_installed=gone,
        note=cited.note if cited is not None else None,
        location=location,
        deprecated_location=_place(notice) if removal is not None and notice else None,
        entries=entries[:20],
        parameters=parameters,
        evidence="changelog" if first is not None and first.origin == "changelog" else "code",
        newer=newer,
    )
    return _finished(hub, report, defined, running, undone)


def _place(record: Deprecation) -> str | None:
    """`source:path:line` of a record, when it has a path."""
    if not record.path:
        return None
    return f"{record.source}:{record.path}" + (f":{record.line}" if record.line else "")


def _finished(
    hub: HubSession,
    report: DeprecationReport,
    defined: list[Chunk],
    running: RunningVersion | None,
    undone: list[Deprecation],
) -> DeprecationReport:
    """The fields every answer about an indexed name carries: whether a definition is
    indexed, the release it holds for, the versions of the sources cited, and those
    sources' "refresh due" notes."""
    cited = [*report.entries, *report.parameters, *undone, *report.newer]
    if not defined and report.not_installed is None and (report.deprecated or report.newer):
        report.not_installed = absent_note(report.symbol, running, cited, report.entries)
    sources = {c.source for c in defined} | {s for d in cited for s in (d.source, *d.also_in)}
    sources |= {running.source} if running is not None else set()  # the release answered for
    return report.model_copy(
        update={
            "found": bool(defined),
            "running": running,
            "undeprecated": undone,
            "newer": report.newer[:20],
            "source_versions": _versions(hub, cited),
            "source_notes": source_notes(hub.store, sources),
        }
    )


#: Definitions an ambiguous short name is answered for, at most.
MAX_CANDIDATES = 8


def _namesakes(hub: HubSession, symbol: str, source: str | None) -> list[Chunk]:
    """For a bare name, every module-level class, function and alias that carries it
    (`serve` is a class in one module and a function in three others)."""
    if "." in symbol:
        return []
    return [
        c
        for c in resolve.with_suffix(hub.store, symbol, source, ["class", "function", "alias"])
        if c.symbol == f"{c.metadata.module}.{symbol}"
    ]


def _distinct(hub: HubSession, defined: list[Chunk]) -> list[Chunk]:
    """One chunk per definition the name may mean: a type stub counts as the code it
    describes, an alias as what it names, and one symbol in two sources (two versions)
    is one definition."""
    out: dict[str, Chunk] = {}
    for chunk in defined:
        key = chunk.symbol or ""
        if chunk.metadata.chunk_type == "alias":
            key = str(chunk.metadata.extra.get("alias_of", "")) or key
        elif is_stub(chunk):
            runtime = runtime_definition(hub.store, chunk) if len(out) < MAX_CANDIDATES else None
            key = runtime.symbol if runtime is not None and runtime.symbol else key
        out.setdefault(key, chunk)
    return [c for c in out.values() if c.metadata.chunk_type != "alias" or len(out) > 1][
        :MAX_CANDIDATES
    ]


def _ambiguous(
    hub: HubSession, symbol: str, candidates: list[Chunk], source: str | None
) -> DeprecationReport:
    """A short name several definitions carry: no single verdict, each one's instead."""
    answers = []
    for chunk in candidates:
        name = chunk.symbol or symbol
        defined, _ = _definitions(hub, name, source)
        answers.append(_answer(hub, name, source, defined or [chunk]))
    verdicts = {a.deprecated for a in answers}
    return DeprecationReport(
        symbol=symbol,
        deprecated=verdicts.pop() if len(verdicts) == 1 else None,
        candidates=answers,
        checked=list(CHECKED),
        source_notes=list(dict.fromkeys(n for a in answers for n in a.source_notes)),
    )


def replacement_of(record: Deprecation) -> str | None:
    """The record's replacement, or every alternative its note offers ("use `a` or `b`")
    when it names the recorded one among several."""
    offered = find_replacements(record.text)
    if record.replacement and len(offered) > 1 and record.replacement in offered:
        return " or ".join(offered)
    return record.replacement


def _whole_records(hub: HubSession, name: str) -> list[Deprecation]:
    """The records that deprecate `name` itself (not a parameter, not withdrawn)."""
    return [
        d
        for d in hub.store.deprecations(name)
        if d.symbol == name and not d.partial and not is_undeprecation(d)
    ]


def _versions(hub: HubSession, records: list[Deprecation]) -> dict[str, str]:
    """{source: its indexed version} for the sources the records cite."""
    cited = {d.source for d in records} | {s for d in records for s in d.also_in}
    return {s.name: s.version for s in hub.store.sources() if s.name in cited and s.version}


def _constructor_records(hub: HubSession, symbol: str, source: str | None) -> list[Deprecation]:
    """A class's constructor parameters and usages are the class's: `Cls(x=...)` is how
    they are passed (`__init__`, or `__new__` for a class that builds something else).
    A record of the whole constructor is not: `__init__` deprecated whole is recorded
    against the class when it is."""
    return [
        d
        for method in ("__init__", "__new__")
        for d in hub.store.deprecations(f"{symbol}.{method}")
        if d.partial and d.symbol.endswith(f".{method}") and source in (None, d.source)
    ]


def _definitions(hub: HubSession, symbol: str, source: str | None) -> tuple[list[Chunk], str]:
    """The definitions `symbol` names, and how they were found: a member of a class
    reached by another name (`pkg.Client.request` with `pkg.Client` re-exported from
    `pkg._client`) is that class's member; otherwise what `find_symbol` finds, if it
    carries the name asked (never a namesake of another spelling)."""
    store = hub.store
    owner, _, member = symbol.rpartition(".")
    if owner:
        classes = resolve.through_alias(store, *resolve.find_symbol(store, owner, source))[0]
        cls = classes[0] if classes else None
        # `logger.stop` is the instance `logger`'s member (find_symbol, below), never
        # the class `Logger`'s that a bare name's lookup folds it onto by case
        if (
            cls is not None
            and cls.metadata.chunk_type == "class"
            and cls.symbol != owner
            and resolve.spelt_as(cls, owner.rsplit(".", 1)[-1])
        ):
            members = resolve.api_chunks(store, source, symbol=f"{cls.symbol}.{member}")
            if members:
                return members, "exact"
    found, how = resolve.find_symbol(store, symbol, source)
    found = [c for c in found if (c.symbol or "").rsplit(".", 1)[-1] == member]
    return resolve.through_alias(store, found, how)


def _final_replacement(
    hub: HubSession, replacement: str | None, hops: int = 5
) -> tuple[str | None, bool]:
    """Follow a chain of replacements (an alias of a deprecated alias) to its end; and
    whether that end is deprecated itself (a legacy module that points to another)."""
    seen: set[str] = set()
    itself = False
    while replacement and replacement not in seen and hops > 0:
        seen.add(replacement)
        hops -= 1
        said = _whole_records(hub, replacement)
        onward = [d.replacement for d in said if d.replacement and d.origin != "changelog"]
        # deprecated itself, or inside a deprecated module or class (`pkg.legacy.auth`)
        parts = replacement.split(".")
        itself = any(
            _whole_records(hub, prefix)
            or any(c.metadata.deprecated for c in resolve.api_chunks(hub.store, symbol=prefix))
            for prefix in (".".join(parts[:n]) for n in range(len(parts), 1, -1))
        )
        if not onward or onward[0] in seen:
            break
        replacement = onward[0]
    if replacement:  # the name a user imports (`anyio.wait_readable`), not its module's
        public = public_paths(hub.store, [r for r in replacement.split(" or ")])
        replacement = " or ".join(public.get(r, r) for r in replacement.split(" or "))
    return replacement, itself and bool(replacement)
