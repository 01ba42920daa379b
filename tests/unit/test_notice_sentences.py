"""Notices built of several sentences read as sentences: "a. The b", never "a The b"
(a clause without punctuation run into the next one), whichever builder made them."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from ctxhub.core.sentences import join_sentences
from ctxhub.session import HubSession
from ctxhub.tools.search_tools import search, search_docs, search_examples
from tests.unit.package_hub import tree_hub

#: a lower-case word, a space and a capitalised word that opens a sentence
_RUN_ON = re.compile(r"[a-z0-9)'`\]] (?:The|It|They|Pass|Use|Search|Add)\b")

_CODE = '''
class Router:
    """Routes requests."""

    def add_route(self, name, pattern):
        """Add a route called name."""
        return name
'''

_GUIDE = """# Guide

## Serving pages

Serve a page by adding a path pattern to the application and a view for it.
"""


def test_join_sentences_puts_a_full_stop_only_where_one_is_missing() -> None:
    assert join_sentences("nothing is indexed", "The hits are words") == (
        "nothing is indexed. The hits are words"
    )
    assert join_sentences("did you mean a, b?", "The hits") == "did you mean a, b? The hits"
    assert join_sentences("it is done.", "", None, "Then go") == "it is done. Then go"
    assert join_sentences(None, " one ") == "one"
    # a later notice opens a sentence; a code name keeps its spelling
    assert join_sentences("a b", "no example matches") == "a b. No example matches"
    assert join_sentences("a b", "base_class='x' matches") == "a b. base_class='x' matches"
    assert join_sentences() == ""


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    files = {"web/__init__.py": "", "web/routing.py": _CODE, "docs/guide.md": _GUIDE}
    root = tmp_path_factory.mktemp("sentences")
    with tree_hub(root, "web", files, kinds=("python", "docs")) as session:
        yield session


def _notices(hub: HubSession) -> dict[str, str]:
    """Every notice a search tool gives on this hub, by what asked for it."""
    asked = {
        # a name nothing defines, near no indexed name: no "did you mean" before the next
        "no such name": search(hub, "Zyxwvut.qqq_frobnicate"),
        # a name nothing defines, near one that is: "did you mean ...?" then the next
        "near name": search(hub, "Router.add_routes"),
        "no doc mentions": search_docs(hub, "add_route"),
        "no examples": search_examples(hub, "serve a page", source="web"),
    }
    return {what: r.notice or "" for what, r in asked.items()}


def test_every_search_notice_punctuates_between_its_sentences(hub: HubSession) -> None:
    notices = _notices(hub)
    assert all(notices.values()), notices  # each case gives a notice to read
    for what, notice in notices.items():
        assert not _RUN_ON.search(notice), (what, notice)
        assert ".." not in notice.replace("...", ""), (what, notice)
    assert "is indexed. The hits are" in notices["no such name"]
    assert "? The hits are" in notices["near name"]
