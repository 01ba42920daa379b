"""search_api's `base_class` filter past the store's match by last name.

The store matches a class's bases by their last part (`Connection` admits subclasses of
every class of that name). A qualified name asks for one class: the subclasses whose
base is that class (resolved as tools/hierarchy.py resolves it: the base their module
binds, through re-exports), or, for a class no source indexes (`httpx.Client`), those
whose base is bound to that name. A bare name keeps every match, and when the matches
derive from several classes of that name, says which.
"""

from __future__ import annotations

from dataclasses import dataclass

from ctxhub.core.knowledge import Chunk
from ctxhub.store.protocol import Store
from ctxhub.tools import hierarchy, resolve

#: Subclasses whose bases are resolved to tell a bare name's classes apart.
MAX_CLASSIFIED = 300
#: Classes named in the notice at most.
MAX_NAMED = 6


@dataclass(frozen=True)
class BaseMatch:
    """The chunk ids the filter keeps (None: every one the store admitted), and a notice
    for the answer (None: nothing to say)."""

    keep: set[str] | None
    notice: str | None


def _cleaned(name: str) -> str:
    return name.strip().strip("`").removesuffix("()")


def _bases_named(store: Store, chunk: Chunk, last: str) -> list[hierarchy.Base]:
    """The chunk's bases whose last part is `last`, resolved."""
    return [
        hierarchy.resolve_base(store, chunk, i)
        for i, written in enumerate(chunk.metadata.bases)
        if written.split("[", 1)[0].rsplit(".", 1)[-1] == last
    ]


def match_bases(store: Store, base_class: str, chunks: list[Chunk]) -> BaseMatch:
    """Which of `chunks` (what the store's last-part match admitted) derive from the
    class `base_class` names (see the module docstring)."""
    name = _cleaned(base_class)
    last = name.rsplit(".", 1)[-1]
    if "." in name:
        found, _ = resolve.find_symbol(store, name)
        targets = {c.symbol for c in found if c.metadata.chunk_type == "class" and c.symbol}
        keep: set[str] = set()
        for chunk in chunks:
            bound = {
                hierarchy.qualified_base(chunk, i) for i in range(len(chunk.metadata.bases))
            } | set(chunk.metadata.bases)
            if name in bound or any(
                b.cls is not None and b.cls.symbol in targets
                for b in _bases_named(store, chunk, last)
            ):
                keep.add(chunk.id)
        return BaseMatch(keep, None)
    classes: dict[str, None] = {}
    for chunk in chunks[:MAX_CLASSIFIED]:
        for base in _bases_named(store, chunk, last):
            if base.cls is not None and base.cls.symbol:
                classes.setdefault(base.cls.symbol, None)
    if len(classes) < 2:
        return BaseMatch(None, None)
    named = sorted(classes)
    shown = ", ".join(named[:MAX_NAMED]) + (", ..." if len(named) > MAX_NAMED else "")
    return BaseMatch(
        None,
        f"base_class={name!r} matches by last name the subclasses of {len(named)} classes:"
        f" {shown}; pass a qualified name (base_class={named[0]!r}) for one of them",
    )
