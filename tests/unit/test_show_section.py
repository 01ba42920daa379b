"""`ctxhub show ID` of a doc chunk prints exactly that chunk's section: from its heading
(even when the chunk is a later window of a long section) to its end, never the
section after it or the sections below it; and get_doc by a hit's id, on a page too
long for the budget, answers with that same section."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.config import Settings
from ctxhub.core.knowledge import Chunk, ChunkQuery
from ctxhub.core.outputs import DocPage
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.session import HubSession, set_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools.run import call
from tests.unit.cli_runner import run

LONG = "\n\n".join(
    f"Retry rule {i}: a failed task is queued again after {i} seconds." for i in range(120)
)


def _guide() -> str:
    return "\n".join(
        [
            "# Guide\n\nThe guide's introduction.\n",
            "## Scheduling\n\nScheduling text before retries.\n",
            f"## Retrying tasks\n\n{LONG}\n",
            "### Retry delays\n\nThe subsection below retries.\n",
            "## Task priority\n\nPriority text after retries.\n",
        ]
    )


SHORT = (
    "# Tips\n\nThe tips' introduction.\n\n"
    "## First tip\n\nFirst tip text.\n\n## Second tip\n\nSecond tip text.\n"
)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("show")
    (root / "docs").mkdir()
    (root / "docs" / "guide.md").write_text(_guide())
    (root / "docs" / "tips.md").write_text(SHORT)
    (root / "store").mkdir()
    embedder = HashingEmbedder(dim=64)
    with SQLiteStore(root / "store" / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        spec = SourceSpec(name="d", kind=["docs"], path=str(root / "docs"))
        refresh(store, [spec], root / "sources", embedder)
    set_embedder(embedder)
    yield root
    set_embedder(None)


def _chunks(home: Path, path: str, section: str) -> list[Chunk]:
    with HubSession(Settings(home=home / "store")) as hub:
        found = hub.store.find_chunks(ChunkQuery(kind="doc", source="d", path=path))
    return sorted((c for c in found if c.section == section), key=lambda c: c.line_start or 0)


def test_show_of_a_later_window_prints_its_whole_section_and_nothing_after(home: Path) -> None:
    windows = _chunks(home, "guide.md", "Guide > Retrying tasks")
    assert len(windows) >= 3  # the section is long enough to be split
    shown = run(home, "show", windows[-2].id).output
    assert "## Retrying tasks" in shown
    assert "Retry rule 0:" in shown and "Retry rule 119:" in shown
    for elsewhere in ("introduction", "Scheduling text", "subsection below", "Priority text"):
        assert elsewhere not in shown, shown


def test_show_of_a_short_page_prints_only_the_chunks_section(home: Path) -> None:
    [first] = _chunks(home, "tips.md", "Tips > First tip")
    shown = run(home, "show", first.id).output
    assert "First tip text." in shown
    assert "Second tip text." not in shown
    # --section still opens whatever it names
    both = run(home, "show", first.id, "--section", "tip").output
    assert "First tip text." in both and "Second tip text." in both


def test_get_doc_by_id_on_a_long_page_answers_with_the_hits_section(home: Path) -> None:
    windows = _chunks(home, "guide.md", "Guide > Retrying tasks")
    with HubSession(Settings(home=home / "store")) as hub:
        page = call(hub, "get_doc", doc_id=windows[1].id, max_tokens=2000).output
    assert isinstance(page, DocPage)
    assert page.section == "Guide > Retrying tasks"
    assert page.content.startswith("## Retrying tasks")
    assert "Priority text" not in page.content and "subsection below" not in page.content
