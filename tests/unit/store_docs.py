"""A folder of docs pages to index, and the embedder, for the store damage and
read-only tests."""

from __future__ import annotations

from pathlib import Path

from ctxhub.embed.hashing import HashingEmbedder

EMBEDDER = HashingEmbedder(dim=64)
PAGES = 30


def write_docs(root: Path, n: int = PAGES) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        body = " ".join(f"watchdog{i} frame pipeline task{j}" for j in range(60))
        (root / f"page{i}.md").write_text(f"# Page {i}\n\nThe idle watchdog {i}.\n\n{body}\n")
    return root
