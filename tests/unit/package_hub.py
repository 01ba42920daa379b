"""A hub over one small Python package the test writes: its files under src/<package>
(chunk paths read `src/<package>/...`), indexed by a real refresh with the hashing
embedder, for the tools that read a package's definitions, re-exports and calls."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from ctxhub.config import Settings
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.session import HubSession, set_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore


@contextmanager
def package_hub(root: Path, package: str, files: Mapping[str, str]) -> Iterator[HubSession]:
    """`files` (paths inside the package, texts dedented; an empty `__init__.py` unless
    given) as source `package`, in a hub under `root`."""
    folder = root / "src" / package
    folder.mkdir(parents=True)
    for name, text in {"__init__.py": "", **files}.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text))
    with _indexed(root / "home", SourceSpec(name=package, kind=["python"], path=str(root))) as hub:
        yield hub


@contextmanager
def tree_hub(
    root: Path, source: str, files: Mapping[str, str], kinds: Sequence[str] = ("python",)
) -> Iterator[HubSession]:
    """`files` (paths below the source's folder, packages included: `pkg/mod.py`; texts
    as given) as source `source`, whose folder is `root/src` (chunk paths read
    `pkg/mod.py`), in a hub under `root`; `kinds` empty: detected, as for a folder."""
    folder = root / "src"
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    spec = SourceSpec(name=source, kind=list(kinds), path=str(folder))
    with _indexed(root / "home", spec) as hub:
        yield hub


@contextmanager
def trees_hub(
    root: Path,
    trees: Mapping[str, Mapping[str, str]],
    kinds: Mapping[str, Sequence[str]] | None = None,
) -> Iterator[HubSession]:
    """Several sources in one hub, as tree_hub makes one: `trees` maps each source's
    name to its files (below its folder `root/<name>`); `kinds` each source's kinds
    (default python)."""
    specs = []
    for source, files in trees.items():
        folder = root / source
        for rel, text in files.items():
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_text(text)
        kind = list((kinds or {}).get(source, ("python",)))
        specs.append(SourceSpec(name=source, kind=kind, path=str(folder)))
    with _indexed(root / "home", *specs) as hub:
        yield hub


@contextmanager
def _indexed(home: Path, *specs: SourceSpec) -> Iterator[HubSession]:
    """A hub at `home` holding `specs`, indexed by a real refresh with the hashing embedder."""
    embedder = HashingEmbedder(dim=64)
    with SQLiteStore(home / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        refresh(store, list(specs), home / "sources", embedder)
    set_embedder(embedder)
    try:
        with HubSession(Settings(home=home)) as hub:
            yield hub
    finally:
        set_embedder(None)
