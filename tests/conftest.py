"""Shared fixtures: a temporary store, chunk factories, the hashing embedder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from ctxhub.core.knowledge import Chunk, ChunkKind, ChunkMeta, chunk_id
from ctxhub.store.sqlite.store import SQLiteStore

if TYPE_CHECKING:
    from ctxhub.embed.hashing import HashingEmbedder


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    s = SQLiteStore(tmp_path / "ctxhub.db")
    yield s
    s.close()


@pytest.fixture
def embedder() -> HashingEmbedder:
    from ctxhub.embed.hashing import HashingEmbedder

    return HashingEmbedder(dim=256)


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write `files` (relative path -> text) under `root`, folders made; returns `root`."""
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def make_chunk(
    source: str = "src",
    path: str = "pkg/mod.py",
    symbol: str | None = None,
    content: str = "",
    kind: ChunkKind = "api",
    ordinal: int = 0,
    version: str | None = None,
    **meta: object,
) -> Chunk:
    title = symbol.rsplit(".", 1)[-1] if symbol else path
    return Chunk(
        id=chunk_id(source, path, symbol, ordinal),
        source=source,
        kind=kind,
        path=path,
        symbol=symbol,
        title=title,
        content=content or f"def {title}(): pass",
        embed_text=f"{symbol or path}\n{content}",
        line_start=1,
        line_end=max(1, content.count("\n") + 1),
        version=version,
        metadata=ChunkMeta.model_validate(meta),
    )


def embed_all(store: SQLiteStore, embedder: HashingEmbedder) -> HashingEmbedder:
    """Bind `store` to `embedder` and embed every text it holds (up to 100); returns the
    embedder, for a retriever over the store."""
    store.bind_model(embedder.id, embedder.dim)
    missing = store.missing_embeddings(embedder.id, 100)
    store.put_embeddings(
        embedder.id,
        list(zip([h for h, _ in missing], embedder.embed([t for _, t in missing]), strict=True)),
    )
    return embedder
