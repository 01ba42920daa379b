"""A release history shown through a docs page that includes it (cattrs' `docs/history.md`
= ```` ```{include} ../HISTORY.md ````): the page is a doc page with the history's text,
the history's deprecations answer `check_deprecation` once, with their version, and a
source's root changelog is read whatever its extension."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.core.errors import NotFoundError
from ctxhub.core.knowledge import ChunkQuery, SearchRequest
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.session import HubSession, set_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools.deprecation_tools import check_deprecation
from ctxhub.tools.docs_tools import get_doc
from ctxhub.tools.render import doc_page
from tests.unit.cli_runner import run
from tests.unit.package_hub import tree_hub

HISTORY = """\
# History

## 22.2.0 (2022-10-03)

- _Potentially breaking_: `acme.Converter` has been renamed to `acme.BaseConverter`,
  and `acme.GenConverter` to `acme.Converter`.
  The `GenConverter` name is still available for backwards compatibility, but is deprecated.
- Add `AcmeError` exception type: all exceptions raised by acme inherit from it.

## 22.1.0 (2022-04-03)

- Removed the undocumented `Converter.unstruct_strat` property setter.
"""

PACKAGE = {
    "pyproject.toml": '[project]\nname = "acme"\nversion = "26.2.1"\n',
    "src/acme/__init__.py": (
        "from acme.converters import BaseConverter, Converter\n\nGenConverter = Converter\n"
    ),
    "src/acme/converters.py": (
        'class BaseConverter:\n    """Converts."""\n\n\n'
        'class Converter(BaseConverter):\n    """Converts faster."""\n'
    ),
    "HISTORY.md": HISTORY,
    "docs/index.md": "# Acme\n\nAcme converts things.\n",
    "docs/history.md": "```{include} ../HISTORY.md\n\n```\n",
    "docs/releases.md": "# Releases\n\n```{include} ../HISTORY.md\n:start-after: # History\n```\n",
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with tree_hub(tmp_path_factory.mktemp("history"), "acme", PACKAGE, kinds=()) as h:
        yield h


def test_the_including_page_is_a_doc_page_with_the_history(hub: HubSession) -> None:
    page = get_doc(hub, path="docs/history.md")
    assert page.title == "History"
    assert "Add `AcmeError` exception type" in page.content
    # page order, though every included chunk cites the page's line 1
    assert page.content.index("22.2.0") < page.content.index("22.1.0")
    files = {f.path: f.kind for f in hub.store.file_states("acme").values()}
    assert files["docs/history.md"] == "docs" and files["HISTORY.md"] == "changelog"


def test_an_included_changelog_is_opened_but_not_ranked(hub: HubSession) -> None:
    """Hundreds of one-line entries that name every API crowd out how-to answers (the
    labelled sets lost up to 0.03 R@5 when they ranked), so the included history is
    lookup-only, as a changelog file is: get_doc opens it, no search returns it."""
    chunks = hub.store.find_chunks(ChunkQuery(kind="doc", source="acme"))
    by_page = {c.path: c.lookup_only for c in chunks}
    assert by_page["docs/history.md"] is True and by_page["docs/releases.md"] is True
    assert by_page["docs/index.md"] is False
    found = hub.retriever.search(SearchRequest(query="Add AcmeError exception type")).hits
    assert not any(h.path in ("docs/history.md", "docs/releases.md") for h in found)


def test_an_included_file_asked_for_by_name_opens_the_page_that_includes_it(
    hub: HubSession,
) -> None:
    page = get_doc(hub, path="HISTORY.md", source="acme")
    assert (page.path, page.included) == ("docs/history.md", "HISTORY.md")
    assert "HISTORY.md is included in this page" in doc_page(page)
    assert get_doc(hub, path="docs/history.md").included is None  # asked for the page
    with pytest.raises(NotFoundError):
        get_doc(hub, path="pyproject.toml")  # no page includes it


def test_a_later_sentence_deprecation_answers_with_its_version(hub: HubSession) -> None:
    report = check_deprecation(hub, "acme.GenConverter")
    assert report.deprecated
    (record,) = [d for d in report.entries if d.symbol == "acme.GenConverter"]
    assert (record.since, record.replacement) == ("22.2.0", "acme.Converter")
    assert (record.path, record.line) == ("HISTORY.md", 5)  # read once, from the file itself


def test_a_docs_source_reads_the_changelog_its_page_includes(tmp_path: Path) -> None:
    files = {
        "CHANGES.md": HISTORY,
        "docs/guide.md": "# Guide\n\nUse acme.\n",
        "docs/changelog.md": (
            "# Changelog\n\n```{include} ../CHANGES.md\n:start-after: # History\n```\n"
        ),
    }
    with tree_hub(tmp_path, "acme-docs", files, kinds=("docs",)) as hub:
        records = hub.store.deprecations("Converter.unstruct_strat")
        assert [(r.path, r.line, r.since) for r in records] == [("CHANGES.md", 12, "22.1.0")]
        (chunk,) = [
            c
            for c in hub.store.find_chunks(ChunkQuery(path="docs/changelog.md"))
            if "AcmeError" in c.content
        ]
        assert chunk.section == "Changelog > 22.2.0 (2022-10-03)"


@pytest.mark.parametrize("name", ["HISTORY", "CHANGES.txt", "NEWS"])
def test_a_root_changelog_of_any_extension_is_read(tmp_path: Path, name: str) -> None:
    files = {"src/acme/__init__.py": '"""Acme."""\n', name: HISTORY}
    with tree_hub(tmp_path, "acme", files) as hub:
        (record,) = hub.store.deprecations("Converter.unstruct_strat")
        assert (record.path, record.since) == (name, "22.1.0")


def test_an_included_changelog_changing_alone_re_reads_the_page(tmp_path: Path) -> None:
    root = tmp_path / "src"
    for rel, text in PACKAGE.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / "docs" / "bad.rst").write_text("Bad\n===\n\n.. include:: ../../../etc/passwd\n")
    spec = SourceSpec(name="acme", path=str(root))
    embedder = HashingEmbedder(dim=64)
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        (first,) = refresh(store, [spec], tmp_path / "sources", embedder).sources
        assert first.refused_includes == [
            ("docs/bad.rst", "../../../etc/passwd: resolves outside the source")
        ]
        history = root / "HISTORY.md"
        history.write_text(history.read_text().replace("First", "Initial") + "- Later.\n")
        (again,) = refresh(store, [spec], tmp_path / "sources", embedder).sources
        # HISTORY.md and the two pages that include it
        assert again.unchanged_units == again.units - 3
        assert again.refused_includes == []  # docs/bad.rst was not read again


def test_the_refresh_summary_names_each_refused_include(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "docs").mkdir(parents=True)
    (site / "docs" / "guide.md").write_text(
        "# Guide\n\n```{include} ../../outside.md\n```\n\nThe guide.\n"
    )
    set_embedder(HashingEmbedder(dim=64))
    try:
        out = run(tmp_path, "add", str(site), "--kind", "docs", "--name", "site").output
    finally:
        set_embedder(None)
    said = " ".join(out.split())  # however the console wraps it
    assert "site: include refused in docs/guide.md: ../../outside.md: resolves outside" in said


RELEASE_6 = """\
What's new in Acme 6.0
======================

Backwards-incompatible changes
------------------------------

- ``acme.return_future`` has been removed.
"""

RELEASE_5 = """\
What's new in Acme 5.1
======================

Deprecation notices
-------------------

- ``acme.return_future`` is deprecated and will be removed in 6.0.
"""


def test_a_docs_source_reads_its_release_pages_as_changelogs(tmp_path: Path) -> None:
    """tornado's `docs/releases/v6.0.0.rst`: one page per release in a docs-only source
    is opened by get_doc, never ranked, and answers check_deprecation ("removed")."""
    files = {
        "guide.rst": "Guide\n=====\n\nUse acme to convert futures.\n",
        "releases/v6.0.0.rst": RELEASE_6,
        "releases/v5.1.0.rst": RELEASE_5,
        "releases.rst": "Releases\n========\n\nSee the pages below.\n",
    }
    with tree_hub(tmp_path, "acme-docs", files, kinds=("docs",)) as hub:
        assert "has been removed" in get_doc(hub, path="releases/v6.0.0.rst").content
        ranked = hub.retriever.search(SearchRequest(query="return_future removed", limit=10))
        assert all(not h.path.startswith("releases/") for h in ranked.hits)
        answer = check_deprecation(hub, "acme.return_future")
        assert answer.removed and answer.removed_in == "6.0"


def test_release_pages_of_a_package_with_docs_are_pages_too(tmp_path: Path) -> None:
    """With Python and docs both indexed, a release page stays a docs page get_doc opens
    (never ranked), and its records are read once."""
    files = {
        "src/acme/__init__.py": '"""Acme."""\n\n\ndef convert(x):\n    return x\n',
        "docs/guide.rst": "Guide\n=====\n\nUse acme to convert futures.\n",
        "docs/releases/v6.0.0.rst": RELEASE_6,
        "docs/releases/v5.1.0.rst": RELEASE_5,
    }
    with tree_hub(tmp_path, "acme", files, kinds=("python", "docs")) as hub:
        assert "has been removed" in get_doc(hub, path="docs/releases/v6.0.0.rst").content
        answer = check_deprecation(hub, "acme.return_future")
        assert answer.removed and answer.removed_in == "6.0"
        assert len(hub.store.deprecations("acme.return_future")) == 2  # 5.1 and 6.0, once each
