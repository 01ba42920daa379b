"""Every `def` is a chunk of its own, however short: a two-line constructor and an
abstract `pass` are what snippets, call graphs, `super()` chains and member listings
point at. A trivial one is lookup-only: reached by name or structure, a search hit only
for a query that is its name (core/knowledge.LOOKUP_ONLY)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.config import Settings
from ctxhub.core.knowledge import ChunkQuery
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.session import HubSession, set_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools import code_tools, search_tools, trace_tools

SOURCE = '''"""Retry strategies."""

import abc


class retry_base(abc.ABC):
    """Abstract base class for retry strategies."""

    @abc.abstractmethod
    def __call__(self, state):
        pass


class retry_if_exception(retry_base):
    """Retry strategy that retries if an exception verifies a predicate."""

    def __init__(self, predicate):
        self.predicate = predicate

    def __call__(self, state):
        if state.outcome.failed:
            exception = state.outcome.exception()
            return self.predicate(exception)
        return False


class retry_if_exception_type(retry_if_exception):
    """Retries if an exception has been raised of one or more types."""

    def __init__(self, exception_types=Exception):
        self.exception_types = exception_types
        super().__init__(lambda e: isinstance(e, exception_types))


class retry_unless_exception_type(retry_if_exception):
    """Retries until an exception is raised of one or more types."""

    def __init__(self, exception_types=Exception):
        self.exception_types = exception_types
        super().__init__(lambda e: not isinstance(e, exception_types))
'''

INIT = "tn.retry.retry_if_exception.__init__"
ABSTRACT = "tn.retry.retry_base.__call__"


def test_trivial_defs_are_lookup_only_chunks() -> None:
    out = extract_python_file("tn", "tn/retry.py", SOURCE, version=None, internal_packages={"tn"})
    chunks = {c.symbol: c for c in out.chunks}
    assert "self.predicate = predicate" in chunks[INIT].content
    assert "pass" in chunks[ABSTRACT].content
    assert chunks[INIT].lookup_only and chunks[ABSTRACT].lookup_only
    # a short def that calls something ranks on its text, as before
    assert not chunks["tn.retry.retry_if_exception_type.__init__"].lookup_only
    assert not chunks["tn.retry.retry_if_exception.__call__"].lookup_only


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    root = tmp_path_factory.mktemp("tn-src")
    (root / "tn").mkdir()
    (root / "tn" / "__init__.py").write_text("")
    (root / "tn" / "retry.py").write_text(SOURCE)
    home = tmp_path_factory.mktemp("tn-home")
    embedder = HashingEmbedder(dim=256)
    with SQLiteStore(home / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        spec = SourceSpec(name="tn", kind=["python"], path=str(root))
        refresh(store, [spec], home / "sources", embedder)
    set_embedder(embedder)
    with HubSession(Settings(home=home)) as h:
        yield h
    set_embedder(None)


def _lookup_only_ids(hub: HubSession) -> set[str]:
    return {c.id for c in hub.store.find_chunks(ChunkQuery(source="tn")) if c.lookup_only}


def test_a_trivial_constructor_and_an_abstract_pass_have_snippets(hub: HubSession) -> None:
    init = code_tools.get_code_snippet(hub, symbol="retry_if_exception.__init__")
    assert init.symbol == INIT and "self.predicate = predicate" in init.code
    abstract = code_tools.get_code_snippet(hub, symbol=ABSTRACT)
    assert abstract.symbol == ABSTRACT and "pass" in abstract.code


def test_super_init_callers_of_a_trivial_constructor(hub: HubSession) -> None:
    trace = trace_tools.trace_calls(hub, INIT, direction="callers")
    callers = {n.symbol for n in trace.nodes}
    assert {
        "tn.retry.retry_if_exception_type.__init__",
        "tn.retry.retry_unless_exception_type.__init__",
    } <= callers


def test_a_class_listing_holds_its_trivial_methods(hub: HubSession) -> None:
    listed = search_tools.search_api(hub, class_name="retry_if_exception", limit=20)
    symbols = {h.symbol for h in listed.hits}
    assert {INIT, "tn.retry.retry_if_exception.__call__"} <= symbols


@pytest.mark.parametrize(
    "query",
    [
        "self predicate = predicate",  # its own words
        "abstract retry strategy call pass",
        "how does retry_if_exception keep its predicate",  # a question naming it
    ],
)
def test_a_search_in_words_never_returns_a_lookup_only_chunk(hub: HubSession, query: str) -> None:
    trivial = _lookup_only_ids(hub)
    assert len(trivial) == 2
    for found in (
        search_tools.search(hub, query=query, limit=20),
        search_tools.search_api(hub, query=query, limit=20),
    ):
        assert found.hits and not {h.id for h in found.hits} & trivial


@pytest.mark.parametrize(
    ("query", "symbol"),
    [(INIT, INIT), ("retry_if_exception.__init__", INIT), ("retry_base.__call__", None)],
)
def test_a_query_that_is_its_name_answers_with_a_lookup_only_chunk(
    hub: HubSession, query: str, symbol: str | None
) -> None:
    # asked for by name, the trivial definition is the answer (not a namesake's)
    wanted = symbol or "tn.retry.retry_base.__call__"
    for found in (
        search_tools.search(hub, query=query, limit=5),
        search_tools.search_api(hub, query=query, limit=5),
    ):
        assert found.hits[0].symbol == wanted
        assert found.hits[0].id in _lookup_only_ids(hub)


def test_status_counts_lookup_only_chunks_apart(hub: HubSession) -> None:
    from ctxhub.tools.hub_status import hub_status
    from ctxhub.tools.render_status import hub_status as render_status

    status = hub_status(hub.store, stale_days=30)
    per_source = sum(sum(s.chunks.values()) for s in status.sources)
    assert status.chunks == per_source  # every chunk, as the sources count them
    assert status.lookup_only == len(_lookup_only_ids(hub)) > 0
    assert status.embedded <= status.chunks - status.lookup_only
    assert f"{status.lookup_only} lookup-only" in render_status(status)
