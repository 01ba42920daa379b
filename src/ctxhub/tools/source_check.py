"""A `source` filter naming a source the hub does not hold is a bad argument, not a
silent empty answer: the tools taking one check it here first."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from ctxhub.core.errors import InputError, shown
from ctxhub.store.protocol import Store

#: Most source names an error lists when none is spelled close to the one asked.
_LISTED = 10


def check_sources(store: Store, source: str | Sequence[str] | None) -> None:
    """InputError (`unknown source 'jinj2'; did you mean jinja2, jinja2-docs`) for the
    first name in `source` that the store holds nothing under; nothing for None."""
    wanted = [source] if isinstance(source, str) else list(source or ())
    if not wanted:
        return
    known = {s.name for s in store.sources()}  # one row per source: cheap on every call
    missing = [w for w in wanted if w not in known]
    if not missing:
        return
    known |= set(store.counts())  # chunks written without a source row (an import)
    missing = [w for w in missing if w not in known]
    if not missing:
        return
    names = sorted(known)
    close = difflib.get_close_matches(missing[0], names, n=3, cutoff=0.6)
    # a close name's siblings too (`jinja2` -> `jinja2-docs`): one project's sources
    family = {n for n in names for c in close if n == c or n.startswith((f"{c}-", f"{c}_"))}
    close = sorted(family)[:_LISTED]
    if close:
        hint = "; did you mean " + ", ".join(close)
    elif names:
        more = ", ..." if len(names) > _LISTED else ""
        hint = "; indexed sources: " + ", ".join(names[:_LISTED]) + more
    else:
        hint = "; nothing is indexed yet (ctxhub add)"
    raise InputError(f"unknown source {shown(missing[0])}{hint}")
