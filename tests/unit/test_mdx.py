"""MDX cleanup: components to markdown, code untouched, every line mapped back."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxhub.ingest.docs.frontmatter import parse_frontmatter
from ctxhub.ingest.docs.mdx import clean_mdx

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "docs"


@pytest.fixture(scope="module")
def tricky_src() -> str:
    return (FIXTURES / "tricky.mdx").read_text()


def _line_of(src: str, needle: str) -> int:
    """1-based line of the first source line containing needle."""
    for i, line in enumerate(src.split("\n"), 1):
        if needle in line:
            return i
    raise AssertionError(f"{needle!r} not in source")


def _cleaned_line(lines: list[str], needle: str) -> int:
    hits = [i for i, line in enumerate(lines) if needle in line]
    assert hits, f"{needle!r} not in cleaned text"
    return hits[0]


def test_frontmatter_is_parsed_and_removed(tricky_src: str) -> None:
    doc = clean_mdx(tricky_src)
    assert doc.title == "Voice Activity"
    assert doc.description == "Tune speech detection: thresholds, timing and events."
    assert doc.frontmatter["sidebarTitle"] == "VAD"
    assert doc.frontmatter_lines == 5
    assert "sidebarTitle" not in doc.text
    assert doc.spans[0][0] > 5  # nothing comes from the frontmatter lines


def test_frontmatter_yaml_subset() -> None:
    lines = [
        "---",
        'title: "Say \\"hi\\""',
        '"og:title": Quoted key',
        "description: >",
        "  folded over",
        "  two lines",
        "note: 'it''s'",
        "---",
    ]
    fm = parse_frontmatter(lines)
    assert fm.values == {
        "title": 'Say "hi"',
        "og:title": "Quoted key",
        "description": "folded over two lines",
        "note": "it's",
    }
    assert fm.end_line == 8
    unterminated = parse_frontmatter(["---", "title: x", "text"])
    assert unterminated.values == {} and unterminated.warning


def test_imports_exports_and_bare_jsx_are_dropped(tricky_src: str) -> None:
    text = clean_mdx(tricky_src).text
    for gone in ("import {", "export", "CommunityMaintained", "Snippet", "<img", "<video", "Shout"):
        assert gone not in text
    assert "Voice activity detection decides when the user is speaking." in text


def test_prose_that_starts_with_import_is_kept() -> None:
    doc = clean_mdx("import your data first, then train.\n\nexport the model too.\n")
    assert doc.lines == ["import your data first, then train.", "", "export the model too."]


def test_comments_are_dropped(tricky_src: str) -> None:
    text = clean_mdx(tricky_src).text
    assert "must vanish" not in text
    assert "{/*" not in text and "<!--" not in text


def test_callouts_become_labelled_blockquotes(tricky_src: str) -> None:
    lines = clean_mdx(tricky_src).lines
    i = _cleaned_line(lines, "**Note:**")
    assert lines[i] == "> **Note:** Always set a sample rate"
    assert lines[i + 1] == "> that the model supports."
    assert "> **Warning:** Loud rooms need a higher threshold." in lines
    # a tag name inside inline code is text, not a component
    assert "> **Tip:** Use `<Note>` in prose and it stays text." in lines


@pytest.mark.parametrize("label", ["Info", "Check", "Danger"])
def test_every_callout_kind_has_its_label(label: str) -> None:
    doc = clean_mdx(f"<{label}>\n  Body text.\n</{label}>\n\nAfter.\n")
    assert doc.lines[0] == f"> **{label}:** Body text."
    assert doc.lines[-1] == "After."  # not quoted any more


def test_param_fields_become_parameter_lines(tricky_src: str) -> None:
    lines = clean_mdx(tricky_src).lines
    assert (
        "- **stop_secs** (float, default 0.8, required): Seconds of silence before the turn ends."
        in lines
    )
    assert "- **limit** (int, default 10): Page size." in lines  # query=, default={10}
    assert "- **name** (string, required, deprecated): Legacy field name." in lines  # body=
    assert "- **X-Api-Key** (string)" in lines  # header=, required={false}, self-closing
    assert "- **session_id** (str): Identifier of the new session." in lines  # name=, inline


def test_multiline_param_with_nested_expandable(tricky_src: str) -> None:
    lines = clean_mdx(tricky_src).lines
    i = _cleaned_line(lines, "**params**")
    assert lines[i] == "- **params** (VADParams, default VADParams()): Detection parameters object"
    assert lines[i + 1] == "  **properties**"
    nested = "  - **confidence** (float, default 0.7): Confidence threshold for speech."
    assert lines[i + 2] == nested


def test_param_without_type_or_value() -> None:
    doc = clean_mdx('<ParamField path="on_ready">Fired when ready.</ParamField>\n')
    assert doc.lines == ["- **on_ready**: Fired when ready."]
    empty = clean_mdx('<ParamField path="x" type="str" default="">\n</ParamField>\n')
    assert empty.lines == ['- **x** (str, default ""):']


def test_layout_components_are_unwrapped_with_titles(tricky_src: str) -> None:
    lines = clean_mdx(tricky_src).lines
    assert lines[_cleaned_line(lines, "**Python**") + 1] == "Install the package first."
    assert "**Shell**" in lines
    assert lines[_cleaned_line(lines, "**Create the analyzer**") + 1] == (
        "Build it once per session."
    )
    assert "**[Guide](/guides/vad)**" in lines  # multi-line Card tag with href
    assert "**Release 2**" in lines  # Update label given as JSX
    text = "\n".join(lines)
    for tag in ("<Tab", "</Tab", "<Steps", "<Card", "<Update", "<Expandable", "<ParamField"):
        assert tag not in text


def test_fenced_code_is_untouched_apart_from_fence_indentation(tricky_src: str) -> None:
    doc = clean_mdx(tricky_src)
    src = tricky_src.split("\n")
    code = [i for i, b in enumerate(doc.block) if b >= 0]
    assert code
    for i in code:
        start, end = doc.spans[i]
        assert start == end
        original = src[start - 1]
        indent = len(original) - len(original.lstrip(" "))
        assert original == " " * indent + doc.lines[i]
    text = doc.text
    assert "vad.start()  # <Note>not a tag</Note>" in text
    assert "# Not a heading: a comment in code" in text
    assert doc.languages == {0: "python", 1: "bash"}
    assert sum(doc.marker) == 4


def test_code_in_fences_is_never_cleaned() -> None:
    src = "```jsx\nimport { X } from 'x';\n<Note>hi</Note>\n{/* keep */}\n```\n"
    doc = clean_mdx(src)
    assert doc.lines == src.rstrip("\n").split("\n")


def test_every_line_maps_to_its_original_lines(tricky_src: str) -> None:
    doc = clean_mdx(tricky_src)
    src = tricky_src.split("\n")
    assert doc.line_map == [s for s, _ in doc.spans]
    checks = {
        "- **stop_secs**": '<ParamField path="stop_secs"',
        "- **params**": 'path="params"',
        "**[Guide]": 'title="Guide"',
        "Replace <your-api-key>": "Replace <your-api-key>",
        "> that the model supports.": "that the model supports.",
    }
    for cleaned, original in checks.items():
        i = _cleaned_line(doc.lines, cleaned)
        start, end = doc.spans[i]
        origin = _line_of(tricky_src, original)
        assert start <= origin <= end, (cleaned, doc.spans[i], origin)
    # the multi-line Card tag's lines (up to its closing ">") all belong to its title line
    i = _cleaned_line(doc.lines, "**[Guide]")
    card = (_line_of(tricky_src, "  <Card"), _line_of(tricky_src, 'href="/guides/vad"') + 1)
    assert doc.spans[i] == card
    # spans only move forward and stay inside the file
    starts = [s for s, _ in doc.spans]
    assert starts == sorted(starts)
    assert all(1 <= s <= e <= len(src) for s, e in doc.spans)


def test_unknown_lowercase_tags_and_comparisons_stay_text(tricky_src: str) -> None:
    text = clean_mdx(tricky_src).text
    assert "Replace <your-api-key> with a key when a < b holds." in text
    assert clean_mdx("See <https://example.com> and List<int>.\n").lines == [
        "See <https://example.com> and List<int>."
    ]


def test_html_links_keep_their_target() -> None:
    doc = clean_mdx('Read <a href="/x">the guide</a> <br/> now.\n')
    assert doc.lines == ["Read [the guide](/x)  now."]


def test_broken_markup_warns_and_never_crashes() -> None:
    doc = clean_mdx("<Note>\n  never closed\n\n```python\nx = 1\n")
    assert any("unclosed <Note>" in w for w in doc.warnings)
    assert any("unclosed code fence" in w for w in doc.warnings)
    assert "x = 1" in doc.lines
    stray = clean_mdx("</Tabs>\nText <Foo attr=\n")
    assert stray.lines[-1] == "Text <Foo attr="
    assert any("without an opening tag" in w for w in stray.warnings)


def test_many_broken_tags_make_one_warning_per_file_with_a_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from ctxhub.ingest.docs.chunks import chunk_doc_file

    src = "# Page\n\n" + "".join(f"<Note>\nopen {i}\n" for i in range(2000)) + "</Tabs>\n" * 3
    doc = clean_mdx(src)
    assert "2000 unclosed tags (first at line 3)" in doc.warnings
    assert "3 closing tags without an opening tag (first at line 4003)" in doc.warnings
    assert len(doc.warnings) == 2
    with caplog.at_level("WARNING", logger="ctxhub.ingest.docs.chunks"):
        chunk_doc_file("src", "x.mdx", src)
    [record] = caplog.records
    assert record.getMessage().startswith("x.mdx: 2000 unclosed tags (first at line 3)")
    one = clean_mdx("text\n<Note>\n  never closed\n")
    assert one.warnings == ["unclosed <Note> (line 2)"]
