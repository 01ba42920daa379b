"""A release question ("What changed in 1.4.0?", a pasted changelog line) searched in
words: the release notes answer it exactly, but their chunks are lookup-only (they crowd
how-to answers when ranked), so the answer says which section holds it and the call
that shows it, get_doc's and the CLI's, and still ranks no changelog chunk."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.core.errors import NotFoundError
from ctxhub.core.knowledge import Chunk, ChunkQuery, SearchResponse
from ctxhub.session import HubSession
from ctxhub.tools.docs_tools import get_doc
from ctxhub.tools.search_tools import search, search_docs
from tests.unit.package_hub import trees_hub

CHANGELOG = """\
Changelog
=========

1.4.0 (2023-05-01)
------------------

- [NEW] Added humanize week granularity translations for Danish, Czech and Slovak.
- [FIX] Parsing of the UTC prefix in timezone strings.

1.3.0 (2023-01-10)
------------------

- [NEW] Added the ``dehumanize`` method, the inverse of ``humanize``.

0.5.1 - 0.5.4
-------------

- [FIX] Case insensitive month match.
"""

ACME = {
    "pyproject.toml": '[project]\nname = "acme"\nversion = "1.4.0"\n',
    "acme/__init__.py": '"""Acme dates."""\n\nfrom acme.dates import humanize\n',
    "acme/dates.py": (
        '"""Dates for humans."""\n\n\ndef humanize(delta, granularity="auto"):\n'
        '    """Say how long ago `delta` was, in words, at a granularity (week, day)."""\n'
        "    return str(delta)\n"
    ),
    "CHANGELOG.rst": CHANGELOG,
    "docs/index.rst": "Acme\n====\n\nAcme makes dates readable.\n",
    "docs/guide.rst": (
        "User guide\n==========\n\nHumanize\n--------\n\nCall ``humanize`` with a week "
        "granularity to say how many weeks ago a date was, in many translations.\n\n"
        "Timezones\n---------\n\nParse timezone strings with a UTC prefix.\n"
    ),
    "docs/releases.rst": "Release History\n===============\n\n.. include:: ../CHANGELOG.rst\n",
}
#: a docs-only source of one page per release (tornado's `docs/releases/v6.0.0.rst`)
WIDGETS = {
    "index.md": "# Widgets\n\nWidgets draw boxes.\n",
    "releases/v6.0.0.md": "# What's new in Widgets 6.0\n\n- Removed `Box.paint`.\n",
    "releases/v5.1.0.md": "# What's new in Widgets 5.1\n\n- Added `Box.fill`.\n",
    "releases/v1.4.0.md": "# What's new in Widgets 1.4\n\n- Added `Box`.\n",
}

#: a library indexed without any release notes (a wheel ships no changelog)
PLAIN = {
    "pyproject.toml": '[project]\nname = "plainlib"\nversion = "0.7.3"\n',
    "plainlib/__init__.py": '"""Plain logging."""\n\n\ndef add(sink):\n    return sink\n',
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    trees = {"acme": ACME, "widgets": WIDGETS, "plainlib": PLAIN}
    kinds = {"acme": (), "widgets": ["docs"], "plainlib": ()}
    with trees_hub(tmp_path_factory.mktemp("relnotes"), trees, kinds) as h:
        yield h


def _calls(notice: str | None) -> str:
    return notice or ""


def _no_changelog_hit(hub: HubSession, response: SearchResponse) -> None:
    chunks = hub.store.get_chunks([h.id for h in response.hits])
    assert chunks and not any(c.lookup_only for c in chunks)


def test_a_version_a_changelog_has_names_its_section_and_the_calls_that_show_it(
    hub: HubSession,
) -> None:
    response = search(hub, "What changed in 1.4.0?")
    notice = _calls(response.notice)
    assert (
        "get_doc(path='docs/releases.rst', section='1.4.0 (2023-05-01)', source='acme')" in notice
    )
    assert "`ctxhub doc docs/releases.rst --section '1.4.0 (2023-05-01)' --source acme`" in notice
    _no_changelog_hit(hub, response)
    # the call as named shows that release's entries, not another's
    page = get_doc(hub, path="docs/releases.rst", section="1.4.0 (2023-05-01)", source="acme")
    assert "humanize week granularity" in page.content and "dehumanize" not in page.content


def test_a_version_is_compared_as_a_release(hub: HubSession) -> None:
    assert "section='1.4.0 (2023-05-01)'" in _calls(search(hub, "new in v1.4").notice)
    assert "section='1.3.0 (2023-01-10)'" in _calls(search_docs(hub, "1.3 release notes").notice)


def test_a_pasted_changelog_line_names_the_release_that_holds_it(hub: HubSession) -> None:
    response = search_docs(hub, "Added humanize week granularity translations for ...")
    assert "section='1.4.0 (2023-05-01)'" in _calls(response.notice)
    _no_changelog_hit(hub, response)


def test_a_release_page_is_named_by_the_version_its_title_holds(hub: HubSession) -> None:
    notice = _calls(search_docs(hub, "what's new in 6.0").notice)
    assert "get_doc(path='releases/v6.0.0.md', section=\"What's new in Widgets 6.0\"" in notice
    assert "releases/v5.1.0.md" not in notice


@pytest.mark.parametrize(
    "query",
    [
        "What changed in 2.0.0?",  # no changelog has that release
        "does acme run on Python 1.4.0",  # an interpreter's version, not a release
        "humanize a date at week granularity",  # a how-to, however close its words
    ],
)
def test_no_notice_where_no_release_section_answers(hub: HubSession, query: str) -> None:
    assert "get_doc(" not in _calls(search(hub, query).notice)


def test_a_source_the_query_names_comes_first(hub: HubSession) -> None:
    for first, second in (("widgets", "acme"), ("acme", "widgets")):
        notice = _calls(search(hub, f"{first} 1.4.0 release notes").notice)
        assert 0 <= notice.index(f"source={first!r}") < notice.index(f"source={second!r}")


def test_the_sources_searched_bound_the_changelogs_named(hub: HubSession) -> None:
    notice = _calls(search(hub, "What changed in 5.1.0?", source="acme").notice)
    assert "get_doc(" not in notice
    notice = _calls(search(hub, "What changed in 1.4.0?", source=["acme"]).notice)
    assert "source='acme'" in notice and "source='widgets'" not in notice


def test_a_question_that_is_no_release_question_reads_no_changelog(
    hub: HubSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one extra read (the lookup-only doc rows) only for a release question."""
    asked: list[ChunkQuery] = []
    find = hub.store.find_chunks

    def spy(query: ChunkQuery) -> list[Chunk]:
        asked.append(query)
        return find(query)

    monkeypatch.setattr(hub.store, "find_chunks", spy)
    search(hub, "humanize a date at week granularity")
    search_docs(hub, "parse timezone strings with a UTC prefix")
    assert not [q for q in asked if q.lookup_only]
    search(hub, "What changed in 1.4.0?")
    assert len([q for q in asked if q.lookup_only]) == 1


def test_a_release_section_is_matched_by_its_whole_version(hub: HubSession) -> None:
    """`--section 1.5.0` is no section of a changelog without 1.5.0, though `0.5.1 - 0.5.4`
    holds the numbers 1, 5 and 0; a version is one word, as a heading writes it."""
    with pytest.raises(NotFoundError, match=r"no section matching '1\.5\.0'"):
        get_doc(hub, path="docs/releases.rst", section="1.5.0", source="acme")
    found = get_doc(hub, path="docs/releases.rst", section="0.5.4", source="acme")
    assert "Case insensitive month match" in found.content
    # the words of a heading in another order still match, a version among them
    found = get_doc(hub, path="docs/releases.rst", section="2023-01-10 1.3.0", source="acme")
    assert "dehumanize" in found.content and "week granularity" not in found.content


def test_a_release_of_a_source_without_release_notes_is_said_to_have_none(
    hub: HubSession,
) -> None:
    """The hits for "what changed in plainlib 0.7.3" are no release notes: the notice
    says none are indexed for it; a source that holds a changelog, if not that
    release's section, gets no such notice."""
    notice = _calls(search(hub, "what changed in plainlib 0.7.3").notice)
    assert "no release notes are indexed for plainlib" in notice
    assert "no release notes" not in _calls(search(hub, "what changed in acme 2.0.0").notice)
    assert "no release notes" not in _calls(search(hub, "plainlib add a sink").notice)
