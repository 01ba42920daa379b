"""check_deprecation: whether a symbol is deprecated, since when, and what replaces it."""

from __future__ import annotations

from ctxhub.core.errors import InputError
from ctxhub.core.knowledge import Chunk, Deprecation
from ctxhub.core.outputs import DeprecationReport
from ctxhub.search.reexports import public_paths
from ctxhub.search.stubs import runtime_definition
from ctxhub.session import HubSession
from ctxhub.tools import resolve
from ctxhub.tools.deprecation_docs import DocDeprecation, docs_deprecations
from ctxhub.tools.deprecation_names import is_removal, names_it
from ctxhub.tools.nearest import nearest_names
from ctxhub.tools.source_check import check_sources

#: Where ctxhub reads deprecations (ingest/python/deprecations.py, deprecation_helpers.py,
#: changelog.py; tools/deprecation_docs.py at query time).
CHECKED = (
    "DeprecationWarning/FutureWarning calls in its code",
    "the package's deprecation helpers (functions that emit such a warning), at their call sites",
    "@deprecated decorators",
    "docstring notes (.. deprecated::, Deprecated:), attribute docstrings included",
    "module-level aliases of renamed names",
    "the sources' changelogs",
    "the indexed docs (deprecation admonitions and 'is deprecated' sentences naming it)",
)


def check_deprecation(hub: HubSession, symbol: str, source: str | None = None) -> DeprecationReport:
    symbol = symbol.strip()
    if not symbol:
        raise InputError("symbol must not be empty")
    check_sources(hub.store, source)
    entries = [d for d in hub.store.deprecations(symbol) if source is None or d.source == source]
    entries += _constructor_records(hub, symbol, source)
    # Another name of a definition (an alias `s = attrs`, a re-export `pkg.Option`, a type
    # stub) answers as the definition that runs does: its records count too.
    defined = _definitions(hub, symbol, source)
    runtime = runtime_definition(hub.store, defined[0]) if defined else None
    if runtime is not None:
        defined = [runtime, *defined]
    if defined and defined[0].symbol and defined[0].symbol != symbol:
        known = {(d.symbol, d.path, d.line, d.note) for d in entries}
        entries += [
            d
            for d in [
                *hub.store.deprecations(defined[0].symbol),
                *_constructor_records(hub, defined[0].symbol, source),
            ]
            if d.symbol in (defined[0].symbol, f"{defined[0].symbol}.__init__")
            and source in (None, d.source)
            and (d.symbol, d.path, d.line, d.note) not in known
        ]
    if not defined:
        # A name defined nowhere: only a record that names it (a changelog's removal, a
        # deprecated alias) answers; one about a namesake (`get` for `a.Session.get`)
        # does not.
        entries = [d for d in entries if names_it(d.symbol, symbol)]
    low = symbol.lower()

    def rank(d: Deprecation) -> tuple[bool, bool, bool]:
        # code over changelog prose; whole-symbol records over parameter notes; then the
        # record whose name is closest to what was asked
        named = d.symbol.lower() == low or d.symbol.lower().endswith("." + low)
        return (d.origin == "changelog", d.partial, not named)

    entries.sort(key=rank)
    flagged = [c for c in defined[:1] if c.metadata.deprecated]
    parameters = [d for d in entries if d.partial]
    if parameters and not flagged and len(parameters) == len(entries):
        # Only parameters (or usages) are deprecated: the symbol itself stays current.
        return DeprecationReport(symbol=symbol, deprecated=False, parameters=parameters)
    if not entries and not flagged:
        # an undefined name must be named whole past its modules (`Event.clear`, not
        # any `clear`)
        stated = docs_deprecations(hub.store, symbol, source=source, whole=not defined)
        if stated:
            return _docs_report(symbol, stated, found=bool(defined))
        if not defined:
            return DeprecationReport(
                symbol=symbol,
                deprecated=False,
                found=False,
                did_you_mean=nearest_names(hub, symbol, source),
            )
        return DeprecationReport(symbol=symbol, deprecated=False, checked=list(CHECKED))
    first = entries[0] if entries else None
    location = None
    if first is not None and first.path:
        location = f"{first.source}:{first.path}" + (f":{first.line}" if first.line else "")
    elif flagged:
        c = flagged[0]
        location = f"{c.source}:{c.path}:{c.line_start}"
    replacement = next((d.replacement for d in entries if d.replacement), None)
    removals = [d for d in entries if is_removal(d)]
    notices = [d for d in entries if not is_removal(d)]
    return DeprecationReport(
        symbol=symbol,
        deprecated=True,
        replacement=_final_replacement(hub, replacement),
        since=next((d.since for d in notices if d.since), None),
        removed_in=next((d.since for d in removals if d.since), None) if removals else None,
        removed=bool(removals),
        note=first.note if first else None,
        location=location,
        entries=entries[:20],
        parameters=parameters,
        evidence="changelog" if first is not None and first.origin == "changelog" else "code",
    )


def _docs_report(symbol: str, stated: list[DocDeprecation], *, found: bool) -> DeprecationReport:
    """Deprecated by the docs' word only: cited by page and lines, marked as such."""
    first = stated[0]
    entries = [
        Deprecation(
            source=d.source,
            symbol=symbol,
            replacement=d.replacement,
            since=d.since,
            note=d.text,
            path=d.path,
            line=d.line_start,
            origin="docs",
        )
        for d in stated
    ]
    return DeprecationReport(
        symbol=symbol,
        deprecated=True,
        replacement=first.replacement,
        since=next((d.since for d in stated if d.since), None),
        note=first.text,
        location=f"{first.source}:{first.where}",
        entries=entries,
        found=found,
        evidence="docs",
    )


def _constructor_records(hub: HubSession, symbol: str, source: str | None) -> list[Deprecation]:
    """A class's constructor parameters are the class's: `Cls(x=...)` is how they are
    passed (`__init__`, or `__new__` for a class that builds something else)."""
    return [
        d
        for method in ("__init__", "__new__")
        for d in hub.store.deprecations(f"{symbol}.{method}")
        if d.parameter and d.symbol.endswith(f".{method}") and source in (None, d.source)
    ]


def _definitions(hub: HubSession, symbol: str, source: str | None) -> list[Chunk]:
    """The definitions `symbol` names: a member of a class reached by another name
    (`pkg.Client.request` with `pkg.Client` re-exported from `pkg._client`) is that
    class's member; otherwise what `find_symbol` finds, if it carries the name asked
    (never a namesake of another spelling)."""
    store = hub.store
    owner, _, member = symbol.rpartition(".")
    if owner:
        classes = resolve.through_alias(store, *resolve.find_symbol(store, owner, source))[0]
        cls = classes[0] if classes else None
        if cls is not None and cls.metadata.chunk_type == "class" and cls.symbol != owner:
            members = resolve.api_chunks(store, source, symbol=f"{cls.symbol}.{member}")
            if members:
                return members
    found, how = resolve.find_symbol(store, symbol, source)
    found = [c for c in found if (c.symbol or "").rsplit(".", 1)[-1] == member]
    return resolve.through_alias(store, found, how)[0]


def _final_replacement(hub: HubSession, replacement: str | None, hops: int = 5) -> str | None:
    """Follow a chain of replacements (an alias of a deprecated alias) to its end."""
    seen: set[str] = set()
    while replacement and replacement not in seen and hops > 0:
        seen.add(replacement)
        hops -= 1
        onward = [
            d.replacement
            for d in hub.store.deprecations(replacement)
            if d.symbol == replacement
            and d.replacement
            and d.origin != "changelog"
            and not d.partial
        ]
        if not onward:
            break
        replacement = onward[0]
    if replacement:  # the name a user imports (`anyio.wait_readable`), not its module's
        return public_paths(hub.store, [replacement]).get(replacement, replacement)
    return replacement
