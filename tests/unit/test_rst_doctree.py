"""reST pages through docutils: readable roles and directives, code kept whole, every
chunk citing the page's own lines, and odd pages still indexed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from docutils import nodes  # type: ignore[import-untyped]

from ctxhub.core.knowledge import Chunk
from ctxhub.ingest.docs.chunks import chunk_doc_file, parse_doc_file
from ctxhub.ingest.docs.rst_doctree import clean_rst, parse_rst

PAGE = """\
.. _meta-options:

==============================================
Custom `class Meta <marshmallow.Schema.Meta>`_ options
==============================================

.. currentmodule:: marshmallow

Set :attr:`~marshmallow.Schema.Meta.unknown` to :data:`EXCLUDE`, or see
:class:`Meta <marshmallow.Schema.Meta>` and :ref:`the guide <guide>`.

This introduction is long enough to stand as a section of its own, so that the
next section starts at its own heading and not at the title of the page.

.. toctree::
   :maxdepth: 2

   hidden_page

Loading with :meth:`~marshmallow.Schema.load`
---------------------------------------------

.. versionadded:: 3.0

.. deprecated:: 3.24 Use :func:`marshmallow.load` instead.

.. note::

   Unknown fields raise by default.

.. seealso:: :doc:`quickstart`

.. code-block:: python
   :caption: schema.py
   :emphasize-lines: 2

   class Meta:
       unknown = EXCLUDE

Constants
---------

.. data:: EXCLUDE

   Exclude unknown fields.

.. autoclass:: marshmallow.Schema
   :members:

.. tab:: Python

   Run :issue:`123` with :py:attr:`~a.b.strict`.

Install it::

    Not a title
    ===========
    pip install marshmallow
"""


def _chunks(page: str = PAGE) -> list[Chunk]:
    return chunk_doc_file("m", "docs/meta.rst", page)


def _src(page: str = PAGE) -> list[str]:
    return page.split("\n")


def test_headings_read_without_markup() -> None:
    chunks = _chunks()
    assert {c.title for c in chunks} == {"Custom class Meta options"}
    sections = [c.section for c in chunks]
    assert "Custom class Meta options > Loading with load" in sections
    assert "Custom class Meta options > Constants" in sections
    assert all("`" not in (s or "") and ":meth:" not in (s or "") for s in sections)


def test_roles_read_as_text_keeping_api_targets() -> None:
    text = "\n".join(c.content for c in _chunks())
    # in body text the qualified name stays: it is what a search for the API matches
    assert "Set marshmallow.Schema.Meta.unknown to EXCLUDE" in text
    assert "Meta (marshmallow.Schema.Meta) and the guide." in text
    assert "Run 123 with a.b.strict." in text  # a project's own role, py:attr
    assert ":attr:" not in text and ":ref:" not in text and ":issue:" not in text


def test_directives_read_as_text() -> None:
    text = "\n".join(c.content for c in _chunks())
    assert "Added in version 3.0" in text
    assert "Deprecated since version 3.24: Use marshmallow.load instead." in text
    assert "Note: Unknown fields raise by default." in text
    assert "See also: quickstart" in text
    assert "data EXCLUDE\n\nExclude unknown fields." in text
    assert "class marshmallow.Schema" in text
    assert "Tab: Python" in text
    for gone in ("toctree", "hidden_page", ":maxdepth:", "currentmodule", ":members:", ".. "):
        assert gone not in text


def test_code_blocks_are_whole_fenced_and_keep_their_language() -> None:
    chunks = _chunks()
    (code,) = [c for c in chunks if "unknown = EXCLUDE" in c.content]
    assert "```python\nclass Meta:\n    unknown = EXCLUDE\n```" in code.content
    assert code.metadata.extra["code_languages"] == ["python"]
    assert ":caption:" not in code.content
    (literal,) = [c for c in chunks if "pip install" in c.content]
    # an underlined line inside a literal block is code, not a title
    assert "```\nNot a title\n===========\npip install marshmallow\n```" in literal.content
    assert all("Not a title" not in (c.section or "") for c in chunks)


def test_chunks_cite_the_lines_of_the_rst_file() -> None:
    src = _src()
    by_section = {c.section: c for c in _chunks()}
    loading = by_section["Custom class Meta options > Loading with load"]
    assert src[loading.line_start - 1].startswith("Loading with :meth:")
    assert src[loading.line_end - 1] == "       unknown = EXCLUDE"
    constants = by_section["Custom class Meta options > Constants"]
    assert src[constants.line_start - 1] == "Constants"
    assert src[constants.line_end - 1] == "    pip install marshmallow"
    first = min((c for c in by_section.values()), key=lambda c: c.line_start or 0)
    assert (first.line_start, src[first.line_start - 1][:3]) == (3, "===")  # the overline


def test_every_cleaned_line_points_at_its_source_line() -> None:
    doc, syntax = clean_rst(PAGE)
    src = _src()
    assert syntax == "markdown" and not doc.warnings
    seen = set()
    for line, (start, end), bid, marker in zip(
        doc.lines, doc.spans, doc.block, doc.marker, strict=True
    ):
        if bid >= 0 and not marker:
            assert src[start - 1].strip() == line.strip()
            seen.add("code")
        elif line.startswith("Set "):
            assert (start, end) == (9, 9)  # a paragraph keeps its source lines
            seen.add("para")
        elif line.startswith("Meta (marshmallow"):
            assert (start, end) == (10, 10)
            seen.add("para2")
        elif line.startswith("Note: "):
            assert (src[start - 1], src[end - 1].strip()) == (".. note::", line[6:])
            seen.add("note")
        elif line.startswith("## "):
            assert src[start - 1].startswith(line[3:9]) and set(src[end - 1]) == {"-"}
            seen.add("heading")
    assert seen == {"code", "para", "para2", "note", "heading"}


def test_where_docutils_puts_line_numbers() -> None:
    """What rst_render.py relies on; a docutils release that changes it fails here."""
    page = (
        "Title\n=====\n\nPara one\nline two.\n\n- item\n\n"
        "Intro::\n\n    code\n\n.. note::\n\n   x\n"
    )
    doc = parse_rst(page)
    title = next(iter(doc.findall(nodes.title)))
    para = next(iter(doc.findall(nodes.paragraph)))
    item = next(iter(doc.findall(nodes.list_item)))
    literal = next(iter(doc.findall(nodes.literal_block)))
    note = next(iter(doc.findall(nodes.note)))
    assert title.line == 2  # the underline, not the title text
    assert (para.line, item.line, literal.line, note.line) == (4, 7, 11, 13)


def test_a_page_docutils_fails_on_still_indexes_with_a_warning() -> None:
    page = "Deep\n====\n\n" + "- " * 200 + "bottom\n\nAfter the list.\n"
    result = parse_doc_file("m", "docs/deep.rst", page)
    assert result.error is None and result.chunks
    assert any("reST parser failed (RecursionError" in w for w in result.warnings)
    assert "After the list." in result.chunks[-1].content
    assert result.chunks[0].title == "Deep"


def test_a_construct_docutils_rejects_keeps_its_text_with_a_warning() -> None:
    page = "A\n===\n\nB\n---\n\nC\n~~~\n\nx\n\nE\n===\n\nLost title\n~~~~~~~~~~\n\nafter\n"
    result = parse_doc_file("m", "docs/odd.rst", page)
    assert result.error is None
    assert any(w.startswith("reST line 15: Inconsistent title style") for w in result.warnings)
    text = "\n".join(c.content for c in result.chunks)
    assert "Lost title" in text and "after" in text


def test_a_sphinx_class_description_reads_as_its_signature() -> None:
    # Sphinx's default domain makes `.. class::` the Python class directive; docutils' own
    # `class` (CSS classes, `rst-class` under Sphinx) rejected the signature as an error
    page = (
        "Client\n======\n\n"
        ".. class:: ClientSession(base_url=None, *, \\\n"
        "                         connector=None, cookies=None)\n\n"
        "   The class for creating client sessions.\n\n"
        ".. rst-class:: wide\n\nA paragraph after.\n"
    )
    result = parse_doc_file("m", "docs/client.rst", page)
    assert result.error is None and result.warnings == []
    text = "\n".join(c.content for c in result.chunks)
    assert "class ClientSession(base_url=None, *, connector=None, cookies=None)" in text
    assert "The class for creating client sessions." in text
    assert "A paragraph after." in text and ".. " not in text and "\\" not in text


def test_parsing_prints_nothing_and_reads_no_file(
    capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("s3cr3t-content\n")
    page = (
        f"T\n=\n\n.. include:: {secret}\n\n.. raw:: html\n\n   <b>raw</b>\n\n"
        f".. csv-table::\n   :file: {secret}\n\n*unclosed and :unknown:`role`\n\n"
        ".. image:: x.png\n   :bogus: 1\n\nThe end.\n"
    )
    result = parse_doc_file("m", "docs/x.rst", page)
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")
    text = "\n".join(c.content for c in result.chunks)
    assert "The end." in text
    assert "s3cr3t" not in text and "<b>raw</b>" not in text
    assert "*unclosed and role" in text


def test_literalinclude_reads_through_the_include_reader() -> None:
    page = "Guide\n=====\n\n.. literalinclude:: ../src/app.py\n   :language: python\n"
    files = {"src/app.py": "def root():\n    return 'hi'\n"}
    (chunk,) = chunk_doc_file("m", "docs/guide.rst", page, include=files.get)
    assert "```python\ndef root():" in chunk.content
    assert "literalinclude" not in chunk.content
    assert chunk.metadata.extra["includes"] == ["src/app.py"]
    assert (chunk.line_start, chunk.line_end) == (1, 4)


def test_docutils_is_imported_only_for_rst_pages() -> None:
    code = (
        "import sys\n"
        "from ctxhub.ingest.docs.chunks import chunk_doc_file\n"
        "chunk_doc_file('m', 'a.md', '# A\\n\\ntext\\n')\n"
        "assert 'docutils' not in sys.modules\n"
        "chunk_doc_file('m', 'a.rst', 'A\\n=\\n\\ntext\\n')\n"
        "assert 'docutils' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_projects_directive_holding_code_stays_code() -> None:
    page = (
        "Aliases\n=======\n\n.. click:example::\n\n    @click.group()\n    def cli():\n"
        "        pass\n\n.. click:run::\n\n    invoke(cli, args=['--help'])\n"
    )
    (chunk,) = chunk_doc_file("c", "docs/advanced.rst", page)
    assert "```python\n@click.group()\ndef cli():\n    pass\n```" in chunk.content
    assert "```python\ninvoke(cli, args=['--help'])\n```" in chunk.content
    assert chunk.metadata.extra["code_languages"] == ["python"]
    assert (chunk.line_start, chunk.line_end) == (1, 12)


def test_relative_references_read_without_their_leading_dot() -> None:
    # Sphinx's `.Cls.method` only says "search the current module first": it shows and
    # points at `Cls.method`; `~.Cls.method` shows `method`
    page = (
        "Hooks\n=====\n\n"
        "The :paramref:`.Env.configure.include_object` hook, :meth:`~.Env.run` and\n"
        ":class:`the context <.Env>`.\n\n"
        "Heading :meth:`~.Env.run`\n------------------------\n\ntext\n"
    )
    chunks = _chunks(page)
    text = " ".join(" ".join(c.content for c in chunks).split())
    assert "The Env.configure.include_object hook, Env.run and the context (Env)." in text
    assert " .Env" not in text and "(.Env" not in text
    assert "Hooks > Heading run" in {c.section for c in chunks}


def test_a_seealso_whose_text_starts_with_its_label_says_it_once() -> None:
    page = (
        "Guide\n=====\n\n.. seealso:: See also:\n   :ref:`Quick <quick>`, and more.\n\n"
        ".. seealso::\n\n   See Also:\n   the tutorial.\n\n.. seealso:: :ref:`guide`\n\n"
        ".. note:: Note that it runs.\n"
    )
    text = "\n".join(c.content for c in _chunks(page))
    assert "See also: Quick, and more." in text
    assert "See Also:\nthe tutorial." in text and "See also: See Also" not in text
    assert "See also: guide" in text
    assert "Note: Note that it runs." in text  # the label only when the text says it
