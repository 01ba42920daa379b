"""get_doc on a long page with many sections: a section asked for (or a hit's) gets the
budget before the page's list of sections, and headings written with typographic quotes
and dashes (Sphinx's smartquotes) match what an agent types in ASCII."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.config import Settings
from ctxhub.core.knowledge import ChunkQuery
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.session import HubSession, set_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools import docs_tools
from ctxhub.tools.doc_sections import loose
from ctxhub.tools.run import call

#: The section the tests ask for, written as Sphinx's smartquotes write it.
TARGET = "Don\u2019t Write \u201cEmpty\u201d Revisions \u2013 Ever"
BODY = "Install a hook that drops the revision when nothing changed.\n" * 20


def _page() -> str:
    parts = ["# Recipes\n\nHow-tos for the widget tool.\n"]
    for i in range(30):
        parts.append(f"## Recipe number {i} with a rather long descriptive title\n\nText {i}.\n")
        if i == 12:
            parts.append(f"## {TARGET}\n\n{BODY}")
    return "\n".join(parts)


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    root = tmp_path_factory.mktemp("sections")
    (root / "docs").mkdir()
    (root / "docs" / "recipes.md").write_text(_page())
    home = root / "home"
    embedder = HashingEmbedder(dim=64)
    with SQLiteStore(home / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        spec = SourceSpec(name="d", kind=["docs"], path=str(root / "docs"))
        refresh(store, [spec], home, embedder)
    set_embedder(embedder)
    with HubSession(Settings(home=home)) as h:
        yield h
    set_embedder(None)


def test_loose_matching_folds_typographic_quotes_dashes_markup_and_case() -> None:
    assert loose(TARGET) == loose('don\'t write "EMPTY"  revisions - ever')
    assert loose("Extend `CommandLine` with commands") == loose("extend commandline with commands")


@pytest.mark.parametrize(
    "asked", ['Don\'t Write "Empty" Revisions - Ever', "don't write", "empty revisions ever"]
)
def test_a_section_typed_in_ascii_opens_the_typographic_heading(
    hub: HubSession, asked: str
) -> None:
    page = docs_tools.get_doc(hub, path="recipes", section=asked)
    assert TARGET in page.content and "Recipe number" not in page.content


def test_a_section_asked_for_gets_the_budget_before_the_list_of_sections(
    hub: HubSession,
) -> None:
    answer = call(hub, "get_doc", path="recipes", section="Don't Write", max_tokens=700)
    page = answer.output
    assert isinstance(page, docs_tools.DocPage)
    # the section's text, not the page's thirty headings, fills the budget
    assert page.content.count("drops the revision") >= 5
    assert page.sections_left_out > 0 and len(page.sections) < 31
    # the text says the section first; what did not fit of the list is counted
    text = answer.text
    assert text.index("drops the revision") < text.find("sections") or "sections" not in text
    assert "ask for one section" not in text


def test_a_hit_opened_by_id_on_a_tight_budget_shows_its_text(hub: HubSession) -> None:
    [hit] = [
        c
        for c in hub.store.find_chunks(ChunkQuery(kind="doc", source="d"))
        if c.section and TARGET in c.section
    ]
    page = call(hub, "get_doc", doc_id=hit.id, max_tokens=500).output
    assert isinstance(page, docs_tools.DocPage)
    assert page.section and TARGET in page.section
    assert "drops the revision" in page.content


def test_the_whole_page_still_lists_its_sections_and_starts_its_content(hub: HubSession) -> None:
    page = call(hub, "get_doc", path="recipes", max_tokens=1500).output
    assert isinstance(page, docs_tools.DocPage)
    assert page.sections and "How-tos for the widget tool" in page.content
    whole = docs_tools.get_doc(hub, path="recipes", max_tokens=25000)
    assert not whole.sections_left_out
    assert page.sections == whole.sections[: len(page.sections)]
    assert len(page.sections) + page.sections_left_out == len(whole.sections)
