"""check_deprecation: whether a symbol is deprecated, since when, and what replaces it."""

from __future__ import annotations

from ctxhub.core.errors import InputError
from ctxhub.core.knowledge import Deprecation
from ctxhub.core.outputs import DeprecationReport
from ctxhub.search.reexports import public_paths
from ctxhub.search.stubs import runtime_definition
from ctxhub.session import HubSession
from ctxhub.tools import resolve
from ctxhub.tools.deprecation_docs import DocDeprecation, docs_deprecations
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
    # A class's constructor parameters are the class's: `Cls(x=...)` is how they are passed.
    entries += [
        d
        for d in hub.store.deprecations(f"{symbol}.__init__")
        if d.parameter and d.symbol.endswith(".__init__") and source in (None, d.source)
    ]
    # Another name of a definition (an alias `s = attrs`, a re-export `pkg.Option`, a type
    # stub) answers as the definition that runs does: its records count too.
    defined = resolve.through_alias(hub.store, *resolve.find_symbol(hub.store, symbol, source))[0]
    runtime = runtime_definition(hub.store, defined[0]) if defined else None
    if runtime is not None:
        defined = [runtime, *defined]
    if defined and defined[0].symbol and defined[0].symbol != symbol:
        known = {(d.symbol, d.path, d.line, d.note) for d in entries}
        entries += [
            d
            for d in hub.store.deprecations(defined[0].symbol)
            if d.symbol == defined[0].symbol
            and source in (None, d.source)
            and (d.symbol, d.path, d.line, d.note) not in known
        ]
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
        stated = docs_deprecations(hub.store, symbol, source=source)
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
    removals = [d for d in entries if _is_removal(d)]
    notices = [d for d in entries if not _is_removal(d)]
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


def _is_removal(d: Deprecation) -> bool:
    """A changelog's "Removed" entry: the name is gone in that version, not deprecated."""
    head = (d.note or "").lower()[:40]
    return d.origin == "changelog" and "remov" in head and "deprecat" not in head


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
