"""What a public name stands for by its package's own record: `typer.Option` is
`typer.params.Option` because module `typer` declares or imports it from there.

The symbol path looks names up by the definitions' own qualified names, so a name
spelled as users import it (through a package's re-exports) matches nothing; this
follows the record the Python ingestion keeps on each module chunk (`extra.exports`:
its `__all__` and re-exports; `imports`: its own imports).
"""

from __future__ import annotations

from ctxhub.core.knowledge import ChunkQuery
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
    module, last = name.rsplit(".", 1)
    chunks = store.find_chunks(ChunkQuery(kind="api", symbol=module, chunk_types=("module",)))
    declared = [str(t) for c in chunks for t in c.metadata.extra.get("exports", ())]
    imported = [t for c in chunks for t in c.metadata.imports]
    for recorded in (declared, imported):
        targets = [t for t in dict.fromkeys(recorded) if t.rsplit(".", 1)[-1] == last]
        targets = [t for t in targets if t != name]
        if targets:
            deeper = [d for t in targets for d in recorded_targets(store, t, hops - 1)]
            return list(dict.fromkeys([*targets, *deeper]))
    return []
