"""A long doc page answers several questions: its hit lists the page's other sections
that rank among the hits (search/collapse.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxhub.core.knowledge import Hit
from ctxhub.search.collapse import collapse, page_sections
from ctxhub.search.rank import Candidate
from ctxhub.tools.render import render_hit
from ctxhub.tools.search_tools import search_docs
from tests.conftest import make_chunk
from tests.unit.package_hub import tree_hub


def _doc(path: str, section: str, score: float, ordinal: int) -> Candidate:
    chunk = make_chunk(
        "docs", path, None, f"{section} text {ordinal}", kind="doc", ordinal=ordinal
    ).model_copy(update={"section": f"Guide > {section}", "title": "Guide"})
    return Candidate(chunk=chunk, fused=score, signals={})


def test_a_pages_other_sections_are_listed_with_its_hit() -> None:
    hit = _doc("guide.md", "Cookies", 1.0, 0)
    same_section = _doc("guide.md", "Cookies", 0.99, 1)  # another window of it
    other = _doc("guide.md", "Forgery", 0.9, 2)
    page = _doc("other.md", "Intro", 0.8, 3)
    low = _doc("guide.md", "Templates", 0.5, 4)
    out = collapse([hit, same_section, other, page, low])
    assert out == [hit, page]
    # one entry per section, best first; the hit's own section is not listed again
    assert hit.on_page == [other, low]
    listed = page_sections(hit, floor=0.8)
    assert [e["section"] for e in listed] == ["Guide > Forgery"]
    assert listed[0]["id"] == other.chunk.id


def test_a_page_gives_one_hit_however_close_its_other_sections_score() -> None:
    """A near tie stays listed, not shown: a page's second hit took the place of another
    page the question needed (docs/EVAL.md)."""
    hit = _doc("guide.md", "Cookies", 1.0, 0)
    tie = _doc("guide.md", "Forgery", 0.999, 1)
    page = _doc("other.md", "Intro", 0.5, 2)
    assert collapse([hit, tie, page]) == [hit, page]
    assert hit.on_page == [tie]


def test_the_listed_sections_are_rendered_with_ids_to_open() -> None:
    hit = Hit(
        id="a" * 16,
        kind="doc",
        source="docs",
        path="guide.md",
        title="Guide",
        section="Guide > Cookies",
        line_start=3,
        line_end=9,
        score=1.0,
        metadata={
            "also_on_page": [
                {"id": "b" * 16, "section": "Guide > Forgery", "line_start": 11, "line_end": 20}
            ]
        },
    )
    text = render_hit(1, hit)
    assert f"also on this page: Forgery (id {'b' * 16}, lines 11-20)" in text


_MARKDOWN = """# Guide

Intro to the toolkit and its handlers.

## Signed cookies

Call set_signed_cookie to store a value the browser cannot forge: the cookie is
signed with the cookie_secret setting and read back with get_signed_cookie.

## Forgery protection

Turn on xsrf_cookies: every form then carries a token that must match the xsrf
cookie, and a request without it is rejected.

## Templates

Templates render pages with expressions and blocks.
"""

_RST = """Guide
=====

Intro to the toolkit and its handlers.

Signed cookies
--------------

Call ``set_signed_cookie`` to store a value the browser cannot forge: the cookie is
signed with the ``cookie_secret`` setting and read back with ``get_signed_cookie``.

Forgery protection
------------------

Turn on ``xsrf_cookies``: every form then carries a token that must match the xsrf
cookie, and a request without it is rejected.

Templates
---------

Templates render pages with expressions and blocks.
"""


@pytest.mark.parametrize("name, text", [("guide.md", _MARKDOWN), ("guide.rst", _RST)])
def test_search_docs_shows_every_section_of_a_page_that_answers(
    tmp_path: Path, name: str, text: str
) -> None:
    files = {f"docs/{name}": text, "docs/other.md": "# Other\n\nDeployment behind a proxy.\n"}
    with tree_hub(tmp_path, "web", files, kinds=("docs",)) as hub:
        response = search_docs(hub, "signed cookie xsrf cookie", limit=5)
    page = [h for h in response.hits if h.path == f"docs/{name}"]
    seen = {h.section for h in page} | {
        e["section"] for h in page for e in h.metadata.get("also_on_page", [])
    }
    # both sections answer; before, the page gave one and the other was thrown away
    assert {"Guide > Signed cookies", "Guide > Forgery protection"} <= seen
    assert "Guide > Templates" not in {h.section for h in page}
