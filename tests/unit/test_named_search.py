"""A query that is one name has its definition first: a public path a package
re-exports through a star import (`sw.Client`, defined as `sw._client.Client`), and a
bare capitalised name that names one class (`Client`), though the class's methods carry
the name in their text as often as it does."""

from __future__ import annotations

import pytest

from ctxhub.core.knowledge import SearchFilters, SearchRequest
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.search.analyzer import analyze
from ctxhub.search.named import named_definitions
from ctxhub.search.reexports import recorded_targets
from ctxhub.search.retriever import Retriever
from ctxhub.store.sqlite.store import SQLiteStore
from tests.conftest import embed_all, make_chunk

METHODS = ("head", "get", "close", "send")
#: the class's text is mostly about what it holds; its methods repeat its name
CLIENT_DOC = (
    "class Client: sends requests. Holds the connection pool, timeouts, cookies, headers,"
    " redirect rules and authentication settings shared by every request it sends."
)


@pytest.fixture
def retriever(store: SQLiteStore, embedder: HashingEmbedder) -> Retriever:
    # `from ._client import *` with `__all__ = ["Client"]`: the package records the name
    # as its own, and the star-imported module among its imports and its star imports
    package = make_chunk(
        "sw",
        "sw/__init__.py",
        "sw",
        "from ._client import *\nfrom ._transports import *",
        chunk_type="module",
        imports=["sw._client", "sw._transports"],
        extra={
            "exports": ["sw.Client", "sw.Transport"],
            "star_imports": ["sw._client", "sw._transports"],
        },
    )
    transports = make_chunk(
        "sw",
        "sw/_transports/__init__.py",
        "sw._transports",
        "from .default import *",
        chunk_type="module",
        imports=["sw._transports.default"],
        extra={"star_imports": ["sw._transports.default"]},
    )
    store.replace_file("sw", "sw/__init__.py", [package])
    store.replace_file("sw", "sw/_transports/__init__.py", [transports])
    store.replace_file(
        "sw",
        "sw/_transports/default.py",
        [
            make_chunk("sw", "sw/_transports/default.py", "sw._transports.default", "",
                       chunk_type="module"),
            make_chunk("sw", "sw/_transports/default.py", "sw._transports.default.Transport",
                       "class Transport: sends requests", ordinal=1, chunk_type="class"),
        ],
    )  # fmt: skip
    client = [
        make_chunk("sw", "sw/_client.py", "sw._client", "", chunk_type="module"),
        make_chunk("sw", "sw/_client.py", "sw._client.Client", CLIENT_DOC,
                   ordinal=1, chunk_type="class"),
    ]  # fmt: skip
    client += [
        make_chunk(
            "sw",
            "sw/_client.py",
            f"sw._client.Client.{m}",
            f"def {m}(self): the Client sends with the client Client client",
            ordinal=2 + i,
            chunk_type="method",
            class_name="Client",
        )
        for i, m in enumerate(METHODS)
    ]
    store.replace_file("sw", "sw/_client.py", client)
    # two classes called `Table`: a bare `Table` names neither alone
    store.replace_file(
        "tb",
        "tb/tables.py",
        [
            make_chunk("tb", "tb/tables.py", f"tb.tables.{owner}.Table", "class Table: rows",
                       ordinal=i, chunk_type="class")
            for i, owner in enumerate(("Html", "Text"))
        ],
    )  # fmt: skip
    return Retriever(store, embed_all(store, embedder))


def test_a_star_imported_public_name_leads(retriever: Retriever) -> None:
    hits = retriever.search(SearchRequest(query="sw.Client")).hits
    assert hits[0].symbol == "sw._client.Client"
    assert hits[0].signals["symbol"].rank == 1


def test_star_imports_are_followed_through_a_package(
    store: SQLiteStore, retriever: Retriever
) -> None:
    assert recorded_targets(store, "sw.Transport") == ["sw._transports.default.Transport"]
    assert recorded_targets(store, "sw.Missing") == []
    # an imported module holds the name, a method of a class of that name does not count
    assert recorded_targets(store, "sw.head") == []


@pytest.mark.parametrize("query", ["Client", "`Client`", "Client()"])
def test_a_bare_class_name_leads(retriever: Retriever, query: str) -> None:
    hits = retriever.search(SearchRequest(query=query)).hits
    assert hits[0].symbol == "sw._client.Client"


def test_a_bare_name_of_several_classes_names_none(
    store: SQLiteStore, retriever: Retriever
) -> None:
    analysis = analyze("Table")
    assert named_definitions(store, analysis, SearchFilters(), None) == []
    only_tb = SearchFilters(source=["sw"])
    assert named_definitions(store, analyze("Client"), only_tb, None) == ["sw._client.Client"]
    assert named_definitions(store, analyze("Client"), SearchFilters(source=["tb"]), None) == []


def test_a_question_is_no_name() -> None:
    assert analyze("httpx.Client").is_name
    assert analyze("`Table`").is_name
    assert not analyze("how do I close a Client").is_name
    assert not analyze("sw.Client(timeout=1)").is_name


def test_a_bare_lowercase_word_naming_one_module_asks_for_that_module(
    store: SQLiteStore, retriever: Retriever
) -> None:
    """`sandbox` alone is the module `jinja2.sandbox` when one module has that name: its
    overview, which lists what it defines, answers before a helper class beside it."""
    module = ["sw._transports.default"]
    assert named_definitions(store, analyze("default"), SearchFilters(), None) == module
    assert named_definitions(store, analyze("`default`"), SearchFilters(), None) == module
    assert named_definitions(store, analyze("default"), SearchFilters(source=["tb"]), None) == []
    assert named_definitions(store, analyze("pool"), SearchFilters(), None) == []  # no module
    # the last part as written: `transports` is not the private `_transports`
    assert named_definitions(store, analyze("transports"), SearchFilters(), None) == []
    hits = retriever.search(SearchRequest(query="default")).hits
    assert hits[0].symbol == "sw._transports.default"
