"""Every knowledge tool through the official MCP client over stdio, against the test corpus
indexed with the real model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp.client.session import ClientSession

from ctxhub.core.budget import estimate_tokens
from ctxhub.core.knowledge import SearchResponse
from ctxhub.core.outputs import (
    CallTrace,
    CodeSnippet,
    DeprecationReport,
    DocPage,
    ExampleBundle,
    HubStatus,
)
from tests.conformance.conftest import _stop_postgres
from tests.integration.conftest import BACKENDS, McpClient, client_on

pytestmark = pytest.mark.integration
__all__ = ["_stop_postgres"]  # the PostgreSQL server stops after the tests


@pytest.fixture(scope="module", params=BACKENDS)
def mcp(request: pytest.FixtureRequest, indexed_home: Path) -> McpClient:
    """Every test here runs against the indexed hub on SQLite and on PostgreSQL."""
    return client_on(indexed_home, request.param)


TOOLS = {
    "search",
    "search_docs",
    "get_doc",
    "search_api",
    "get_code_snippet",
    "trace_calls",
    "search_examples",
    "get_example",
    "check_deprecation",
    "get_hub_status",
}
MEMORY_TOOLS = {
    "log_solution",
    "search_solutions",
    "search_by_approach",
    "rate",
    "browse_solutions",
    "ecosystem_digest",
}
#: the memory tools that write to the store; every other tool only reads
WRITING_TOOLS = {"log_solution", "rate"}


def ok(result: Any) -> dict[str, Any]:
    """The structured content of a successful call (and its text is non-empty)."""
    assert not result.is_error, result.content[0].text
    assert result.content and result.content[0].text.strip()
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def error_text(result: Any) -> str:
    assert result.is_error, result.structured_content
    assert result.structured_content is None
    text = result.content[0].text
    assert "Traceback" not in text
    return str(text)


def tokens(data: Any) -> int:
    """Estimated tokens of structured content as it travels (compact JSON)."""
    return estimate_tokens(json.dumps(data, separators=(",", ":"), ensure_ascii=False))


def search(data: dict[str, Any]) -> SearchResponse:
    return SearchResponse.model_validate(data)


def test_tools_list_has_every_tool_with_schemas(mcp: Any) -> None:
    async def body(session: ClientSession) -> Any:
        return session.instructions, await session.list_tools()

    instructions, listed = mcp.run(body)
    assert {t.name for t in listed.tools} == TOOLS | MEMORY_TOOLS
    for tool in listed.tools:
        assert tool.description and len(tool.description) > 40, tool.name
        assert tool.input_schema["type"] == "object"
        for name, prop in tool.input_schema.get("properties", {}).items():
            assert prop.get("description"), f"{tool.name}.{name} has no description"
        assert tool.output_schema and tool.output_schema["type"] == "object", tool.name
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is (tool.name not in WRITING_TOOLS), tool.name
    by_name = {t.name: t for t in listed.tools}
    assert by_name["search"].input_schema["required"] == ["query"]
    assert by_name["search"].input_schema["properties"]["limit"]["maximum"] == 50
    assert "hits" in by_name["search_api"].output_schema["properties"]
    assert "companions" in by_name["get_code_snippet"].output_schema["properties"]
    assert instructions is not None
    for name in ("get_code_snippet", "get_example", "get_doc", "trace_calls"):
        assert name in instructions


def test_search_spans_kinds_and_filters(mcp: Any) -> None:
    mixed, apis, docs = mcp.calls(
        ("search", {"query": "text to speech service", "limit": 8}),
        ("search", {"query": "text to speech service", "kinds": ["api"]}),
        ("search", {"query": "text to speech service", "source": "chime-docs"}),
    )
    hits = search(ok(mixed)).hits
    assert {h.kind for h in hits} == {"doc", "api", "example"}
    assert any(h.path == "server/services/tts.mdx" for h in hits)
    # the text rendering cites every hit
    for hit in hits:
        assert hit.id in mixed.content[0].text
    assert {h.kind for h in search(ok(apis)).hits} == {"api"}
    doc_hits = search(ok(docs)).hits
    assert doc_hits and {h.source for h in doc_hits} == {"chime-docs"}
    assert doc_hits[0].url == "https://docs.chime.dev/server/services/tts"


def test_search_docs_area_then_get_doc(mcp: Any) -> None:
    found = search(ok(mcp.call("search_docs", {"query": "interruptions barge-in latency"})))
    assert found.hits[0].path == "guides/pipelines.mdx"
    in_area = search(ok(mcp.call("search_docs", {"query": "speech audio", "area": "server/"})))
    assert in_area.hits and all(h.path.startswith("server/") for h in in_area.hits)

    page, section, missing, by_path = mcp.calls(
        ("get_doc", {"doc_id": found.hits[0].id}),
        ("get_doc", {"path": "server/services/tts", "section": "Deprecated"}),
        ("get_doc", {"path": "server/services/tts", "section": "Pricing"}),
        ("get_doc", {"path": "guides/quickstart.mdx"}),
    )
    whole = DocPage.model_validate(ok(page))
    assert whole.title == "Pipelines"
    assert whole.url == "https://docs.chime.dev/guides/pipelines"
    assert "Pipelines > Interruptions" in whole.sections
    assert "barge-in" in whole.content and "dataclasses" in whole.content
    one = DocPage.model_validate(ok(section))
    assert "set_voice()" in one.content and "sample_rate" not in one.content
    assert one.section == "Deprecated"
    text = error_text(missing)
    assert text.startswith("not found:") and "Speech service > Configuration" in text
    quick = DocPage.model_validate(ok(by_path))
    assert quick.title == "Quickstart" and "pip install chime" in quick.content


def test_search_api_pages_through_structural_filters(mcp: Any) -> None:
    first = search(ok(mcp.call("search_api", {"base_class": "FrameProcessor", "limit": 2})))
    assert first.total == 3 and len(first.hits) == 2 and first.next_cursor
    second_raw, yields, dataclasses, bad_cursor, no_query = mcp.calls(
        ("search_api", {"base_class": "FrameProcessor", "limit": 2, "cursor": first.next_cursor}),
        ("search_api", {"query": "stream audio", "yields": "AudioFrame"}),
        ("search_api", {"is_dataclass": True, "chunk_type": ["class"], "limit": 20}),
        ("search_api", {"base_class": "FrameProcessor", "cursor": "7:deadbeef"}),
        ("search_api", {}),
    )
    second = search(ok(second_raw))
    assert len(second.hits) == 1 and second.next_cursor is None
    names = {h.symbol for h in first.hits + second.hits}
    assert names == {
        "chime.pipeline.Pipeline",
        "chime.services.llm.LLMService",
        "chime.services.tts.TTSService",
    }
    [run_tts] = search(ok(yields)).hits
    assert run_tts.symbol == "chime.services.tts.SpeechService.run_tts"
    assert run_tts.metadata["yields"] == ["AudioFrame", "TextFrame"]
    assert run_tts.metadata["signature"].startswith("async def run_tts(self, text: str)")
    assert "chime.frames.AudioFrame" in run_tts.metadata["imports"]
    frames = {h.symbol for h in search(ok(dataclasses)).hits}
    assert "chime.frames.AudioFrame" in frames and "chime.services.tts.SpeechSettings" in frames
    assert "chime.pipeline.Pipeline" not in frames
    assert "cursor" in error_text(bad_cursor)
    assert "structural filter" in error_text(no_query)


def test_get_code_snippet_cascade_and_ranges(mcp: Any) -> None:
    results = mcp.calls(
        ("get_code_snippet", {"symbol": "chime.services.tts.SpeechService.run_tts"}),
        ("get_code_snippet", {"symbol": "SpeechService.run_tts"}),
        ("get_code_snippet", {"symbol": "SpeechService"}),
        ("get_code_snippet", {"symbol": "push_error"}),
        ("get_code_snippet", {"intent": "report an error upstream as an error frame"}),
        ("get_code_snippet", {"path": "chime/services/tts.py", "line_start": 62, "line_end": 64}),
        ("get_code_snippet", {"symbol": "SpeechService._synthesize", "max_lines": 5}),
    )
    exact, method, cls, short, intent, by_path, cut = (
        CodeSnippet.model_validate(ok(r)) for r in results
    )
    assert exact.resolution == "exact"
    assert method.resolution == "class.method" and method.symbol == exact.symbol
    assert (method.line_start, method.line_end) == (method.full_line_start, method.full_line_end)
    assert "yield TextFrame(text=text)" in method.code and not method.truncated
    companions = {c.symbol: c.id for c in method.companions}
    assert "chime.services.tts.SpeechService._synthesize" in companions
    assert cls.resolution == "class" and cls.symbol == "chime.services.tts.SpeechService"
    assert short.resolution == "method"
    assert short.symbol == "chime.processors.frame_processor.FrameProcessor.push_error"
    assert intent.resolution == "semantic"
    assert intent.symbol == "chime.processors.frame_processor.FrameProcessor.push_error"
    assert (by_path.line_start, by_path.line_end) == (62, 64)
    assert by_path.code.splitlines()[0].strip().startswith("line_02")
    assert cut.truncated and cut.line_end == cut.line_start + 4
    assert cut.full_line_end - cut.full_line_start + 1 > 5
    assert len(cut.code.splitlines()) == 5
    assert "(truncated)" in results[-1].content[0].text

    # a companion opens by its id
    opened = CodeSnippet.model_validate(
        ok(mcp.call("get_code_snippet", {"chunk_id": companions[cls.symbol + "._synthesize"]}))
    )
    assert opened.resolution == "id" and opened.symbol.endswith("._synthesize")


def test_trace_calls_both_directions(mcp: Any) -> None:
    callees, callers, too_deep, bad_direction, unknown = mcp.calls(
        ("trace_calls", {"symbol": "TTSService.process_frame"}),
        ("trace_calls", {"symbol": "FrameProcessor.push_frame", "direction": "callers"}),
        ("trace_calls", {"symbol": "TTSService.process_frame", "depth": 4}),
        ("trace_calls", {"symbol": "TTSService.process_frame", "direction": "up"}),
        ("trace_calls", {"symbol": "NoSuchThing.anywhere"}),
    )
    down = CallTrace.model_validate(ok(callees))
    assert {n.symbol for n in down.nodes} >= {
        "chime.services.tts.TTSService.run_tts",
        "chime.processors.frame_processor.FrameProcessor.push_frame",
    }
    up = CallTrace.model_validate(ok(callers))
    assert {n.symbol for n in up.nodes} >= {
        "chime.processors.frame_processor.FrameProcessor.push_error",
        "chime.services.llm.LLMService.process_frame",
        "chime.services.tts.TTSService.process_frame",
    }
    assert "depth" in error_text(too_deep) and "less than or equal to 3" in error_text(too_deep)
    assert "direction" in error_text(bad_direction)
    assert error_text(unknown).startswith("not found:")


def test_examples_search_and_get(mcp: Any) -> None:
    found = search(
        ok(mcp.call("search_examples", {"query": "answer phone calls with a voice agent"}))
    )
    top = found.hits[0]
    assert top.kind == "example" and top.metadata["example"] == "phone_agent"
    tagged, cloud = mcp.calls(
        ("search_examples", {"query": "speech", "tags": ["tts"]}),
        ("search_examples", {"query": "voice agent", "execution_mode": "cloud"}),
    )
    assert all("tts" in h.metadata["tags"] for h in search(ok(tagged)).hits)
    assert {h.metadata["example"] for h in search(ok(cloud)).hits} == {"phone_agent"}

    whole, no_readme, small, unknown = mcp.calls(
        ("get_example", {"example_id": top.id}),
        ("get_example", {"example_id": top.id, "include_readme": False}),
        ("get_example", {"example_id": top.id, "max_tokens": 600}),
        ("get_example", {"example_id": "0000000000000000"}),
    )
    bundle = ExampleBundle.model_validate(ok(whole))
    assert bundle.name == "phone_agent" and bundle.execution_mode == "cloud"
    paths = [f.path for f in bundle.files]
    assert paths[0].endswith("bot.py")
    assert {p.rsplit("/", 1)[-1] for p in paths} >= {"bot.py", "README.md", "Dockerfile"}
    assert not bundle.omitted and "answer_call" in bundle.files[0].content
    assert all(
        not p.endswith("README.md")
        for p in (f.path for f in ExampleBundle.model_validate(ok(no_readme)).files)
    )
    tight = ExampleBundle.model_validate(ok(small))
    assert tight.omitted, "a 600-token budget cannot hold every file"
    listed = [f.path for f in tight.files] + tight.omitted
    assert sorted(listed) == sorted(paths)  # every file is cited, shown or omitted
    assert tokens(small.structured_content) <= 600
    assert error_text(unknown).startswith("not found:")


def test_check_deprecation_and_hub_status(mcp: Any) -> None:
    set_voice, legacy, current, status = mcp.calls(
        ("check_deprecation", {"symbol": "SpeechService.set_voice"}),
        ("check_deprecation", {"symbol": "LegacyPipeline"}),
        ("check_deprecation", {"symbol": "Pipeline"}),
        ("get_hub_status", {}),
    )
    report = DeprecationReport.model_validate(ok(set_voice))
    assert report.deprecated and report.since == "1.1"
    assert report.replacement and "update_settings" in report.replacement
    assert report.location and report.location.startswith("chime:chime/services/tts.py:")
    legacy_report = DeprecationReport.model_validate(ok(legacy))
    assert legacy_report.deprecated and legacy_report.replacement == "chime.pipeline.Pipeline"
    assert not DeprecationReport.model_validate(ok(current)).deprecated
    hub = HubStatus.model_validate(ok(status))
    assert {s.name for s in hub.sources} == {"chime", "chime-docs", "chime-examples"}
    assert hub.model and hub.model.startswith("all-MiniLM-L6-v2")
    assert hub.embedded == hub.chunks - hub.lookup_only > 0  # every ranked chunk
    # the store the server answered from is the one this run is about
    assert hub.store_path.startswith("postgresql://") == ("CTXHUB_DB" in mcp.env)


def test_budget_trims_text_keeps_citations(mcp: Any) -> None:
    wide, narrow, snippet, doc = mcp.calls(
        ("search", {"query": "frames audio speech pipeline", "limit": 6}),
        ("search", {"query": "frames audio speech pipeline", "limit": 6, "max_tokens": 400}),
        ("get_code_snippet", {"symbol": "SpeechService._synthesize", "max_tokens": 200}),
        ("get_doc", {"path": "guides/pipelines", "max_tokens": 200}),
    )
    full = search(ok(wide))
    small = search(ok(narrow))
    assert tokens(narrow.structured_content) <= 400
    assert estimate_tokens(narrow.content[0].text) <= 400
    assert small.truncated and small.hits
    for hit in small.hits:  # every hit that is shown keeps its whole citation
        same = next(h for h in full.hits if h.id == hit.id)
        assert (hit.path, hit.line_start, hit.line_end, hit.symbol) == (
            same.path,
            same.line_start,
            same.line_end,
            same.symbol,
        )
        assert len(hit.snippet) <= len(same.snippet)
    code = CodeSnippet.model_validate(ok(snippet))
    assert code.truncated and code.full_line_end - code.full_line_start >= 16
    assert code.line_end < code.full_line_end
    assert tokens(snippet.structured_content) <= 200
    page = DocPage.model_validate(ok(doc))
    # the page's text comes before its list of sections, which is counted when left out
    assert page.truncated and page.url and len(page.sections) + page.sections_left_out == 3
    assert f"id {page.id} · {page.source}:{page.path}" in doc.content[0].text
    assert tokens(doc.structured_content) <= 200


def test_invalid_arguments_and_unknown_ids(mcp: Any) -> None:
    results = mcp.calls(
        ("search", {}),
        ("search", {"query": "x", "limit": 0}),
        ("search", {"query": "x", "kinds": ["video"]}),
        ("search", {"query": "x", "max_tokens": 30000}),
        ("search", {"query": "x", "colour": "red"}),
        ("get_code_snippet", {}),
        ("get_code_snippet", {"path": "chime/services/tts.py"}),
        ("get_doc", {"doc_id": "not-an-id"}),
        ("no_such_tool", {}),
    )
    texts = [error_text(r) for r in results]
    assert "query: Field required" in texts[0]
    assert "limit: Input should be greater than or equal to 1 (got 0)" in texts[1]
    assert "kinds" in texts[2] and "video" in texts[2]
    assert "max_tokens: Input should be less than or equal to 25000" in texts[3]
    assert "unknown argument(s) colour" in texts[4]
    assert "give symbol" in texts[5]
    assert "line_start" in texts[6]
    assert texts[7] == "not found: no doc chunk with id 'not-an-id'; use search_docs to find one"
    assert "no_such_tool" in texts[8]
    for text in texts[:7]:
        assert text.startswith("invalid arguments for ")
