"""A name spelled as users import it (`fw.Option`, re-exported by package `fw` from
`fw.params`) is found by the symbol path through the package's recorded re-exports."""

from __future__ import annotations

import pytest

from ctxhub.core.knowledge import SearchRequest
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.search.reexports import recorded_targets
from ctxhub.search.retriever import Retriever
from ctxhub.store.sqlite.store import SQLiteStore
from tests.conftest import embed_all, make_chunk


@pytest.fixture
def retriever(store: SQLiteStore, embedder: HashingEmbedder) -> Retriever:
    package = make_chunk(
        "fw",
        "fw/__init__.py",
        "fw",
        "from .params import Option",
        chunk_type="module",
        extra={"exports": ["fw.params.Option"]},
    )
    api = make_chunk(
        "fw",
        "fw/api.py",
        "fw.api",
        "from .params import Argument",
        chunk_type="module",
        imports=["fw.params.Argument"],
    )
    store.replace_file("fw", "fw/__init__.py", [package])
    store.replace_file("fw", "fw/api.py", [api])
    store.replace_file(
        "fw",
        "fw/params.py",
        [
            make_chunk(
                "fw",
                "fw/params.py",
                f"fw.params.{name}",
                f"def {name}(default): ...",
                ordinal=i,
                chunk_type="function",
            )
            for i, name in enumerate(("Option", "Argument"))
        ],
    )
    store.replace_file(  # a namesake word elsewhere that BM25 and dense also find
        "other",
        "other/optional.py",
        [
            make_chunk(
                "other",
                "other/optional.py",
                "other.converters.optional",
                "def optional(converter): option converter",
                chunk_type="function",
            )
        ],
    )
    return Retriever(store, embed_all(store, embedder))


def test_a_re_exported_name_leads_through_the_symbol_path(retriever: Retriever) -> None:
    hits = retriever.search(SearchRequest(query="fw.Option", kinds=["api"])).hits
    assert hits[0].symbol == "fw.params.Option"
    assert hits[0].signals["symbol"].rank == 1


def test_a_module_s_own_imports_count_when_it_declares_nothing(retriever: Retriever) -> None:
    hits = retriever.search(SearchRequest(query="fw.api.Argument", kinds=["api"])).hits
    assert hits[0].symbol == "fw.params.Argument"


def test_recorded_targets(store: SQLiteStore, retriever: Retriever) -> None:
    assert recorded_targets(store, "fw.Option") == ["fw.params.Option"]
    assert recorded_targets(store, "fw.Missing") == []
    assert recorded_targets(store, "Option") == []  # no module to read
    assert recorded_targets(store, "nowhere.Option") == []
