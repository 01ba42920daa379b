"""A doc chunk whose text comes from an included file (`.. literalinclude::`) says where
that text is: the included file and its lines, which the page's own lines (the directive's)
do not show; the citation survives a tight budget and leads the hit's text."""

from __future__ import annotations

from ctxhub.core.knowledge import Hit
from ctxhub.ingest.docs.chunks import parse_doc_file
from ctxhub.search.budget import slim_metadata, to_hits
from ctxhub.search.rank import Candidate
from ctxhub.tools.render import render_hit

APP = "\n".join(
    f"def handler_{i}(req, resp):\n    resp.media = {{'n': {i}, 'what': 'a long example'}}\n"
    for i in range(90)
)
PAGE = """\
Quickstart
==========

A More Complex Example
----------------------

Here is a more involved example that demonstrates reading headers and query
parameters, handling errors, and working with request and response bodies.

.. literalinclude:: ../../examples/app.py
    :language: python

Run it with any WSGI server.
"""


def _chunks() -> list:  # type: ignore[type-arg]
    files = {"examples/app.py": APP}
    result = parse_doc_file("s", "docs/user/quickstart.rst", PAGE, include=files.get)
    assert result.error is None
    return result.chunks


def _lines(cite: str) -> tuple[str, int, int]:
    path, lines = cite.rsplit(":", 1)
    start, _, end = lines.partition("-")
    return path, int(start), int(end or start)


def test_every_chunk_with_included_text_names_the_files_lines_it_shows() -> None:
    chunks = _chunks()
    app = APP.split("\n")
    whole = [c for c in chunks if "included_from" in c.metadata.extra]
    mixed = [c for c in chunks if "included_parts" in c.metadata.extra]
    assert whole and mixed
    for chunk in whole:  # all its text is the file's: those lines are the text
        path, start, end = _lines(chunk.metadata.extra["included_from"])
        assert path == "examples/app.py"
        shown = [ln for ln in chunk.content.split("\n") if ln.strip() and not ln.startswith("```")]
        assert shown[0] == app[start - 1] and shown[-1] == app[end - 1]
        assert chunk.line_start == chunk.line_end == 10  # the directive's line of the page
    # the page's prose and the start of the file: the page's lines, and the file's too
    first = mixed[0]
    assert "more involved example" in first.content and "def handler_0" in first.content
    [part] = first.metadata.extra["included_parts"]
    path, start, end = _lines(part)
    assert (path, start) == ("examples/app.py", 1) and app[end - 1] in first.content
    assert first.line_start is not None and first.line_start <= 10 <= (first.line_end or 0)


def test_the_hit_cites_the_included_file_first_and_keeps_it_when_slimmed() -> None:
    hit = Hit(
        id="c57c406def335620",
        kind="doc",
        source="sdist",
        path="docs/user/quickstart.rst",
        line_start=88,
        line_end=88,
        snippet="body = req.bounded_stream.read()",
        metadata={"chunk_type": "section", "included_from": "examples/app.py:106-173"},
    )
    cite = render_hit(1, hit).split("\n")[1]
    assert cite.startswith("id c57c406def335620 · sdist:examples/app.py:106-173 · ")
    assert "included by docs/user/quickstart.rst:88" in cite
    assert slim_metadata({**hit.metadata, "tokens": 500})["included_from"] == (
        "examples/app.py:106-173"
    )
    parts = hit.model_copy(
        update={"metadata": {"included_parts": ["examples/app.py:1-40"], "tokens": 9}}
    )
    assert "includes examples/app.py:1-40" in render_hit(1, parts)
    assert slim_metadata(parts.metadata)["included_parts"] == ["examples/app.py:1-40"]


def test_a_search_hit_carries_where_its_included_lines_are() -> None:
    chunk = next(c for c in _chunks() if "included_parts" in c.metadata.extra)
    [part] = chunk.metadata.extra["included_parts"]  # where the window is cut: packing's
    assert part.startswith("examples/app.py:1-")
    [hit] = to_hits([Candidate(chunk=chunk, fused=1.0, signals={})], 1.0, 8000).hits
    assert hit.metadata["included_parts"] == [part]
    assert f"includes {part}" in render_hit(1, hit).split("\n")[1]
