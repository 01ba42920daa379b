"""Dashboard fixtures: the test corpus and records of scripts/dashboard_seed.py (shared
with the screenshots script) indexed with the hashing embedder through the same refresh
use case as `ctxhub refresh`, the dashboard app on it, and an empty hub."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from scripts.dashboard_seed import seed

from ctxhub.config import Settings
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.session import set_embedder


@pytest.fixture(autouse=True)
def hashing_embedder() -> Iterator[HashingEmbedder]:
    """The process-wide embedder is the hashing one (no model to load)."""
    embedder = HashingEmbedder(dim=256)
    set_embedder(embedder)
    yield embedder
    set_embedder(None)


def index(home: Path, db: str | None = None) -> Settings:
    """The corpus and records of scripts/dashboard_seed.py in the store of `home` (or
    `db`, a PostgreSQL URL)."""
    home.mkdir(parents=True, exist_ok=True)
    settings = Settings(home=home, db=db)
    summary = seed(settings)
    assert all(s.status == "ok" for s in summary.sources), summary
    return settings


@pytest.fixture
def indexed(tmp_path: Path, hashing_embedder: HashingEmbedder) -> Settings:
    return index(tmp_path / "home")


@pytest.fixture
def empty(tmp_path: Path, hashing_embedder: HashingEmbedder) -> Settings:
    home = tmp_path / "empty"
    home.mkdir()
    return Settings(home=home)
