"""llms-full.txt: page splitting, page chunks and their map back into the dump."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxhub.ingest.docs.chunks import chunk_doc_page
from ctxhub.ingest.docs.llms_full import DocPage, dump_pages_without_file, split_llms_full

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "docs"


@pytest.fixture(scope="module")
def dump() -> str:
    return (FIXTURES / "llms-full-sample.txt").read_text()


@pytest.fixture(scope="module")
def pages(dump: str) -> list[DocPage]:
    return split_llms_full(dump, origin="llms-full.txt")


def test_pages_start_at_title_plus_source(pages: list[DocPage]) -> None:
    assert [p.title for p in pages] == ["Getting Started", "API Keys", "SDK Reference"]
    assert [p.url for p in pages] == [
        "https://docs.example.com/guides/getting-started.md",
        "https://docs.example.com/reference/api-keys.mdx",  # Source after a blank line
        "https://sdk.other-site.example/",
    ]
    assert pages[0].path == "guides/getting-started"
    assert pages[1].path == "reference/api-keys"
    assert all(p.origin == "llms-full.txt" for p in pages)


def test_page_on_another_host_keeps_its_host(pages: list[DocPage]) -> None:
    assert pages[2].path == "sdk.other-site.example"


def test_lookalikes_inside_fences_do_not_split(pages: list[DocPage]) -> None:
    first = pages[0].text
    assert "# Fake Page\nSource: https://docs.example.com/fake.md" in first
    assert "# Another Fake" in first
    assert first.rstrip().endswith("Done installing.")
    assert not any("fake" in p.path for p in pages)


def test_line_offsets_locate_pages_in_the_dump(dump: str, pages: list[DocPage]) -> None:
    lines = dump.split("\n")
    for p in pages:
        assert lines[p.line_offset] == f"# {p.title}"
        own = p.text.split("\n")
        assert lines[p.line_offset : p.line_offset + len(own)] == own
    assert pages[0].source_line == 2 and pages[1].source_line == 3
    # the preamble before the first page belongs to no page
    assert not any("whole site in one file" in p.text for p in pages)


def test_page_chunks(dump: str, pages: list[DocPage]) -> None:
    lines = dump.split("\n")
    chunks = [c for p in pages for c in chunk_doc_page("docs", p, version="2")]
    assert {c.path for c in chunks} == {p.path for p in pages}
    for c in chunks:
        assert c.kind == "doc" and c.version == "2"
        assert c.url and f"Source: {c.url}" not in c.content  # metadata, not content
        offset = c.metadata.extra["dump_line_offset"]
        assert c.metadata.extra["dump_path"] == "llms-full.txt"
        assert c.line_start is not None and c.line_end is not None
        in_dump = "\n".join(lines[offset + c.line_start - 1 : offset + c.line_end])
        for line in c.content.split("\n"):
            if line and not line.startswith(">"):
                assert line in in_dump
    keys = [c for c in chunks if c.path == "reference/api-keys"]
    assert keys[0].url == "https://docs.example.com/reference/api-keys.mdx"
    assert keys[0].title == "API Keys"
    assert "> **Note:** Keep keys secret." in keys[0].content
    assert keys[-1].section == "API Keys > Rotation"
    # page lines count from the page's `# Title` line
    start = next(c for c in chunks if c.path == "guides/getting-started")
    assert start.line_start == 1 and start.content.startswith("# Getting Started")


def test_pages_with_a_file_of_their_own_are_skipped(pages: list[DocPage]) -> None:
    files = ["guides/getting-started.mdx", "other/page.md"]
    left = dump_pages_without_file(pages, files)
    assert [p.path for p in left] == ["reference/api-keys", "sdk.other-site.example"]


def test_dump_without_pages() -> None:
    assert split_llms_full("# Just a title\n\nNo source line.\n") == []
    assert split_llms_full("") == []
