"""search_examples answers with the examples that match the question first, even where
docs pages share more of its words (they used to take every slot); the slots left go to
examples and docs ranked together, each docs page marked `supplement` (JSON metadata
and text); a question no example matches ranks both together, docs still marked, and
says so."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.core.knowledge import SearchRequest, SearchResponse
from ctxhub.search import examples_first as examples_first_module
from ctxhub.search.examples_first import NO_EXAMPLE_MATCHES, examples_first
from ctxhub.search.rank import Candidate
from ctxhub.search.retriever import Ranking, SearchOptions
from ctxhub.session import HubSession
from ctxhub.tools.run import call
from tests.conftest import make_chunk
from tests.unit.package_hub import tree_hub

#: More pages than a retrieval path fetches (OVERFETCH), each saying the question's
#: words more densely than the example does: ranked in one pool, they took every slot.
PAGES = 60


def _page(i: int) -> str:
    return (
        f"# Periodic task schedules {i}\n\n"
        "A periodic task runs on a crontab schedule: the periodic task decorator takes "
        "the crontab schedule.\n"
    )


FILES = {
    **{f"docs/periodic_{i}.md": _page(i) for i in range(PAGES)},
    "docs/storage.md": "# Storage\n\nResults are kept in a sqlite file or in redis.\n",
    "examples/cron_jobs/README.md": "# Cron jobs\n\nJobs that run every few minutes.\n",
    # the example that does what is asked, its words among code that says other things
    "examples/cron_jobs/tasks.py": (
        '"""Periodic task example: a crontab schedule runs the periodic task."""\n'
        "from acme import crontab, periodic_task\n\n\n"
        "@periodic_task(crontab(minute='*/5'))\n"
        "def every_five_minutes(queue, results, logger):\n"
        "    for item in queue.pending():\n"
        "        results.store(item.key, item.run())\n"
        '        logger.info("ran %s", item.key)\n'
    ),
    "examples/web_app/app.py": (
        '"""A web app that enqueues work from a request handler."""\n'
        "from acme import task\n\n\n"
        "@task()\n"
        "def send_mail(to):\n"
        '    print("mail to", to)\n'
    ),
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    root = tmp_path_factory.mktemp("examples-first")
    with tree_hub(root, "acme", FILES, kinds=()) as session:
        yield session


def _search(hub: HubSession, query: str, limit: int = 3) -> tuple[SearchResponse, str]:
    answer = call(hub, "search_examples", query=query, limit=limit)
    assert isinstance(answer.output, SearchResponse)
    return answer.output, answer.text


def test_the_matching_example_leads_and_docs_follow_marked(hub: HubSession) -> None:
    found, text = _search(hub, "periodic task crontab schedule")
    kinds = [h.kind for h in found.hits]
    assert kinds[0] == "example" and found.hits[0].path.startswith("examples/cron_jobs/")
    # the example leads; docs pages only follow it, in the slots left
    assert "doc" in kinds and kinds.index("doc") > 0
    docs = [h for h in found.hits if h.kind == "doc"]
    assert docs and all(h.metadata.get("supplement") is True for h in docs)
    assert not any(h.metadata.get("supplement") for h in found.hits if h.kind == "example")
    assert "[doc, supplement]" in text and "[example] " in text
    assert found.notice is None


def test_no_matching_example_ranks_both_and_says_so(hub: HubSession) -> None:
    found, text = _search(hub, "redis sqlite results storage")
    docs = [h for h in found.hits if h.kind == "doc"]
    assert docs and all(h.metadata.get("supplement") for h in docs)
    assert found.notice == NO_EXAMPLE_MATCHES and NO_EXAMPLE_MATCHES in text


def test_an_example_only_filter_returns_examples_alone(hub: HubSession) -> None:
    found, _ = _search(hub, "periodic task crontab schedule", limit=5)
    narrowed = call(
        hub, "search_examples", query="periodic task crontab schedule", language="python"
    ).output
    assert isinstance(narrowed, SearchResponse)
    assert narrowed.hits and {h.kind for h in narrowed.hits} == {"example"}
    assert any(h.kind == "doc" for h in found.hits)


def _cand(path: str, section: str, score: float, ordinal: int, kind: str = "doc") -> Candidate:
    chunk = make_chunk("acme", path, None, f"{section} text", kind=kind, ordinal=ordinal)  # type: ignore[arg-type]
    return Candidate(chunk=chunk.model_copy(update={"section": section}), fused=score, signals={})


class _Rankings:
    """A retriever that ranks the examples alone, or examples and docs together."""

    def __init__(self, examples: list[Candidate], both: list[Candidate]) -> None:
        self.examples, self.both = examples, both

    def rank(self, request: SearchRequest, options: SearchOptions) -> Ranking:
        found = self.examples if request.kinds == ["example"] else self.both
        return Ranking(analysis=None, candidates=found, norm=1.0, confidence=0.9)  # type: ignore[arg-type]


def test_supplement_pages_list_only_the_sections_above_the_last_hit_shown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A docs page's other sections are listed when they would have been hits but for
    their page (docs/RETRIEVAL.md), after the examples as in every search tool."""
    example = _cand("examples/cron/tasks.py", "", 1.0, 0, kind="example")
    guide = _cand("docs/guide.md", "Guide > Cookies", 0.9, 1)
    above = _cand("docs/guide.md", "Guide > Forgery", 0.85, 2)
    below = _cand("docs/guide.md", "Guide > Templates", 0.1, 3)
    guide.on_page = [above, below]
    other, third = _cand("docs/other.md", "Other", 0.8, 4), _cand("docs/third.md", "T", 0.5, 5)
    retriever = _Rankings([example], [example, guide, other, third])
    monkeypatch.setattr(examples_first_module, "matching_examples", lambda r: r.candidates)
    request = SearchRequest(query="q", kinds=["example", "doc"], limit=3, max_tokens=4000)
    answer = examples_first(retriever, request, SearchOptions())  # type: ignore[arg-type]
    assert answer is not None
    assert [h.path for h in answer.hits] == [
        "examples/cron/tasks.py",
        "docs/guide.md",
        "docs/other.md",
    ]
    listed = answer.hits[1].metadata.get("also_on_page", [])
    assert [e["section"] for e in listed] == ["Guide > Forgery"]
