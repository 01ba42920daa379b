"""What a public name stands for by its package's own record: `typer.Option` is
`typer.params.Option` because module `typer` declares or imports it from there.

The symbol path looks names up by the definitions' own qualified names, so a name
spelled as users import it (through a package's re-exports) matches nothing; this
follows the record the Python ingestion keeps on each module chunk (`extra.exports`:
its `__all__` and re-exports; `imports`: its own imports).
"""

from __future__ import annotations

from collections.abc import Sequence

from ctxhub.core.knowledge import Chunk, ChunkQuery
from ctxhub.store.protocol import Store

#: Re-exports followed through at most this many modules (`pkg` -> `pkg.api` -> ...).
MAX_HOPS = 3


def recorded_targets(store: Store, name: str, hops: int = MAX_HOPS) -> list[str]:
    """Qualified names `pkg.mod.Name` stands for by what module `pkg.mod` recorded: its
    declared API first, else its imports; [] for an undotted name or a module that is
    not indexed or records no such name. Targets that are themselves re-exports are
    followed (`hops` modules deep) and kept as well: the caller looks each one up."""
    if "." not in name or hops <= 0:
        return []
    module = name.rsplit(".", 1)[0]
    chunks = store.find_chunks(ChunkQuery(kind="api", symbol=module, chunk_types=("module",)))
    for targets in recorded_as(chunks, name):
        if targets:
            deeper = [d for t in targets for d in recorded_targets(store, t, hops - 1)]
            return list(dict.fromkeys([*targets, *deeper]))
    return []


def recorded_as(modules: Sequence[Chunk], name: str) -> tuple[list[str], list[str]]:
    """What the module chunks of `name`'s module record under `name`'s last part: the
    qualified names it declares (`extra.exports`), and those it imports, each in order
    and once, `name` itself left out. Read the declared ones first: a module's imports
    include what it only uses."""
    last = name.rsplit(".", 1)[-1]
    declared = [str(t) for m in modules for t in m.metadata.extra.get("exports", ())]
    imported = [t for m in modules for t in m.metadata.imports]

    def named(recorded: list[str]) -> list[str]:
        return [t for t in dict.fromkeys(recorded) if t.rsplit(".", 1)[-1] == last and t != name]

    return named(declared), named(imported)
