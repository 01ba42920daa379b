"""Which sources exist, from any folder: the manifests this folder sees, and every source
the store has indexed (each refresh records the manifest that defines it and its entry).

The store is one per user; manifests are per project. A source indexed from another
project is still in the store, still searchable, and `sources`, `refresh NAME` and
`remove NAME` reach it from anywhere through what the store recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from ctxhub.sources.base import SourceSpec
from ctxhub.sources.manifest import effective_sources, read_manifest
from ctxhub.store.protocol import HubStore, SourceState


@dataclass(frozen=True)
class KnownSource:
    name: str
    #: the entry to refresh it with (None: indexed by a ctxhub that did not record it)
    spec: SourceSpec | None
    #: "here": a manifest this folder reads; "elsewhere": only the store knows it
    where: str
    state: SourceState | None


def _recorded(state: SourceState) -> SourceSpec | None:
    """The entry the store recorded at the source's last refresh (None before this
    ctxhub recorded it, or if it no longer validates)."""
    entry = state.stats.get("spec")
    if not isinstance(entry, dict):
        return None
    try:
        spec = SourceSpec.model_validate(entry)
    except ValidationError:
        return None
    return spec.model_copy(update={"manifest": state.stats.get("manifest")})


def known_sources(store: HubStore, home: Path, cwd: Path | None = None) -> list[KnownSource]:
    """This folder's manifest sources first (in their order), then the store's others."""
    states = {s.name: s for s in store.sources()}
    out = [KnownSource(s.name, s, "here", states.get(s.name)) for s in effective_sources(home, cwd)]
    seen = {k.name for k in out}
    for name, state in sorted(states.items()):
        if name not in seen:
            out.append(KnownSource(name, _recorded(state), "elsewhere", state))
    return out


def defined_in(spec: SourceSpec | None) -> str:
    """Where a source is written down: its manifest, or that no manifest holds it now."""
    if spec is not None and spec.manifest and Path(spec.manifest).is_file():
        held = read_manifest(Path(spec.manifest)).get(spec.name)
        if held is not None:
            return f"defined in {spec.manifest}"
    return "in no ctxhub.toml (still searchable; `ctxhub remove` deletes it)"
