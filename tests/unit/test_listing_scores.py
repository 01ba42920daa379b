"""A structural listing of `search_api` (filters, no query) ranks nothing: its rows carry
no relevance score, neither in the text (no fake `score 0.00`) nor in the JSON (`null`),
while the rows a query ranked keep theirs."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from ctxhub.core.knowledge import SearchResponse
from ctxhub.session import HubSession
from ctxhub.tools.run import call
from tests.unit.package_hub import tree_hub

LOCKS = '''
class Condition:
    """Wait until notified by another coroutine."""

    def wait(self):
        """Wait for a notification."""


class Event:
    """A flag coroutines wait on until it is set."""


class Semaphore:
    """A counter of releases."""


class Lock:
    """A mutex for coroutines."""
'''


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    root = tmp_path_factory.mktemp("listing")
    with tree_hub(root, "acme", {"acme/__init__.py": "", "acme/locks.py": LOCKS}) as session:
        yield session


def test_a_listing_without_a_query_has_no_scores(hub: HubSession) -> None:
    first = call(hub, "search_api", module="acme.locks", chunk_type="class", limit=2)
    assert isinstance(first.output, SearchResponse)
    assert first.output.total == 4 and first.output.next_cursor
    assert [h.score for h in first.output.hits] == [None, None]
    assert "score" not in first.text
    page = call(
        hub,
        "search_api",
        module="acme.locks",
        chunk_type="class",
        limit=2,
        cursor=first.output.next_cursor,
    )
    assert isinstance(page.output, SearchResponse)
    assert [h.score for h in page.output.hits] == [None, None]
    assert all(h["score"] is None for h in json.loads(page.output.model_dump_json())["hits"])
    assert "score" not in page.text


def test_rows_a_query_ranked_keep_their_scores(hub: HubSession) -> None:
    found = call(hub, "search_api", query="wait notification", module="acme.locks", limit=10)
    assert isinstance(found.output, SearchResponse)
    ranked = [h for h in found.output.hits if h.signals]
    assert ranked and all(h.score is not None and h.score > 0 for h in ranked)
    assert all(h.score is None for h in found.output.hits if not h.signals)
    assert f"(score {ranked[0].score:.2f})" in found.text
