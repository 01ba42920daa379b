"""A page without an H1 gets a real title, never `index`: its MkDocs nav title, its
front-matter title, its first heading, its folder's or its file's name; the title leads
every breadcrumb of the page."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxhub.core.knowledge import ChunkQuery
from ctxhub.ingest.docs.chunks import parse_doc_file
from ctxhub.ingest.docs.mkdocs_nav import nav_titles
from ctxhub.ingest.docs.titles import humanised
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore


def _titles(path: str, text: str, nav: str | None = None) -> tuple[str, list[str | None]]:
    result = parse_doc_file("s", path, text, nav_title=nav)
    assert result.error is None
    return result.chunks[0].title, [c.section for c in result.chunks]


BODY = "## Install\n\nRun pip.\n\n## Usage\n\nCall it with enough words to be its own section.\n"


@pytest.mark.parametrize(
    ("path", "text", "nav", "title"),
    [
        ("docs/getting-started/index.md", BODY, "Getting going", "Getting going"),  # nav first
        ("docs/getting-started/index.md", "---\ntitle: Start\n---\n" + BODY, None, "Start"),
        ("docs/getting-started/index.md", BODY, None, "Install"),  # first heading, any level
        ("docs/getting-started/index.md", "Just text.\n", None, "Getting started"),  # folder
        ("docs/getting_started/README.md", "Just text.\n", None, "Getting started"),
        ("docs/rate_limits.md", "Just text.\n", None, "Rate limits"),  # its own name
        ("docs/02-advanced-usage.rst", "Just text, no section.\n", None, "Advanced usage"),
        # a page with an H1 keeps it, whatever the nav calls it
        ("docs/guide/index.md", "# The Guide\n\n" + BODY, "Guide", "The Guide"),
    ],
)
def test_a_page_without_an_h1_gets_a_real_title(
    path: str, text: str, nav: str | None, title: str
) -> None:
    assert _titles(path, text, nav)[0] == title


def test_the_title_leads_the_breadcrumbs() -> None:
    _, sections = _titles("docs/getting-started/index.md", BODY, "Getting started")
    assert sections == ["Getting started > Install", "Getting started > Usage"]


def test_humanised_names() -> None:
    assert humanised("getting-started") == "Getting started"
    assert humanised("API_guide") == "API guide"
    assert humanised("01_intro") == "Intro"


MKDOCS = """\
site_name: Acme
docs_dir: site_docs
markdown_extensions:
  - pymdownx.emoji:
      emoji_generator: !!python/name:material.extensions.emoji.to_svg
extra:
  key: !ENV [ACME_KEY, none]
nav:
  - Home: index.md
  - Getting started:
      - getting-started/index.md
      - Install: getting-started/install.md
  - Reference:
      - API: reference/api.md
  - GitHub: https://github.com/acme/acme
  - plain.md
"""


def test_nav_titles_from_mkdocs_yml() -> None:
    assert nav_titles("mkdocs.yml", MKDOCS) == {
        "site_docs/index.md": "Home",
        "site_docs/getting-started/index.md": "Getting started",  # the section's index page
        "site_docs/getting-started/install.md": "Install",
        "site_docs/reference/api.md": "API",
    }
    assert nav_titles("docs/en/mkdocs.yml", "nav:\n  - Tour: tour.md\n") == {
        "docs/en/docs/tour.md": "Tour"
    }
    assert nav_titles("mkdocs.yml", "nav: [unclosed") == {}
    assert nav_titles("mkdocs.yml", "docs_dir: ../../elsewhere\nnav:\n  - A: a.md\n") == {}


def test_refresh_titles_pages_by_the_nav_and_rereads_them_when_it_changes(
    tmp_path: Path,
) -> None:
    root = tmp_path / "site"
    (root / "site_docs" / "getting-started").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(MKDOCS)
    (root / "site_docs" / "getting-started" / "index.md").write_text(BODY)
    (root / "site_docs" / "index.md").write_text("# Acme\n\nWelcome.\n")
    spec = SourceSpec(name="acme", path=str(root), kind=["docs"])
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        refresh(store, [spec], tmp_path / "sources", None)
        page = ChunkQuery(path="site_docs/getting-started/index.md")
        assert {c.title for c in store.find_chunks(page)} == {"Getting started"}
        (home,) = store.find_chunks(ChunkQuery(path="site_docs/index.md"))
        assert home.title == "Acme"  # its H1, not the nav's "Home"

        (root / "mkdocs.yml").write_text(MKDOCS.replace("Getting started:", "First steps:"))
        (again,) = refresh(store, [spec], tmp_path / "sources", None).sources
        assert again.unchanged_units == 1 and again.added == 2  # only the retitled page
        assert {c.section for c in store.find_chunks(page)} == {
            "First steps > Install",
            "First steps > Usage",
        }
