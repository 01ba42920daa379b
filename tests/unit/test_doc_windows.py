"""A doc chunk holds up to 512 tokens and the model reads 256: the text past its first
~1,400 characters is seen through window vectors under the page title and breadcrumb,
so a question answered at the end of a long window finds it (huey's "Storage Options":
`RedisExpireHuey`, which stores results with an expiry, is past the first 1,400
characters of its 2,191; the section's second window, which only names it, won)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxhub.core.knowledge import SearchFilters, SearchRequest
from ctxhub.ingest.docs.chunks import chunk_doc_file
from ctxhub.search.retriever import SearchOptions
from tests.unit.package_hub import tree_hub

_FILLER = "\n\n".join(
    f"The queue backend number {i} keeps pending work in a list and polls it, blocking"
    f" on pop; backend {i} suits busy deployments with several consumers."
    for i in range(10)
)
_TAIL = "\n\n".join(
    ["The expiring backend: a stored result expires after its time to live."] * 3
    + ["Every stored result gets a time to live, and an unread result expires."] * 3
)
_OTHER = "A result is read once through its handle, then it is gone."


def _markdown() -> str:
    return f"# Guide\n\nIntro.\n\n## Storage\n\n{_FILLER}\n\n{_TAIL}\n\n## Results\n\n{_OTHER}\n"


def _rst() -> str:
    return (
        f"Guide\n=====\n\nIntro.\n\nStorage\n-------\n\n{_FILLER}\n\n{_TAIL}\n\n"
        f"Results\n-------\n\n{_OTHER}\n"
    )


@pytest.mark.parametrize("name, text", [("guide.md", _markdown()), ("guide.rst", _rst())])
def test_a_long_doc_chunk_gets_windows_under_its_breadcrumb(name: str, text: str) -> None:
    chunks = chunk_doc_file("docs", name, text)
    storage = next(c for c in chunks if c.section == "Guide > Storage")
    assert len(storage.content) > 1400 and _TAIL not in storage.embed_text
    assert storage.embed_windows
    assert all(w.startswith("Guide > Storage\n") for w in storage.embed_windows)
    assert storage.content.rstrip().endswith(storage.embed_windows[-1].split("\n")[-1])
    results = next(c for c in chunks if c.section == "Guide > Results")
    assert results.embed_windows == []  # short: its own vector sees all of it


@pytest.mark.parametrize("name, text", [("guide.md", _markdown()), ("guide.rst", _rst())])
def test_dense_finds_the_answer_at_the_end_of_a_long_window(
    tmp_path: Path, name: str, text: str
) -> None:
    with tree_hub(tmp_path, "q", {f"docs/{name}": text}, kinds=("docs",)) as hub:
        request = SearchRequest(
            query="stored result expire time to live",
            kinds=["doc"],
            filters=SearchFilters(source=["q"]),
        )
        ranking = hub.retriever.rank(request, SearchOptions(paths=("dense",), collapse=False))
    top = ranking.candidates[0].chunk
    assert top.section == "Guide > Storage", [c.chunk.section for c in ranking.candidates]


@pytest.mark.parametrize("kinds", [None, ["doc", "api"]])
def test_doc_windows_count_only_when_docs_are_all_that_is_asked(
    tmp_path: Path, kinds: list[str] | None
) -> None:
    """Where docs compete with code (`search`), a long page's windows would give it more
    vectors to match than the code a pasted error is raised by (docs/RETRIEVAL.md)."""
    with tree_hub(tmp_path, "q", {"docs/guide.md": _markdown()}, kinds=("docs",)) as hub:
        request = SearchRequest(
            query="stored result expire time to live",
            kinds=kinds,  # type: ignore[arg-type]
            filters=SearchFilters(source=["q"]),
        )
        ranking = hub.retriever.rank(request, SearchOptions(paths=("dense",), collapse=False))
    mixed = ranking.candidates[0].chunk.section
    with tree_hub(tmp_path / "again", "q", {"docs/guide.md": _markdown()}, kinds=("docs",)) as hub:
        docs_only = SearchRequest(
            query="stored result expire time to live",
            kinds=["doc"],
            filters=SearchFilters(source=["q"]),
        )
        lifted = hub.retriever.rank(docs_only, SearchOptions(paths=("dense",), collapse=False))
    assert lifted.candidates[0].chunk.section == "Guide > Storage"
    assert mixed != "Guide > Storage"  # its own vector, without the windows, is not first
