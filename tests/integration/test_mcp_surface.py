"""What a client sees beyond each tool's answer, through the official MCP client over
stdio: doc pages opened as examples, budgets that cover the whole response, metadata
written for people, and the prompts and resources the server declares."""

from __future__ import annotations

from typing import Any

import pytest

from ctxhub.core.outputs import ExampleBundle
from tests.integration.test_mcp_tools import error_text, ok, search

pytestmark = pytest.mark.integration


def test_get_example_opens_the_doc_pages_search_examples_returns(mcp: Any) -> None:
    found = search(ok(mcp.call("search_examples", {"query": "install quickstart"})))
    doc = next(h for h in found.hits if h.kind == "doc")
    api = search(ok(mcp.call("search_api", {"query": "speech service", "limit": 1}))).hits[0]
    page, as_example, small, refused = mcp.calls(
        ("get_doc", {"doc_id": doc.id}),
        ("get_example", {"example_id": doc.id}),
        ("get_example", {"example_id": doc.id, "max_tokens": 300}),
        ("get_example", {"example_id": api.id}),
    )
    bundle = ExampleBundle.model_validate(ok(as_example))
    # the example is the page: one file, the page's path and whole content
    assert [f.path for f in bundle.files] == [doc.path] and not bundle.omitted
    assert bundle.files[0].content == ok(page)["content"]
    assert bundle.source == doc.source and bundle.taxonomy["kind"] == "doc page"
    assert bundle.taxonomy["url"] == doc.url and "get_doc" in (bundle.summary or "")
    assert as_example.content[0].text.startswith(f"# example {bundle.name}")
    tight = ExampleBundle.model_validate(ok(small))
    assert tight.files[0].truncated and len(tight.files[0].content) < len(bundle.files[0].content)
    # an API id is refused, saying precisely which tool opens it
    assert error_text(refused) == (
        f"not found: {api.id!r} is an API definition ({api.symbol}), not an example; "
        f"open it with get_code_snippet(chunk_id={api.id!r})"
    )
