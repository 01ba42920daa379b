"""Docs chunking: heading split, token windows, exact line ranges, page signals."""

from __future__ import annotations

import itertools
import logging
import re
from pathlib import Path

import pytest

from ctxhub.core.errors import SkipFile
from ctxhub.core.knowledge import Chunk, chunk_id
from ctxhub.embed.tokenizer import count_tokens
from ctxhub.ingest.docs.chunks import (
    chunk_doc_file,
    is_aggregate_doc,
    normalize_doc_path,
    parse_doc_file,
)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "docs"
LIMIT = 512


def _chunks(name: str, version: str | None = None, base_url: str | None = None) -> list[Chunk]:
    data = (FIXTURES / name).read_bytes()
    return chunk_doc_file("docs", name, data, version=version, base_url=base_url)


def _lines(c: Chunk) -> tuple[int, int]:
    assert c.line_start is not None and c.line_end is not None
    return c.line_start, c.line_end


def _src_lines(name: str) -> list[str]:
    return (FIXTURES / name).read_text().split("\n")


def _words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z0-9_]{3,}", text)


def _assert_within_limit(chunks: list[Chunk]) -> None:
    tokens = count_tokens([c.content for c in chunks])
    assert max(tokens) <= LIMIT
    assert tokens == [c.metadata.extra["tokens"] for c in chunks]


def test_chunk_fields_for_an_mdx_page() -> None:
    chunks = _chunks("tricky.mdx", version="1.2", base_url="https://docs.example.com/")
    assert chunks
    for c in chunks:
        assert c.kind == "doc" and c.source == "docs" and c.path == "tricky.mdx"
        assert c.title == "Voice Activity"
        assert c.version == "1.2"
        assert c.url == "https://docs.example.com/tricky"
        assert c.metadata.chunk_type == "section"
        assert c.metadata.extra["description"].startswith("Tune speech detection")
        assert c.metadata.extra["format"] == "mdx"
        assert c.metadata.extra["frontmatter"] == {"sidebarTitle": "VAD"}
        assert c.section and c.section.startswith("Voice Activity > ")
    assert [c.section for c in chunks] == [
        "Voice Activity > Parameters",
        "Voice Activity > Callouts",
        "Voice Activity > Layout",
        "Voice Activity > Setup > Install",
    ]
    assert _chunks("tricky.mdx")[0].url is None


def test_ids_are_deterministic_and_unique() -> None:
    a, b = _chunks("huge_paragraph.md"), _chunks("huge_paragraph.md")
    assert [c.id for c in a] == [c.id for c in b]
    assert len({c.id for c in a}) == len(a)
    # windows of one section are told apart by their ordinal under that breadcrumb
    assert a[1].id == chunk_id("docs", "huge_paragraph.md", a[1].section, 1)


def test_line_ranges_point_at_the_original_file() -> None:
    src = _src_lines("tricky.mdx")
    by_section = {c.section: c for c in _chunks("tricky.mdx")}
    callouts = by_section["Voice Activity > Callouts"]
    assert src[_lines(callouts)[0] - 1] == "## Callouts"
    assert callouts.content.startswith("## Callouts\n")
    start, end = _lines(by_section["Voice Activity > Layout"])
    assert src[start - 1] == "## Layout"
    assert "a < b holds." in src[end - 1]
    start, end = _lines(by_section["Voice Activity > Setup > Install"])
    assert src[start - 1] == "## Setup"  # the tiny parent merged in
    assert src[end - 1].startswith("Run the installer")
    for c in by_section.values():
        start, end = _lines(c)
        window = set(_words("\n".join(src[start - 1 : end])))
        labels = {"Note", "Warning", "Tip", "default", "required", "deprecated"}
        assert set(_words(c.content)) - labels <= window


def test_hash_inside_code_fences_is_not_a_heading() -> None:
    chunks = _chunks("tricky.mdx")
    assert not any("heading" in (c.section or "") for c in chunks)
    layout = next(c for c in chunks if c.section == "Voice Activity > Layout")
    assert "# Not a heading: a comment in code" in layout.content
    assert "# also not a heading" in layout.content
    assert layout.metadata.extra["code_languages"] == ["python", "bash"]
    assert layout.metadata.extra["code_lines"] == 5
    assert layout.metadata.language == "python"


def test_tiny_section_merges_into_its_subsection() -> None:
    chunks = _chunks("tricky.mdx")
    last = chunks[-1]
    assert last.section == "Voice Activity > Setup > Install"
    assert "One short line." in last.content and "Run the installer" in last.content
    assert not any(c.section == "Voice Activity > Setup" for c in chunks)
    # an intro of one sentence joins the first section instead of standing alone
    assert chunks[0].content.startswith("Voice activity detection decides")


def test_huge_paragraph_is_split_on_sentences_with_overlap() -> None:
    chunks = _chunks("huge_paragraph.md")
    body = [c for c in chunks if c.section == "Huge paragraph > Wall of text"]
    assert len(body) > 5
    _assert_within_limit(chunks)
    for c in body[:-1]:
        assert c.content.endswith(".")  # cut at a sentence end, not mid-sentence
    for prev, nxt in itertools.pairwise(body):
        head = nxt.content[:60]
        assert head in prev.content  # the next window starts inside the previous one
        overlap = prev.content[prev.content.index(head) :]
        assert 20 <= count_tokens([overlap])[0] - 2 <= 60
        assert nxt.line_start is not None and prev.line_end is not None
        assert nxt.line_start <= prev.line_end  # overlapping windows share lines
    src = _src_lines("huge_paragraph.md")
    for c in body:
        assert c.line_start is not None
        first = c.content.split("\n")[0].strip()
        assert first[:40] in src[c.line_start - 1] or c.content.startswith("#")


def test_enormous_single_line_is_hard_cut() -> None:
    chunks = _chunks("enormous_line.md")
    _assert_within_limit(chunks)
    src = _src_lines("enormous_line.md")
    line_no = next(i for i, line in enumerate(src, 1) if len(line) > 10_000)
    cut = [c for c in chunks if c.line_start == line_no == c.line_end]
    assert len(cut) > 5
    # no text is lost: the chunks, in order, spell out the whole line (cuts eat a space)
    joined = re.sub(r"\s", "", "".join(c.content for c in chunks))
    assert re.sub(r"\s", "", src[line_no - 1]) in joined
    assert max(len(c.content) for c in chunks) <= LIMIT * 8  # no 10k-char [UNK] chunk


def test_big_code_block_is_split_into_well_formed_fences() -> None:
    chunks = _chunks("big_code.md")
    _assert_within_limit(chunks)
    src = _src_lines("big_code.md")
    code = [c for c in chunks if "```python" in c.content]
    assert len(code) > 3
    for c in code:
        assert c.content.count("```") == 2  # each part re-opens and closes its fence
        assert c.metadata.language == "python"
        assert c.line_start is not None and c.line_end is not None
        original = src[c.line_start - 1 : c.line_end]
        for line in c.content.split("\n"):
            if line.startswith("def ") or line.startswith("    return"):
                assert line in original
    # consecutive parts cover the block without a gap
    for prev, nxt in itertools.pairwise(code):
        assert nxt.line_start is not None and prev.line_end is not None
        assert nxt.line_start <= prev.line_end + 1


def test_code_block_that_fits_is_kept_whole() -> None:
    chunks = _chunks("program.md")
    assert len(chunks) == 1
    text = chunks[0].content
    assert "```python\nimport asyncio" in text and "asyncio.run(main())\n```" in text


def test_worked_example_signal() -> None:
    (program,) = _chunks("program.md")
    assert "worked-example" in program.metadata.tags
    assert program.metadata.extra["worked_example"] is True
    assert program.metadata.extra["page_code_lines"] == 24
    for c in _chunks("tricky.mdx"):
        assert "worked-example" not in c.metadata.tags
        assert c.metadata.extra["page_code_lines"] == 5


def test_worked_example_tag_only_on_sections_with_code() -> None:
    program = (FIXTURES / "program.md").read_text()
    prose = "\n\n".join(f"Paragraph {i} about configuring the bot. " * 12 for i in range(8))
    page = f"{program}\n\n## Background\n\n{prose}\n"
    chunks = chunk_doc_file("docs", "guide.md", page.encode())
    with_code = [c for c in chunks if c.metadata.extra["code_lines"]]
    without = [c for c in chunks if not c.metadata.extra["code_lines"]]
    assert with_code and without  # the page has a prose-only section
    assert all(c.metadata.extra["worked_example"] for c in chunks)  # a page-level fact
    assert all("worked-example" in c.metadata.tags for c in with_code)
    assert not any("worked-example" in c.metadata.tags for c in without)


def test_embed_text_header() -> None:
    chunks = _chunks("tricky.mdx")
    first, second = chunks[0], chunks[1]
    assert first.embed_text.startswith("Voice Activity\nParameters\nTune speech detection")
    assert second.embed_text.startswith("Voice Activity\nCallouts\n## Callouts")
    assert "Tune speech" not in second.embed_text


def test_non_utf8_bytes_are_replaced_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    data = (FIXTURES / "non_utf8.md").read_bytes()
    result = parse_doc_file("docs", "non_utf8.md", data)
    assert result.error is None
    assert any("invalid UTF-8" in w for w in result.warnings)
    with caplog.at_level(logging.WARNING):
        chunks = chunk_doc_file("docs", "non_utf8.md", data)
    assert "invalid UTF-8" in caplog.text
    assert "\ufffd" in chunks[0].content and "Caf" in chunks[0].content
    assert chunks[0].title == "Broken bytes"


def test_unparsable_input_is_an_error_the_caller_can_count() -> None:
    binary = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
    assert parse_doc_file("docs", "image.md", binary).error
    with pytest.raises(SkipFile):
        chunk_doc_file("docs", "image.md", binary)
    assert parse_doc_file("docs", "../outside.md", "# x").error


def test_frontmatter_only_page_still_says_what_it_is() -> None:
    (c,) = _chunks("frontmatter_only.mdx")
    assert c.title == "Create an Agent"
    assert "POST /agents creates an agent." in c.content
    assert "openapi: POST /agents" in c.content
    assert (c.line_start, c.line_end) == (1, 5)


def test_markdown_title_comes_from_h1() -> None:
    chunks = chunk_doc_file("docs", "guide/readme.md", "# Project\n\nIntro.\n\n## Use\n\nRun it.\n")
    assert {c.title for c in chunks} == {"Project"}
    assert chunks[-1].section == "Project > Use"
    intro = "This introduction is long enough to stand as a section of its own. " * 4
    text = f"Title\n=====\n\n{intro}\n\nPart\n----\n\nMore.\n"
    setext = chunk_doc_file("docs", "s.md", text)
    assert [c.section for c in setext] == ["Title", "Title > Part"]
    assert [(c.line_start, c.line_end) for c in setext] == [(1, 4), (6, 9)]


def test_rst_headings_and_literal_blocks() -> None:
    chunks = _chunks("guide.rst")
    assert [c.section for c in chunks] == [
        "Our Guide > Installing",
        "Our Guide > Installing > Configuring",
        "Our Guide > Running",
    ]
    # underlined lines inside literal blocks are code, not titles
    assert "Not a title" in chunks[0].content
    assert "Title lookalike" in chunks[1].content
    assert chunks[1].metadata.extra["code_languages"] == ["python"]
    src = _src_lines("guide.rst")
    assert src[_lines(chunks[2])[0] - 1] == "Running"


def test_doc_paths() -> None:
    same = {
        normalize_doc_path("pipecat-cloud/guides/x.mdx"),
        normalize_doc_path("https://docs.example.com/pipecat-cloud/guides/x"),
        normalize_doc_path("https://docs.example.com/pipecat-cloud/guides/x.md"),
        normalize_doc_path("/pipecat-cloud/guides/x.md#anchor"),
        normalize_doc_path("./pipecat-cloud/guides/x.MDX"),
    }
    assert same == {"pipecat-cloud/guides/x"}
    assert normalize_doc_path("guides/x.py") == "guides/x.py"
    assert is_aggregate_doc("llms-full.txt") and is_aggregate_doc("docs/llms.txt")
    assert is_aggregate_doc("llms-ctx.txt")
    assert not is_aggregate_doc("guides/llms.mdx") and not is_aggregate_doc("llms-guide.mdx")


def test_rst_markup_reads_as_text_and_keeps_its_lines() -> None:
    from ctxhub.ingest.docs.chunks import chunk_doc_file

    page = "\n".join(
        [
            ".. _meta-options:",
            "",
            "Custom `class Meta <marshmallow.Schema.Meta>`_ options",
            "=====================================================",
            "",
            ".. versionadded:: 3.0",
            "",
            "Set :attr:`~marshmallow.Schema.Meta.unknown` to :data:`EXCLUDE`.",
            "",
            ".. toctree::",
            "   :maxdepth: 2",
            "",
            ".. function:: load(data)",
            "",
            "   :param data: the input",
            "",
            ".. code-block:: python",
            "",
            "   class Meta:",
            "       unknown = :data:`kept`",
        ]
    )
    (chunk,) = chunk_doc_file("m", "docs/meta.rst", page)
    assert chunk.title == "Custom class Meta options"
    assert "Added in version 3.0" in chunk.content
    assert "Set marshmallow.Schema.Meta.unknown to EXCLUDE." in chunk.content  # targets kept
    assert ":maxdepth:" not in chunk.content and "toctree" not in chunk.content
    assert ":param data: the input" in chunk.content  # a field list is content
    assert "unknown = :data:`kept`" in chunk.content  # code is never rewritten
    assert (chunk.line_start, chunk.line_end) == (3, 20)  # lines of the original file
