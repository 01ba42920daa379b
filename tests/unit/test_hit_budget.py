"""Responses within a token budget when definitions carry long signatures (parameters
documented inside `Annotated[..., Doc("...")]`): the code and the other hits fit, and a
list the budget cut says so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.core.budget import elide_signature, estimate_tokens
from ctxhub.core.knowledge import Hit, SearchResponse
from ctxhub.search.budget import SIGNATURE_CHARS, to_hits
from ctxhub.search.rank import Candidate
from ctxhub.session import HubSession
from ctxhub.tools import code_tools, render
from ctxhub.tools.fit import fit_search
from tests.conftest import make_chunk
from tests.unit.package_hub import tree_hub

DOC = "Explains this parameter at length. " * 40


def _long_signature(n: int = 25) -> str:
    params = ", ".join(f"p{i}: Annotated[str | None, Doc({DOC!r})] = None" for i in range(n))
    return f"def option({params}) -> Any"


def test_elide_signature_drops_long_literals_then_parameters() -> None:
    sig = _long_signature()
    short = elide_signature(sig, 400)
    assert len(short) <= 400 and len(sig) > 30_000
    assert short.startswith("def option(p0: Annotated[str | None, Doc('…')] = None, p1:")
    assert short.endswith(", …) -> Any")
    assert elide_signature("def f(a, b='x')", 400) == "def f(a, b='x')"
    quoted = "def f(a=\"it's " + "long " * 20 + '", b=1)'
    assert elide_signature(quoted, 20) == 'def f(a="…", b=1)'  # the apostrophe is inside


def _candidates(n: int) -> list[Candidate]:
    body = "\n".join(f"    line_{i} = compute({i})" for i in range(40))
    return [
        Candidate(
            chunk=make_chunk(
                symbol=f"pkg.params.option{i}",
                content=f"def option{i}(...):\n{body}",
                chunk_type="function",
                signature=_long_signature(),
                module="pkg.params",
                return_type="Any",
            ),
            fused=1.0 / (i + 1),
            signals={},
        )
        for i in range(n)
    ]


def test_long_signatures_leave_room_for_the_code_and_the_other_hits() -> None:
    hits, truncated, left_out = to_hits(_candidates(10), 1.0, max_tokens=4800)
    assert len(hits) == 10 and left_out == 0
    for hit in hits:
        assert len(hit.metadata["signature"]) <= SIGNATURE_CHARS
        assert hit.snippet.startswith("def option") and "line_3" in hit.snippet
    assert truncated  # the snippets' tails


def test_a_tight_budget_slims_metadata_then_counts_the_hits_it_drops() -> None:
    hits, truncated, left_out = to_hits(_candidates(3), 1.0, max_tokens=360)
    assert truncated and 1 <= len(hits) < 3 and left_out == 3 - len(hits)
    assert all(h.metadata.get("trimmed") and "module" not in h.metadata for h in hits)
    assert all("line_0" in h.snippet for h in hits)  # each kept hit shows its first lines


def _response(n: int, left_out: int = 0) -> SearchResponse:
    hits = [
        Hit(id=f"id{i}", kind="api", source="s", path="p.py", metadata={"bases": ["B"] * 40})
        for i in range(n)
    ]
    return SearchResponse(
        query="q", hits=hits, confidence=0.5, low_confidence=False, left_out=left_out
    )


def test_fit_search_counts_the_hits_it_asked_away_and_the_text_says_so() -> None:
    response = fit_search(lambda limit: _response(min(limit, 8), left_out=2), 10, 1000)
    assert len(response.hits) < 8 and response.left_out == 10 - len(response.hits)
    head = render.search_response(response).split("\n", 1)[0]
    assert f"{response.left_out} more left out to fit max_tokens" in head
    assert "raise max_tokens" in head
    assert fit_search(lambda limit: _response(2), 2, 8000).left_out == 0


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    params = "".join(
        f'    p{i}: Annotated[\n        str | None,\n        Doc(\n            """\n'
        + "            Explains this parameter at length.\n" * 30
        + '            """\n        ),\n    ] = None,\n'
        for i in range(20)
    )
    body = "".join(f"    value_{i} = p0 or {i}\n" for i in range(10))
    module = (
        "from typing import Annotated, Any\n\nfrom annotated_doc import Doc\n\n\n"
        f"def option(\n{params}) -> Any:\n{body}    return value_9\n"
    )
    with tree_hub(tmp_path, "pkg", {"pkg/__init__.py": "", "pkg/params.py": module}) as h:
        yield h


@pytest.mark.parametrize("max_tokens", [500, 8000])
def test_a_snippet_shows_the_code_before_its_long_signature(
    hub: HubSession, max_tokens: int
) -> None:
    snippet = code_tools.get_code_snippet(hub, symbol="pkg.params.option", max_tokens=max_tokens)
    assert snippet.code.startswith("def option(\n    p0: Annotated[")
    assert estimate_tokens(snippet.model_dump_json()) <= max_tokens
    if max_tokens == 8000:
        assert snippet.signature and len(snippet.signature) <= SIGNATURE_CHARS


def test_a_signature_that_fills_max_lines_is_folded_so_the_body_shows(hub: HubSession) -> None:
    snippet = code_tools.get_code_snippet(hub, symbol="pkg.params.option")
    lines = snippet.code.splitlines()
    assert lines[0] == "def option(" and snippet.truncated
    assert "    return value_9" in lines and snippet.line_end == snippet.full_line_end
    [marker] = [line for line in lines if "(the rest of the signature) left out" in line]
    first = snippet.line_start + 6
    assert f"lines {first}-" in marker and f"line_start={first}" in marker
    assert lines[lines.index(marker) + 1] == ") -> Any:"
    # a window by path and line range is the exact source, never folded
    window = code_tools.get_code_snippet(hub, path="pkg/params.py", line_start=first)
    assert "left out" not in window.code and window.line_start == first
