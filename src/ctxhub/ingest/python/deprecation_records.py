"""A module's deprecation records as the index keeps them: the whole records that
deprecate one symbol merged into one, and a parameter's bare notes dropped where another
record tells of that parameter (deprecation_finder.py collects them)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ctxhub.core.knowledge import Deprecation

# When two records deprecate one symbol, the first origin here supplies note and line.
# A module-level `deprecated('name', 'message')` call (`call`) says it as plainly as a
# decorator: its words before an alias's generic note (`x = x` of a deprecated name).
_ORIGIN_RANK = {"decorator": 0, "call": 0, "alias": 1, "warn": 2, "docstring": 3, "module": 4}


@dataclass
class CodeDeprecations:
    records: list[Deprecation] = field(default_factory=list)
    symbols: set[str] = field(default_factory=set)  # deprecated as a whole


def code_deprecations(
    full: dict[str, list[Deprecation]], partial: list[Deprecation], bare: list[Deprecation]
) -> CodeDeprecations:
    """`full`: symbol -> its whole records; `partial`: records about a parameter, `bare`
    among them (notes that only name the parameter)."""
    out = CodeDeprecations()
    for symbol, records in full.items():
        out.records.append(merged(records))
        out.symbols.add(symbol)
    out.records.extend(_one_per_parameter(_without_bare_notes(partial, bare)))
    out.records.sort(key=lambda r: (r.line or 0, r.symbol))
    return out


def _without_bare_notes(partial: list[Deprecation], bare: list[Deprecation]) -> list[Deprecation]:
    """The partial records, less each bare note (only the parameter's name) about a
    parameter another record tells of; the version it gave goes to those records."""
    told: dict[tuple[str, str | None], list[Deprecation]] = {}
    for record in partial:
        if all(record is not b for b in bare):
            told.setdefault((record.symbol, record.parameter), []).append(record)
    since = {
        (b.symbol, b.parameter): b.since
        for b in bare
        if b.since and (b.symbol, b.parameter) in told
    }
    out = []
    for record in partial:
        key = (record.symbol, record.parameter)
        if any(record is b for b in bare):
            if key not in told:
                out.append(record)
        elif record.since is None and key in since:
            out.append(record.model_copy(update={"since": since[key]}))
        else:
            out.append(record)
    return out


def _one_per_parameter(partial: list[Deprecation]) -> list[Deprecation]:
    """One docstring record per parameter of a symbol: a docstring that tells of one
    parameter twice (a top-level note naming it and a note under its entry) is one
    deprecation. A warning about it stays a record of its own, dated by the docstring's
    version when it states none. Usage records stay as they are."""
    groups: dict[tuple[str, str], list[Deprecation]] = {}
    for record in partial:
        if record.parameter is not None:
            groups.setdefault((record.symbol, record.parameter), []).append(record)
    out: list[Deprecation] = []
    for record in partial:
        if record.parameter is None:
            out.append(record)
            continue
        group = groups[(record.symbol, record.parameter)]
        since = record.since or next((r.since for r in group if r.since), None)
        if record.origin != "docstring":
            out.append(record.model_copy(update={"since": since}))
            continue
        told = [r for r in group if r.origin == "docstring"]
        if told[0] is record:
            one = merged(told) if len(told) > 1 else record
            out.append(one.model_copy(update={"since": one.since or since}))
    return out


def merged(records: list[Deprecation]) -> Deprecation:
    """One record per symbol: the strongest origin's note, the most qualified replacement
    of its own (its deprecated module's, `origin` module, only when it names none), the
    first since."""
    ranked = sorted(
        records, key=lambda r: (_ORIGIN_RANK.get(r.origin, 9), r.since is None, -len(r.note or ""))
    )
    best = ranked[0]
    replacements = [r.replacement for r in ranked if r.replacement and r.origin != "module"]
    replacements = replacements or [r.replacement for r in ranked if r.replacement]
    since = next((r.since for r in ranked if r.since), None)
    replacement = max(replacements, key=lambda r: r.count(".")) if replacements else None
    return best.model_copy(update={"replacement": replacement, "since": since})
