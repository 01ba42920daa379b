"""A module that warns on import is deprecated, and so is everything in it.

`warnings.warn("pkg.legacy is deprecated; ...", DeprecationWarning)` at the top level of
`pkg/legacy/__init__.py` fires on `import pkg.legacy`, and so on importing any module of
that package: each definition there is deprecated with it. The first pass over the
package (`deprecation_helpers.scan_package`) finds these modules; when a module's file is
read, its top-level definitions each get a record that names the deprecated module and
repeats its note, and its chunks carry the flag (`deprecated_symbols` holds the module).
The module's replacement ("use `pkg.modern` instead") is each member's too, unless the
member names its own (`deprecation_records` merges them so).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ctxhub.core.knowledge import Deprecation
from ctxhub.ingest.python.deprecation_since import statement_since
from ctxhub.ingest.python.deprecation_subjects import sentences
from ctxhub.ingest.python.deprecation_text import find_since, find_subject, says_self_deprecated
from ctxhub.ingest.python.deprecation_warnings import HelperLookup, guarded_warn_sites


@dataclass(frozen=True)
class ModuleDeprecation:
    module: str  # the dotted module that warns on import
    note: str  # its warning's message
    path: str  # the file that warns
    line: int
    since: str | None
    package: bool  # an `__init__`: its submodules are deprecated too
    replacement: str | None = None  # what its note says to use instead


def import_warning(
    body: list[ast.stmt],
    module: str,
    names: frozenset[str],
    lookup: HelperLookup | None,
    lines: list[str],
) -> tuple[str, int, str | None] | None:
    """(message, line, since) of the first top-level warning that deprecates the module
    itself: one that fires on every import (or says the module is deprecated) and names
    none of the module's own members (`find_replacement` reads what it says to use)."""
    for call, message, conditional, _ in guarded_warn_sites(body, view=lookup):
        if not message:
            continue
        subject = next(filter(None, map(find_subject, sentences(message))), None)
        if subject and subject.split(".")[0] in names:
            continue  # "`old_name` is deprecated": about a member, not the module
        if says_self_deprecated(message) or subject == module or not conditional:
            end = call.end_lineno or call.lineno
            since = find_since(message) or statement_since(lines, call.lineno, end)
            return message, call.lineno, since
    return None


def covering(module: str, deprecated: Mapping[str, ModuleDeprecation]) -> ModuleDeprecation | None:
    """The deprecated module `module` is part of: itself, or the nearest package above it
    whose `__init__` warns."""
    if module in deprecated:
        return deprecated[module]
    parts = module.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        found = deprecated.get(".".join(parts[:cut]))
        if found is not None and found.package:
            return found
    return None


def member_note(owner: str, note: str) -> str:
    return f"its module `{owner}` is deprecated: {note}"


def member_records(
    source: str, module: str, members: Iterable[str], deprecation: ModuleDeprecation
) -> list[Deprecation]:
    """One record for the module (when the deprecation is its package's) and one for
    each of its top-level definitions: deprecated with the module, since when it is."""
    names = [] if deprecation.module == module else [module]
    names += [f"{module}.{m}" for m in members]
    note = member_note(deprecation.module, deprecation.note)
    return [
        Deprecation(
            source=source,
            symbol=name,
            since=deprecation.since,
            replacement=deprecation.replacement,
            note=note,
            path=deprecation.path,
            line=deprecation.line,
            origin="module",
        )
        for name in names
    ]


def no_deprecated_target(
    record: Deprecation, module: str, deprecated: Mapping[str, ModuleDeprecation]
) -> Deprecation:
    """A record of `module` whose replacement lives in another deprecated module (`pkg.Old`
    served lazily from `pkg.legacy`) names no replacement: that is no way out. Its note
    says so."""
    target = record.replacement
    if not target:
        return record
    home = covering(target, deprecated) or covering(target.rpartition(".")[0], deprecated)
    if home is None or home == covering(module, deprecated):
        return record
    note = f"{record.note or ''} (`{target}` is deprecated too: its module `{home.module}` is)"
    return record.model_copy(
        update={"replacement": None, "note": note.strip(), "since": record.since or home.since}
    )
