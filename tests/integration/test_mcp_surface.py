"""What a client sees beyond each tool's answer, through the official MCP client over
stdio: doc pages opened as examples, budgets that cover the whole response, metadata
written for people, and the prompts and resources the server declares."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from mcp.client.session import ClientSession

from ctxhub.core.budget import estimate_tokens
from ctxhub.core.outputs import ExampleBundle
from tests.integration.conftest import run_ctxhub
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


#: Names only one framework uses: generic descriptions must not lean on them.
FRAMEWORK_SPECIFIC = re.compile(r"pipecat|server/services|frame class|\['tts'\]", re.IGNORECASE)


def _descriptions(schema: dict[str, Any]) -> list[str]:
    """Every `description` inside a JSON schema."""
    found: list[str] = []
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "description" and isinstance(value, str):
                found.append(value)
            else:
                found.extend(_descriptions(value))
    elif isinstance(schema, list):
        for item in schema:
            found.extend(_descriptions(item))
    return found


def _mid_sentence_breaks(text: str) -> list[str]:
    """Line breaks that are not paragraph breaks (a blank line), with their context."""
    return [
        text[max(0, m.start() - 30) : m.end() + 30] for m in re.finditer(r"(?<!\n)\n(?!\n)", text)
    ]


def test_metadata_is_written_for_people(mcp: Any) -> None:
    async def body(session: ClientSession) -> tuple[Any, Any, str | None, Any, Any]:
        return (
            await session.list_tools(),
            session.server_info,
            session.instructions,
            await session.list_prompts(),
            await session.list_resource_templates(),
        )

    listed, info, instructions, prompts, templates = mcp.run(body)
    texts: dict[str, str] = {"instructions": instructions or ""}
    for tool in listed.tools:
        assert tool.title and tool.title != tool.name, tool.name
        texts[tool.name] = tool.description or ""
        for i, text in enumerate(_descriptions(tool.input_schema)):
            texts[f"{tool.name} argument {i}"] = text
    for prompt in prompts.prompts:
        texts[f"prompt {prompt.name}"] = prompt.description or ""
    for template in templates.resource_templates:
        texts[f"resource {template.name}"] = template.description or ""
    assert len(texts) > 60
    for where, text in texts.items():
        assert text.strip(), where
        assert not _mid_sentence_breaks(text), (where, _mid_sentence_breaks(text))
        assert not FRAMEWORK_SPECIFIC.search(text), (where, text)
    # serverInfo says what the server offers: knowledge and memory
    assert info is not None and info.name == "ctxhub"
    assert info.description and "memory" in info.description and "docs" in info.description
    titles = {tool.name: tool.title for tool in listed.tools}
    assert titles["search_api"] == "Search the Python API"
    assert titles["log_solution"] == "Log a solution"
    assert all(titles.values())  # every tool has a title


def test_serve_help_says_what_the_server_offers(indexed_home: Path) -> None:
    shown = run_ctxhub(indexed_home, "serve", "--help").stdout
    summary = " ".join(shown.split())
    assert "framework knowledge (docs, API, examples) and solution memory" in summary
    assert "Tools, resources and prompts" in summary


def test_declared_prompts_and_resources_work(mcp: Any) -> None:
    page_uri = "ctxhub://doc/chime-docs/guides/quickstart.mdx"

    async def body(session: ClientSession) -> dict[str, Any]:
        out: dict[str, Any] = {"capabilities": session.server_capabilities}
        out["resources"] = await session.list_resources()
        out["templates"] = await session.list_resource_templates()
        out["status"] = await session.read_resource("ctxhub://status")
        out["status_tool"] = await session.call_tool("get_hub_status", {})
        out["page"] = await session.read_resource(page_uri)
        out["page_tool"] = await session.call_tool(
            "get_doc", {"source": "chime-docs", "path": "guides/quickstart.mdx"}
        )
        with pytest.raises(Exception) as missing:
            await session.read_resource("ctxhub://doc/chime-docs/guides/nothing-here.md")
        out["missing"] = str(missing.value)
        out["prompts"] = await session.list_prompts()
        out["digest"] = await session.get_prompt("ecosystem_digest", {"languages": "python"})
        out["digest_tool"] = await session.call_tool("ecosystem_digest", {"languages": ["python"]})
        return out

    got = mcp.run(body)
    capabilities = got["capabilities"]
    assert capabilities.prompts is not None and capabilities.resources is not None
    assert [str(r.uri) for r in got["resources"].resources] == ["ctxhub://status"]
    assert [t.uri_template for t in got["templates"].resource_templates] == [
        "ctxhub://doc/{source}/{+path}"
    ]
    status = got["status"].contents[0].text
    assert "chime-docs" in status and "chime-examples" in status
    assert status.splitlines()[0] == got["status_tool"].content[0].text.splitlines()[0]
    page = got["page"].contents[0]
    assert page.mime_type == "text/markdown"
    assert page.text == got["page_tool"].content[0].text and "pip install chime" in page.text
    assert "nothing-here" in got["missing"] and "not found" in got["missing"]
    assert [p.name for p in got["prompts"].prompts] == ["ecosystem_digest"]
    message = got["digest"].messages[0]
    assert message.role == "user"
    assert "AGENTS.md" in message.content.text
    assert message.content.text.endswith(got["digest_tool"].content[0].text)


#: (tool, arguments) pairs whose answers are long on the test corpus.
LONG_ANSWERS: list[tuple[str, dict[str, Any]]] = [
    ("search", {"query": "speech pipeline service frames audio"}),
    ("search", {"query": "speech pipeline service frames audio", "limit": 50}),
    ("search_docs", {"query": "install the package and run a pipeline", "limit": 50}),
    ("search_api", {"query": "synthesize speech", "chunk_type": ["method"], "limit": 100}),
    ("search_examples", {"query": "voice agent answering calls", "limit": 50}),
    ("get_doc", {"path": "guides/quickstart.mdx"}),
    ("get_code_snippet", {"symbol": "SpeechService"}),
    ("get_example", {"example_id": "EXAMPLE"}),
    ("trace_calls", {"symbol": "SpeechService._synthesize", "depth": 3}),
]
BUDGETS = (600, 1500, 4000, 8000, 25000)


def _received(result: Any) -> str:
    """The JSON-RPC response the client received for a tool call, as it travels."""
    body = result.model_dump_json(by_alias=True, exclude_none=True)
    return '{"jsonrpc":"2.0","id":12345,"result":' + body + "}"


def test_max_tokens_covers_everything_the_client_receives(mcp: Any) -> None:
    example = search(ok(mcp.call("search_examples", {"query": "phone agent"}))).hits[0].id

    calls = [
        (name, {**args, "example_id": example} if "example_id" in args else args, budget)
        for name, args in LONG_ANSWERS
        for budget in BUDGETS
    ]
    results = mcp.calls(*((name, {**args, "max_tokens": b}) for name, args, b in calls))
    results += mcp.calls(("get_hub_status", {}), ("check_deprecation", {"symbol": "TTSService"}))
    calls += [("get_hub_status", {}, 8000), ("check_deprecation", {}, 8000)]
    sizes = {}
    for (name, args, budget), result in zip(calls, results, strict=True):
        data = ok(result)
        received = estimate_tokens(_received(result))
        assert received <= budget, (name, args, budget, received)
        sizes[name, args.get("limit"), budget] = received
        # whatever was cut, the first citation is in both the text and the data
        first = data["hits"][0]["id"] if data.get("hits") else data.get("id")
        if first:
            assert first in result.content[0].text, (name, budget)
    # the budgets bind: a larger one gives a larger answer where there is more to give
    assert sizes["search", 50, 600] < sizes["search", 50, 4000] < sizes["search", 50, 25000]
    assert sizes["get_doc", None, 600] < sizes["get_doc", None, 1500]
    assert sizes["search", 50, 25000] > 10_000 and sizes["search", 50, 4000] > 2000


def test_the_smallest_budget_keeps_one_whole_citation(mcp: Any) -> None:
    """At max_tokens=200 one hit's citation (about 200 tokens as JSON) does not fit beside
    its text: both keep it whole, and the response goes over by what it takes, nothing
    else (the snippet is `…`)."""
    (result,) = mcp.calls(("search", {"query": "speech pipeline audio", "max_tokens": 200}))
    [hit] = ok(result)["hits"]
    assert hit["id"] and hit["path"] and hit["line_start"] and hit["snippet"] == "…"
    text = result.content[0].text
    assert text.startswith("1 hit for 'speech pipeline audio'")
    assert f"id {hit['id']} · {hit['source']}:{hit['path']}:{hit['line_start']}" in text
    assert estimate_tokens(_received(result)) <= 450
