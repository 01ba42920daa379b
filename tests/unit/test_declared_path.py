"""The `declared` retrieval path: for a question about using the framework through
search_api, dense search over the declared API alone (a public module's `__all__`, a
package's re-exports), so the class a user imports is a candidate even when dozens of
internals share more of the question's words."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.core.knowledge import SearchFilters, SearchRequest
from ctxhub.search.retriever import ALL_PATHS, SearchOptions
from ctxhub.session import HubSession
from ctxhub.tools import search_tools
from tests.unit.package_hub import package_hub

QUESTION = "send the email after the response is sent to the client"

#: Sixty private helpers that say the question's words over and over: both the BM25 and
#: the dense path fill their 50 places with them.
INTERNALS = "\n".join(
    f'''
def _send_response_part_{i}(client, email):
    """Send the response part {i} to the client, then send the email part {i}: send,
    response, client, email, sent after sent."""
    return client.send(email, {i})
'''
    for i in range(60)
)

FILES = {
    "__init__.py": 'from shop.tasks import BackgroundTask\n\n__all__ = ["BackgroundTask"]\n',
    "tasks.py": '''
        class BackgroundTask:
            """A container for a function that is called once a response finishes."""

            def __init__(self, fn):
                self.fn = fn
        ''',
    "_wire.py": INTERNALS,
}

TASK = "shop.tasks.BackgroundTask"


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with package_hub(tmp_path_factory.mktemp("declared-home"), "shop", FILES) as h:
        yield h


def _symbols(hub: HubSession, query: str, **options: object) -> dict[str, dict[str, object]]:
    request = SearchRequest(query=query, kinds=["api"], limit=100)
    response = hub.retriever.search(request, SearchOptions(**options))  # type: ignore[arg-type]
    return {h.symbol or "": {p: s.rank for p, s in h.signals.items()} for h in response.hits}


def test_the_store_filter_keeps_only_declared_definitions(hub: HubSession) -> None:
    declared = SearchFilters(declared_only=True)
    vector = hub.retriever.embed_query(QUESTION)
    found = hub.store.dense(vector, declared, ["api"], 50)
    chunks = hub.store.get_chunks([cid for cid, _ in found])
    assert [c.symbol for c in chunks] == [TASK]


def test_a_usage_question_finds_the_declared_class_the_other_paths_miss(hub: HubSession) -> None:
    with_path = _symbols(hub, QUESTION, public_first=True)
    assert with_path[TASK].get("declared") == 1
    assert "bm25" not in with_path[TASK] and "dense" not in with_path[TASK]
    without = [p for p in ALL_PATHS if p != "declared"]
    assert TASK not in _symbols(hub, QUESTION, public_first=True, paths=without)
    # the tool a user calls runs it
    hits = search_tools.search_api(hub, QUESTION, limit=100, max_tokens=25_000).hits
    assert TASK in [h.symbol for h in hits]


@pytest.mark.parametrize(
    ("query", "public_first"),
    [
        (QUESTION, False),  # plain search: every kind of answer competes, no API preference
        ("how does shop send the email after the response is sent internally", True),
        ("RuntimeError: email not sent after the response to the client", True),
    ],
)
def test_the_path_runs_only_for_usage_questions_asking_for_api(
    hub: HubSession, query: str, public_first: bool
) -> None:
    found = _symbols(hub, query, public_first=public_first)
    assert not any("declared" in signals for signals in found.values())
