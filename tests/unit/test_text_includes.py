"""Text includes: a page that is (or holds) `.. include::` / MyST's `{include}` of another
page carries that page's text, selected by the directive's options, read in its own
format, and never from outside the source."""

from __future__ import annotations

from ctxhub.ingest.docs.chunks import parse_doc_file
from ctxhub.ingest.docs.include_directives import Directive, resolve
from ctxhub.ingest.docs.include_select import NotSelected, select_code, select_text

HISTORY = """\
# History

Intro to the history.

## 2.0.0 (2024-01-02)

- Add `AcmeError`: every error of acme is one.

## 1.0.0 (2023-01-02)

- First release.
"""


class Reader:
    """The files of a source, recording every path a page asks for."""

    def __init__(self, files: dict[str, str]) -> None:
        self.files = files
        self.asked: list[str] = []

    def __call__(self, path: str) -> str | None:
        self.asked.append(path)
        return self.files.get(path)


def _text(result: object) -> str:
    return "\n".join(c.content for c in result.chunks)  # type: ignore[attr-defined]


def test_a_myst_page_that_is_only_an_include_carries_the_included_page() -> None:
    read = Reader({"HISTORY.md": HISTORY})
    page = "```{include} ../HISTORY.md\n\n```\n"
    result = parse_doc_file("s", "docs/history.md", page, include=read)
    assert result.error is None and not result.warnings
    text = _text(result)
    assert "Add `AcmeError`: every error of acme is one." in text and "{include}" not in text
    assert {c.title for c in result.chunks} == {"History"}  # the included page's H1
    sections = [c.section for c in result.chunks]
    assert "History > 2.0.0 (2024-01-02)" in sections and "History > 1.0.0 (2023-01-02)" in sections
    first = result.chunks[0]
    assert first.metadata.extra["includes"] == ["HISTORY.md"]
    assert (first.line_start, first.line_end) == (1, 1)  # the page's own directive line
    where = {c.section: c.metadata.extra["included_from"] for c in result.chunks}
    assert where["History > 1.0.0 (2023-01-02)"] == "HISTORY.md:9-11"  # the file's lines
    assert where["History > 2.0.0 (2024-01-02)"] == "HISTORY.md:1-7"  # the intro merged in
    (part,) = result.included_texts
    assert (part.path, part.first_line, part.text) == ("HISTORY.md", 1, HISTORY)


README = """\
# Acme

<!-- begin-teaser -->
Acme makes frames.
<!-- end-teaser -->

Not in the teaser.

<!-- begin-example -->
Example text.
<!-- end-example -->
"""


def test_colon_fences_and_yaml_options_select_part_of_the_file() -> None:
    page = (
        "# Home\n\n"
        ':::{include} ../README.md\n:start-after: "begin-teaser -->"\n'
        ':end-before: "<!-- end-teaser"\n:::\n\n'
        "```{include} ../README.md\n---\nstart-after: begin-example -->\n"
        "end-before: <!-- end-example\n---\n```\n\nThe end.\n"
    )
    result = parse_doc_file("s", "docs/index.md", page, include=Reader({"README.md": README}))
    text = _text(result)
    assert "Acme makes frames." in text and "Example text." in text and "The end." in text
    assert "Not in the teaser." not in text and "start-after" not in text
    assert [(t.first_line, t.text.strip()) for t in result.included_texts] == [
        (4, "Acme makes frames."),
        (10, "Example text."),
    ]
    assert result.chunks[0].title == "Home"


CHANGES = """\
Version 2.0
-----------

- Removed ``Old``.

Version 1.0
-----------

- First.
"""


def test_a_rst_include_nests_its_sections_under_the_page_section() -> None:
    page = "Changes\n=======\n\n.. include:: ../CHANGES.rst\n   :end-before: Version 1.0\n"
    result = parse_doc_file("s", "docs/changes.rst", page, include=Reader({"CHANGES.rst": CHANGES}))
    assert result.error is None
    sections = {c.section for c in result.chunks}
    assert "Changes > Version 2.0" in sections
    text = _text(result)
    assert "Removed `Old`." in text and "First." not in text and ".. include" not in text


def test_an_included_file_of_no_docs_suffix_is_read_as_the_including_page() -> None:
    page = "Notes\n=====\n\n.. include:: ../CHANGES.txt\n"
    result = parse_doc_file("s", "docs/notes.rst", page, include=Reader({"CHANGES.txt": CHANGES}))
    assert "Notes > Version 2.0" in {c.section for c in result.chunks}  # reST headings read


def test_nested_includes_resolve_from_each_included_file_and_stop_at_a_cycle() -> None:
    files = {
        "docs/a.md": "# A\n\n```{include} parts/b.md\n```\n",
        "docs/parts/b.md": "B text.\n\n```{include} c.md\n```\n",
        "docs/parts/c.md": "C text.\n\n```{include} ../a.md\n```\n",  # back to a: a cycle
    }
    result = parse_doc_file("s", "docs/a.md", files["docs/a.md"], include=Reader(files))
    text = _text(result)
    assert "B text." in text and "C text." in text
    assert text.count("B text.") == 1
    assert any("include cycle" in w for w in result.warnings)
    c_chunk = next(c for c in result.chunks if "C text." in c.content)
    assert c_chunk.metadata.extra["includes"] == ["docs/parts/b.md", "docs/parts/c.md"]


def test_an_include_leading_outside_the_source_is_refused_and_nothing_is_read() -> None:
    page = (
        "Guide\n=====\n\n.. include:: ../../../etc/passwd\n\n"
        ".. literalinclude:: ../../../../root/.ssh/id_rsa\n\nThe end.\n"
    )
    read = Reader({})
    result = parse_doc_file("s", "docs/guide.rst", page, include=read)
    assert read.asked == []  # not even asked for
    assert result.refused == [
        "../../../etc/passwd: resolves outside the source",
        "../../../../root/.ssh/id_rsa: resolves outside the source",
    ]
    assert any("include refused: ../../../etc/passwd" in w for w in result.warnings)
    assert "The end." in _text(result)


def test_a_snippet_from_a_url_is_refused() -> None:
    page = '# Page\n\n--8<-- "https://example.com/snippet.py"\n'
    read = Reader({})
    result = parse_doc_file("s", "docs/page.md", page, include=read)
    assert result.refused == ["https://example.com/snippet.py: a URL, not a file of the source"]
    assert read.asked == []


def test_a_root_relative_include_stays_inside_the_source() -> None:
    exists = {"docs/shared/note.md", "shared/other.md"}.__contains__
    rooted = Directive("/shared/note.md", text=True)
    assert resolve("docs/guide/page.md", rooted, exists).path == "docs/shared/note.md"
    outside = Directive("/etc/passwd", text=True)
    found = resolve("docs/page.md", outside, exists)
    assert found.path is None and found.missing and found.refused is None
    # a text include is relative to its page only; a code include is tried upwards
    assert resolve("docs/page.md", Directive("other.md", text=True), exists).missing
    assert resolve("docs/page.md", Directive("shared/other.md", text=False), exists).path == (
        "shared/other.md"
    )
    assert resolve("docs/x.rst", Directive("<isonum.txt>", text=True), exists) == type(found)()


def test_a_marker_the_file_lacks_includes_nothing_with_a_warning() -> None:
    page = "# P\n\n```{include} ../README.md\n:start-after: no such marker\n```\n\nAfter.\n"
    result = parse_doc_file("s", "docs/p.md", page, include=Reader({"README.md": README}))
    assert "Acme makes frames." not in _text(result) and "After." in _text(result)
    assert any("start-after text not found" in w for w in result.warnings)


def test_an_include_shown_in_a_code_block_stays_code() -> None:
    page = (
        "# How to include\n\n```rst\n.. include:: ../README.md\n   :start-line: 2\n\n"
        ".. literalinclude:: ../app.py\n```\n"
    )
    read = Reader({"README.md": README, "app.py": "import acme\n"})
    text = _text(parse_doc_file("s", "docs/how.md", page, include=read))
    assert ".. include:: ../README.md\n   :start-line: 2" in text
    assert ".. literalinclude:: ../app.py" in text
    assert "Acme makes" not in text and "import acme" not in text and read.asked == []


def test_without_a_reader_the_directive_stays_and_its_options_go() -> None:
    page = "Guide\n=====\n\n.. include:: ../CHANGES.rst\n   :start-line: 2\n\nText.\n"
    text = _text(parse_doc_file("s", "docs/guide.rst", page))
    assert ".. include:: ../CHANGES.rst" in text and "start-line" not in text


def test_literal_includes_are_code_and_literalinclude_options_select_lines() -> None:
    code = "import acme\n\n# start\napp = acme.App()\napp.run()\n# end\nprint('done')\n"
    page = (
        "Guide\n=====\n\n.. literalinclude:: ../app.py\n   :start-after: # start\n"
        "   :end-before: # end\n\n.. include:: ../app.py\n   :literal:\n   :start-line: 6\n"
    )
    result = parse_doc_file("s", "docs/guide.rst", page, include=Reader({"app.py": code}))
    text = _text(result)
    assert "```python\napp = acme.App()\napp.run()\n```" in text
    assert "```python\nprint('done')\n```" in text


def test_selection_options_follow_docutils_and_sphinx() -> None:
    text = "one\ntwo\nthree\nfour\n"
    assert select_text(text, {"start-line": "1", "end-line": "3"}).text == "two\nthree\n"
    part = select_text(text, {"start-after": "two", "end-before": "four"})
    assert (part.text, part.first_line) == ("three\n", 3)
    assert select_code(text, {"lines": "2-3"}).text == "two\nthree"
    assert select_code(text, {"start-at": "two", "end-at": "three"}).first_line == 2
    try:
        select_code(text, {"lines": "x"})
    except NotSelected as e:
        assert "no line range" in str(e)
    else:
        raise AssertionError("a bad :lines: selects nothing")
