"""A docs site's changelog page is a docs page, and what a docs source leaves out on
purpose (a license page) is counted with its reason by refresh and by status; an
unchanged refresh reports the pages still skipped, as status counts them."""

from __future__ import annotations

from pathlib import Path

from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools.hub_status import hub_status

CHANGES = """<html><head><title>Changes</title></head><body><main>
<h1>Changes</h1>
<h2>Version 2.2.0</h2>
<p>Released 2024-04-16. Drop support for Python 3.7 and 3.8, which reached end of life.
Use modern packaging metadata with pyproject.toml instead of setup.cfg for the build.</p>
<p>The <code>__version__</code> attribute is deprecated. Use feature detection, or
<code>importlib.metadata.version("itsdangerous")</code>, instead.</p>
<h2>Version 2.1.2</h2>
<p>Released 2022-03-24. Handle date overflow in timed unsign, raising a clear error
instead of a traceback when the timestamp cannot be represented on this platform.</p>
</main></body></html>
"""
LICENSE = CHANGES.replace("Changes", "License").replace("Version", "Clause")


def test_a_changelog_page_is_docs_and_a_license_page_is_counted_as_left_out(
    tmp_path: Path,
) -> None:
    site = tmp_path / "html"
    site.mkdir()
    (site / "changes.html").write_text(CHANGES)
    (site / "history.html").write_text(CHANGES)
    (site / "license.html").write_text(LICENSE)
    spec = SourceSpec(name="site", path=str(site), kind=["docs"])
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        (source,) = refresh(store, [spec], tmp_path, None).sources
        assert {p for _, p in store.doc_pages("site")} == {"changes.html", "history.html"}
        assert [f for f, _ in source.left_out] == ["license.html"]
        (status,) = hub_status(store, 30).sources
        assert status.left_out_files == 1
        ((why, n),) = status.left_out_reasons.items()
        assert n == 1 and "housekeeping" in why


def test_an_unchanged_refresh_reports_the_skipped_pages_status_counts(tmp_path: Path) -> None:
    site = tmp_path / "html"
    site.mkdir()
    (site / "changes.html").write_text(CHANGES)
    (site / "genindex.html").write_text(CHANGES.replace("Changes", "Index"))
    spec = SourceSpec(name="site", path=str(site), kind=["docs"])
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        (first,) = refresh(store, [spec], tmp_path, None).sources
        (again,) = refresh(store, [spec], tmp_path, None).sources
        assert again.unchanged_units == 2
        assert (
            again.skipped
            == first.skipped
            == [("genindex.html", "a generated index page, not docs")]
        )
        (status,) = hub_status(store, 30).sources
        assert status.skipped_files == len(again.skipped) == 1
