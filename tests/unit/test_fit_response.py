"""A response fits `max_tokens` as the client receives it, structured content and text
together, and the text keeps every citation: it is rendered from the structured content,
whose shared texts are cut evenly on line boundaries; metadata gives way first; only
citations may go over (tools/fit.py, core/budget.py)."""

from __future__ import annotations

from typing import Any

import pytest

from ctxhub.core.budget import CUT_MARK, token_chars, trim_lines
from ctxhub.core.knowledge import Hit, SearchResponse
from ctxhub.core.outputs import CodeSnippet, DocPage, ExampleBundle, ExampleFile
from ctxhub.tools import render
from ctxhub.tools.fit import fit_response, sent_chars, structured_budget
from ctxhub.tools.fold import last_line_shown

CODE = "\n".join(f"    value_{i} = compute_something_long({i})  # step {i}" for i in range(60))


def _hits(n: int, metadata: dict[str, Any] | None = None) -> dict[str, Any]:
    hits = [
        Hit(
            id=f"{i:016x}",
            kind="api",
            source="pkg",
            path=f"pkg/mod{i}.py",
            symbol=f"pkg.mod{i}.handler",
            line_start=10 * i + 1,
            line_end=10 * i + 60,
            version="1.2.3",
            snippet=f"def handler_{i}(request):\n{CODE}",
            metadata=dict(metadata or {}),
        )
        for i in range(n)
    ]
    response = SearchResponse(query="handler", hits=hits, confidence=0.8, low_confidence=False)
    return response.model_dump(mode="json")


def _fit(data: dict[str, Any], max_tokens: int) -> tuple[SearchResponse, str]:
    output, _, text = fit_response(render.search_response, SearchResponse, data, max_tokens)
    assert isinstance(output, SearchResponse)
    return output, text


@pytest.mark.parametrize("max_tokens", [1500, 3000, 6000])
def test_snippets_are_cut_evenly_on_lines_and_every_citation_stays(max_tokens: int) -> None:
    data = _hits(5)
    original = [h["snippet"] for h in data["hits"]]
    output, text = _fit(data, max_tokens)
    assert sent_chars(data, text) <= token_chars(max_tokens)
    assert output.truncated and text.endswith("open a hit by its id for the rest)")
    lengths = []
    for hit, whole in zip(output.hits, original, strict=True):
        # the citation line, whole, in the text
        assert f"id {hit.id} · pkg:{hit.path}:{hit.line_start}-{hit.line_end} · v1.2.3" in text
        kept = hit.snippet.removesuffix("\n" + CUT_MARK)
        assert hit.snippet.endswith(CUT_MARK) and whole.startswith(kept + "\n")  # whole lines
        assert kept in text  # the text shows what the structured content holds
        lengths.append(len(kept))
    assert max(lengths) - min(lengths) < 100  # evenly: no hit loses its code to another


def test_at_the_floor_the_citations_are_sent_whole_over_the_budget() -> None:
    data = _hits(3, {"chunk_type": "function", "calls": ["a", "b"] * 30})
    output, text = _fit(data, 200)
    for hit in output.hits:
        assert hit.snippet == CUT_MARK and hit.metadata == {
            "chunk_type": "function",
            "trimmed": True,
        }
        assert f"## {output.hits.index(hit) + 1}. [api] {hit.symbol}" in text
        assert f"id {hit.id} · pkg:{hit.path}:{hit.line_start}-{hit.line_end}" in text
    # over only by what the citations take: nothing else is left to cut
    assert sent_chars(data, text) > token_chars(200)


def test_metadata_gives_way_before_the_code() -> None:
    data = _hits(1, {"chunk_type": "function", "calls": [f"call_{i}" for i in range(150)]})
    whole = data["hits"][0]["snippet"]
    slim = _hits(1, {"chunk_type": "function", "trimmed": True})
    needed = sent_chars(slim, render.search_response(SearchResponse.model_validate(slim)))
    rendered = render.search_response(SearchResponse.model_validate(data))
    assert sent_chars(data, rendered) > needed + 300
    # room for the code once the call list goes, not for both
    output, _ = _fit(data, needed // 3 + 1)
    assert output.hits[0].metadata == {"chunk_type": "function", "trimmed": True}
    assert output.hits[0].snippet == whole


def test_cut_code_cites_the_last_line_it_shows() -> None:
    snippet = CodeSnippet(
        id="c0de",
        source="pkg",
        path="pkg/mod.py",
        kind="api",
        resolution="exact",
        line_start=100,
        line_end=160,
        full_line_start=100,
        full_line_end=160,
        truncated=False,
        code=f"def handler(request):\n{CODE}",
    )
    data = snippet.model_dump(mode="json")
    output, _, text = fit_response(render.code_snippet, CodeSnippet, data, 700)
    assert isinstance(output, CodeSnippet) and output.truncated
    shown = output.code.removesuffix("\n" + CUT_MARK).splitlines()
    assert output.line_end == 100 + len(shown) - 1 < 160
    assert f"lines 100-{output.line_end} of 100-160 (truncated)" in text
    assert sent_chars(data, text) <= token_chars(700)


def test_a_fold_marker_counts_the_lines_it_leaves_out() -> None:
    folded = "def f(\n    a,\n    # … lines 3-40 (the rest of the signature) left out; …\n):\n    x"
    assert last_line_shown(folded, 1) == 42
    assert last_line_shown(folded + "\n" + CUT_MARK, 1) == 42
    assert last_line_shown(CUT_MARK, 7) is None


def test_a_cut_page_keeps_whole_lines_and_says_how_to_read_on() -> None:
    body = "# Sandbox\n\n" + "\n".join(
        f"Sentence {i} of the page says something. And another thing." for i in range(40)
    )
    page = DocPage(id="d0c", source="docs", path="sandbox.rst", title="Sandbox", content=body)
    data = page.model_dump(mode="json")
    output, _, text = fit_response(render.doc_page, DocPage, data, 400)
    assert isinstance(output, DocPage) and output.truncated
    kept = output.content.removesuffix("\n" + CUT_MARK)
    assert body.startswith(kept + "\n") and kept.count("\n") >= 3  # more than the heading
    assert text.endswith(
        "(cut to fit max_tokens: raise max_tokens to read on, or read one section with section=...)"
    )
    assert sent_chars(data, text) <= token_chars(400)


def test_an_examples_files_give_way_before_its_summary_and_taxonomy_to_its_citations() -> None:
    summary = " ".join(f"Sentence {i} about the example and how to run it." for i in range(8))
    bundle = ExampleBundle(
        id="e1",
        source="ex",
        name="hello",
        path="examples/hello",
        summary=summary,
        taxonomy={"kind": "example", "entry_point": "hello.py", "reasons": "x" * 600},
        files=[ExampleFile(path=f"hello{i}.py", content=CODE) for i in range(2)],
    )
    data = bundle.model_dump(mode="json")
    output, _, text = fit_response(render.example_bundle, ExampleBundle, data, 700)
    assert isinstance(output, ExampleBundle) and output.summary == summary
    assert output.taxonomy == {"kind": "example", "entry_point": "hello.py"}
    for file in output.files:
        assert file.truncated and CODE.startswith(file.content.removesuffix("\n" + CUT_MARK))
        assert f"=== {file.path} (truncated)" in text
    assert sent_chars(data, text) <= token_chars(700)


@pytest.mark.parametrize(
    ("text", "room", "expected"),
    [
        ("line one\nline two\nline three", 20, "line one\nline two\n…"),
        ("a first long line of code(x, y)", 10, "…"),  # no line fits: only the mark
        (
            "# T\n\nOne sentence here. Two sentences here. Three.",
            40,
            "# T\n\nOne sentence here.\n…",
        ),
    ],
)
def test_shown_content_is_cut_on_a_line_or_sentence_boundary(
    text: str, room: int, expected: str
) -> None:
    assert trim_lines(text, room) == (expected, True)
    assert len(expected) <= room


def test_the_budget_is_shared_with_the_structured_content() -> None:
    assert structured_budget(8000, search=True) == 4800
    assert structured_budget(8000, search=False) == 4000
    assert structured_budget(200, search=True) == 200  # the tools' own minimum
