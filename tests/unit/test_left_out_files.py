"""Which listed files a docs source leaves out, and saying which: housekeeping only at
the source's root (or `.github/`), never a page of the docs tree named like it; an
llmstxt.org `llms.txt` is a Markdown page; each left-out file is logged (`-v`)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.ingest.refresh.plan import plan_units
from ctxhub.sources.base import SourceSpec
from ctxhub.sources.local import snapshot_dir
from ctxhub.store.sqlite.store import SQLiteStore
from tests.conftest import write_tree

HOUSEKEEPING = "repository housekeeping (license, contributing, ...), not docs"
LLMS_TXT = (
    "# widget\n\n> A little widget library for queues and retries.\n\n"
    "Operational facts:\n\n- The consumer treats SIGTERM as an immediate stop, run it with -g.\n\n"
    "## Documentation\n\n- [Guide](https://widget.dev/guide.html): defining tasks\n"
)


def test_a_docs_page_named_like_housekeeping_is_docs(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "index.rst": "Widget\n======\n\nThe widget guide.\n",
            "guide/security.rst": "Security\n========\n\nSigned cookies and XSRF.\n",
            "contributing.md": "# Contributing\n\nSend patches.\n",
            "SECURITY.md": "# Security policy\n\nMail us.\n",
            # a vendored project's own, under its conventional upper-case name
            "vendor/parser/CODE_OF_CONDUCT.md": "# Code of conduct\n\nBe kind.\n",
        },
    )
    plan = plan_units(snapshot_dir(tmp_path))
    assert {u.key for u in plan.units if u.kind == "docs"} == {"index.rst", "guide/security.rst"}
    why = dict(plan.left_out)
    for rel in ("contributing.md", "SECURITY.md", "vendor/parser/CODE_OF_CONDUCT.md"):
        assert why[rel] == HOUSEKEEPING, rel


def test_an_llms_txt_in_markdown_is_a_docs_page_and_plain_text_stays_out(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "index.md": "# Widget\n\nThe widget guide.\n",
            "extras/llms.txt": LLMS_TXT,
            "other/llms.txt": "widget\nsee https://widget.dev\n",
            "notes.txt": "remember to water the plants\n",
        },
    )
    plan = plan_units(snapshot_dir(tmp_path))
    assert {(u.key, u.kind) for u in plan.units} == {
        ("index.md", "docs"),
        ("extras/llms.txt", "docs"),
    }
    assert {"other/llms.txt", "notes.txt"} <= set(dict(plan.left_out))


def test_each_left_out_file_is_logged_with_its_reason(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    docs = tmp_path / "docs"
    write_tree(docs, {"index.md": "# Widget\n\nThe widget guide.\n", "LICENSE": "MIT\n"})
    with SQLiteStore(tmp_path / "ctxhub.db") as store, caplog.at_level(logging.INFO):
        refresh(store, [SourceSpec(name="w", path=str(docs))], tmp_path, None)
    assert f"w: left out LICENSE: {HOUSEKEEPING}" in caplog.messages


DUMP = (
    "# Guide\nSource: https://widget.dev/guide\n\nDefining tasks.\n\n"
    "# Retries\nSource: https://widget.dev/retries\n\nRetrying a task.\n"
)


def test_an_llms_txt_is_a_pointer_only_beside_an_llms_full_txt_in_its_own_folder(
    tmp_path: Path,
) -> None:
    write_tree(
        tmp_path,
        {
            "index.md": "# Widget\n\nThe widget guide.\n",
            "extras/llms.txt": LLMS_TXT,
            "site/llms.txt": LLMS_TXT,
            "site/llms-full.txt": DUMP,
        },
    )
    plan = plan_units(snapshot_dir(tmp_path))
    kinds = {u.key: u.kind for u in plan.units}
    # an llms-full.txt in another folder says nothing of this one's llms.txt
    assert kinds.get("extras/llms.txt") == "docs"
    assert kinds.get("site/llms-full.txt") == "dump"
    # the one beside it says the same again: left out, with the reason
    assert "site/llms.txt" not in kinds
    assert "beside llms-full.txt" in dict(plan.left_out)["site/llms.txt"]
