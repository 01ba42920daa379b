"""`ctxhub refresh --reembed` end to end through the CLI: records and chunks get the new
model's vectors, and the old model's cached embeddings go once every source refreshed."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from ctxhub.cli.main import cli
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.session import set_embedder

OLD, NEW = HashingEmbedder(dim=256), HashingEmbedder(dim=128)


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text("# Guide\n\nRetry the websocket with backoff.\n")
    yield tmp_path
    set_embedder(None)


def run(home: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, list(args), env={"CTXHUB_HOME": str(home / "store")})
    assert result.exit_code == 0, result.output
    return result.output


def models(home: Path, table: str) -> set[str]:
    with sqlite3.connect(home / "store" / "ctxhub.db") as conn:
        return {r[0] for r in conn.execute(f"SELECT DISTINCT model FROM {table}")}


def test_reembed_switches_every_vector_and_drops_the_old_cache(home: Path) -> None:
    set_embedder(OLD)
    run(home, "add", str(home / "docs"), "--name", "guide")
    run(home, "log", "--problem", "websocket drops after a minute", "--solution", "send pings")
    assert models(home, "embeddings") == {OLD.id} == models(home, "record_vectors")

    set_embedder(NEW)
    run(home, "refresh", "--reembed")
    assert models(home, "embeddings") == {NEW.id} == models(home, "record_vectors")
    assert "websocket" in run(home, "recall", "websocket drops")
