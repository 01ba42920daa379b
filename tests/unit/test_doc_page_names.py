"""A doc page is named with or without its suffix, reST too; `show` says what kinds of
id it tried when nothing has the one given."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.core.doc_paths import normalize_doc_path
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.session import set_embedder
from tests.unit.cli_runner import run


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    docs = tmp_path / "site"
    (docs / "docs").mkdir(parents=True)
    (docs / "tricks.rst").write_text(
        "Tricks\n======\n\nSome tricks with loaders and templates.\n\n"
        "More\n----\n\nAnother paragraph.\n"
    )
    (docs / "docs" / "testing.md").write_text("# Testing\n\nHow to test things.\n")
    (docs / "hashing").mkdir()  # a directory-style page, as MkDocs builds them
    (docs / "hashing" / "index.md").write_text("# Hashing\n\nHow instances are hashed.\n")
    for folder in ("server", "client"):  # two pages of one name
        (docs / folder).mkdir()
        (docs / folder / "setup.md").write_text(f"# Setup\n\nSetting up the {folder}.\n")
    set_embedder(HashingEmbedder(dim=64))
    run(tmp_path, "add", str(docs), "--kind", "docs", "--name", "site")
    yield tmp_path
    set_embedder(None)


def test_suffixes_of_every_page_format_are_optional() -> None:
    for name in ("guide/tricks.rst", "guide/tricks.txt", "guide/tricks.md", "guide/tricks"):
        assert normalize_doc_path(name) == "guide/tricks", name


@pytest.mark.parametrize("page", ["tricks", "tricks.rst", "docs/testing", "docs/testing.md"])
def test_a_page_opens_with_or_without_its_extension(home: Path, page: str) -> None:
    out = run(home, "doc", page).output
    assert "site:tricks.rst" in out or "site:docs/testing.md" in out


@pytest.mark.parametrize("page", ["hashing", "hashing/", "hashing/index", "hashing/index.md"])
def test_a_directory_style_page_opens_by_its_folder(home: Path, page: str) -> None:
    assert "site:hashing/index.md" in run(home, "doc", page).output
    assert "site:" in run(home, "show", page).output


def test_show_says_which_kinds_of_id_it_tried(home: Path) -> None:
    out = run(home, "show", "zzzz", code=1).output
    assert "no chunk id, record id (or unique prefix of one) or doc page path" in out
    assert "no doc page" not in out


@pytest.mark.parametrize("page", ["testing", "Testing.md", "TESTING"])
def test_a_page_named_without_its_folder_opens_when_it_is_the_only_one(
    home: Path, page: str
) -> None:
    assert "site:docs/testing.md" in run(home, "doc", page).output


def test_a_page_not_found_offers_the_paths_it_likely_means(home: Path) -> None:
    # a name two pages end in, and a typo
    out = run(home, "doc", "setup", code=1).output
    assert "did you mean" in out and "server/setup.md" in out and "client/setup.md" in out
    assert "did you mean tricks.rst" in run(home, "doc", "trics", code=1).output
    assert "did you mean" not in run(home, "doc", "zzzqqq", code=1).output
