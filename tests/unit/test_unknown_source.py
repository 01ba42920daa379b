"""A `source` filter naming no indexed source is a clear bad argument in every tool that
takes one, never an empty answer (tools/source_check.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ctxhub.config import Settings
from ctxhub.core.errors import InputError
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.session import HubSession, set_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools import run

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "corpus"

#: Every knowledge tool with a source filter, with arguments it would otherwise answer.
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("search", {"query": "pipeline"}),
    ("search_docs", {"query": "pipeline"}),
    ("search_api", {"query": "pipeline"}),
    ("search_api", {"query": "", "chunk_type": ["class"]}),
    ("search_examples", {"query": "pipeline"}),
    ("get_code_snippet", {"symbol": "Pipeline"}),
    ("get_doc", {"path": "guides/quickstart"}),
    ("trace_calls", {"symbol": "FrameProcessor.link"}),
    ("check_deprecation", {"symbol": "Pipeline"}),
]


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    home = tmp_path_factory.mktemp("unknown-source")
    embedder = HashingEmbedder(dim=64)
    specs = [
        SourceSpec(name="chime", kind=["python"], path=str(CORPUS / "pkg")),
        SourceSpec(name="chime-docs", kind=["docs"], path=str(CORPUS / "docs")),
    ]
    with SQLiteStore(home / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        refresh(store, specs, home / "sources", embedder)
    set_embedder(embedder)
    with HubSession(Settings(home=home)) as h:
        yield h
    set_embedder(None)


@pytest.mark.parametrize(("tool", "args"), CALLS)
def test_a_misspelt_source_is_refused_with_the_names_close_to_it(
    hub: HubSession, tool: str, args: dict[str, Any]
) -> None:
    with pytest.raises(InputError) as caught:
        run.call(hub, tool, **args, source="chme")
    assert str(caught.value) == "unknown source 'chme'; did you mean chime, chime-docs"
    assert caught.value.exit_code == 2


def test_a_list_of_sources_names_the_unknown_one(hub: HubSession) -> None:
    with pytest.raises(InputError, match="unknown source 'nosuch'; indexed sources: chime, "):
        run.call(hub, "search", query="pipeline", source=["chime", "nosuch"])


def test_known_sources_still_answer(hub: HubSession) -> None:
    assert run.call(hub, "search", query="pipeline", source=["chime", "chime-docs"]).data["hits"]
    assert run.call(hub, "get_code_snippet", symbol="Pipeline", source="chime").data["symbol"]
