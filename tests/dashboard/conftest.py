"""Dashboard fixtures: the test corpus indexed with the hashing embedder through the same
refresh use case as `ctxhub refresh`, the dashboard app on it, and an empty hub."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.app.refresh import refresh_index
from ctxhub.config import Settings
from ctxhub.core.records import RecordInput
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.memory.records.log import log_solution
from ctxhub.session import HubSession, set_embedder
from ctxhub.sources.base import SourceSpec

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "corpus"
SPECS = [
    SourceSpec(name="chime", kind=["python"], path=str(CORPUS / "pkg")),
    SourceSpec(name="chime-docs", kind=["docs"], path=str(CORPUS / "docs")),
    SourceSpec(name="chime-examples", kind=["examples"], path=str(CORPUS / "examples")),
]
RECORDS = [
    RecordInput(
        problem="ConnectionResetError when the chime websocket reconnects",
        solution="raise the ping interval to 20 seconds",
        error_type="ConnectionResetError",
        language="python",
        framework="chime",
        tags=["websocket", "network"],
    ),
    RecordInput(
        problem="pip install chime fails behind a proxy",
        solution="set HTTPS_PROXY before running pip",
        language="python",
        tags=["pip"],
    ),
]


@pytest.fixture(autouse=True)
def hashing_embedder() -> Iterator[HashingEmbedder]:
    """The process-wide embedder is the hashing one (no model to load)."""
    embedder = HashingEmbedder(dim=256)
    set_embedder(embedder)
    yield embedder
    set_embedder(None)


def index(home: Path, db: str | None = None) -> Settings:
    """The corpus and RECORDS in the store of `home` (or `db`, a PostgreSQL URL)."""
    home.mkdir(parents=True, exist_ok=True)
    settings = Settings(home=home, db=db)
    summary = refresh_index(settings, SPECS)
    assert all(s.status == "ok" for s in summary.sources), summary
    with HubSession(settings) as hub:
        for record in RECORDS:
            log_solution(hub, record)
    return settings


@pytest.fixture
def indexed(tmp_path: Path, hashing_embedder: HashingEmbedder) -> Settings:
    return index(tmp_path / "home")


@pytest.fixture
def empty(tmp_path: Path, hashing_embedder: HashingEmbedder) -> Settings:
    home = tmp_path / "empty"
    home.mkdir()
    return Settings(home=home)
