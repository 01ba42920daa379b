"""A docs page's `literalinclude` of any text file of the source (a template, a config
file), whatever its extension; a binary file is named, never pasted."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from ctxhub.core.knowledge import ChunkQuery
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.sources.base import SourceSpec
from ctxhub.sources.local import snapshot_dir
from ctxhub.store.sqlite.store import SQLiteStore

PAGE = """Templating
==========

The template:

.. literalinclude:: tpl/hello.pt
   :language: html

The settings:

.. literalinclude:: tpl/app.cfg

The model:

.. literalinclude:: tpl/model.pt
"""


def _site(root: Path) -> Path:
    (root / "docs" / "tpl").mkdir(parents=True)
    (root / "docs" / "page.rst").write_text(PAGE)
    (root / "docs" / "tpl" / "hello.pt").write_text("<html><p>Hello ${name}</p></html>\n")
    (root / "docs" / "tpl" / "app.cfg").write_text("[app]\nreload = true\n")
    (root / "docs" / "tpl" / "model.pt").write_bytes(b"PK\x03\x04\x00\xff\xfe weights")
    return root


def test_a_file_left_out_for_its_extension_is_readable_but_not_indexed(tmp_path: Path) -> None:
    snap = snapshot_dir(_site(tmp_path / "site"))
    assert "docs/tpl/hello.pt" not in snap.files  # never a unit of its own
    assert snap.read("docs/tpl/hello.pt").startswith(b"<html>")


def test_literalinclude_of_any_text_file_is_in_the_page(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    spec = SourceSpec(name="acme", path=str(_site(tmp_path / "site")), kind=["docs"])
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        refresh(store, [spec], tmp_path, None)
        (page,) = store.find_chunks(ChunkQuery(path="docs/page.rst"))
        assert "```html\n<html><p>Hello ${name}</p></html>\n```" in page.content
        assert "```cfg\n[app]\nreload = true\n```" in page.content
        assert "literalinclude:: tpl/hello.pt" not in page.content
        # a binary file stays a directive, and the log says why it was not read
        assert "literalinclude:: tpl/model.pt" in page.content
        assert "weights" not in page.content
        logged = caplog.text
        assert "include tpl/model.pt: a binary file" in logged
        assert "include not found" not in logged
        assert not store.find_chunks(ChunkQuery(path="docs/tpl/hello.pt"))

        # the included template changes: the page is read again
        tpl = tmp_path / "site" / "docs" / "tpl" / "hello.pt"
        tpl.write_text("<html><p>Bye ${name}</p></html>\n")
        (again,) = refresh(store, [spec], tmp_path, None).sources
        assert again.updated == 1, again
        (page,) = store.find_chunks(ChunkQuery(path="docs/page.rst"))
        assert "Bye ${name}" in page.content
