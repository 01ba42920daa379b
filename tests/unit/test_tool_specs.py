"""Each tool is declared once (tools/specs/): the MCP schema, the CLI command and the
function all follow its arguments model, and cannot drift apart."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner
from mcp.client import Client

from ctxhub.cli.main import cli
from ctxhub.config import Settings
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.server.app import build_server
from ctxhub.session import set_embedder
from ctxhub.tools.spec import ToolSpec
from ctxhub.tools.specs import BY_COMMAND, TOOLS


def _function(spec: ToolSpec) -> Any:
    module, _, name = spec.function.partition(":")
    return getattr(importlib.import_module(module), name)


@pytest.mark.parametrize("spec", TOOLS, ids=lambda s: s.name)
def test_the_function_takes_exactly_the_declared_arguments(spec: ToolSpec) -> None:
    params = list(inspect.signature(_function(spec)).parameters.values())[1:]  # after hub
    if any(p.kind is p.VAR_KEYWORD for p in params):  # log_solution(**fields): the record
        from ctxhub.core.records import RecordInput

        assert set(spec.args.model_fields) <= set(RecordInput.model_fields)
        return
    assert {p.name for p in params} == set(spec.args.model_fields)
    for p in params:
        field = spec.args.model_fields[p.name]
        if not field.is_required():
            assert p.default == field.default, f"{spec.name}.{p.name} default drifted"


@pytest.mark.parametrize("spec", TOOLS, ids=lambda s: s.name)
def test_every_spec_names_a_renderer_and_a_unique_command(spec: ToolSpec) -> None:
    module, _, name = spec.render.partition(":")
    assert callable(getattr(importlib.import_module(module), name))
    if spec.cli:
        assert BY_COMMAND[spec.cli.name] is spec
        assert set(spec.cli.positional) <= set(spec.args.model_fields)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    set_embedder(HashingEmbedder())
    monkeypatch.setenv("CTXHUB_HOME", str(tmp_path))
    monkeypatch.delenv("CTXHUB_DB", raising=False)
    yield tmp_path
    set_embedder(None)


def _mcp(home: Path, calls: list[tuple[str, dict[str, Any]]]) -> tuple[list[Any], list[Any]]:
    server = build_server(Settings(home=home))

    async def body() -> tuple[list[Any], list[Any]]:
        async with Client(server) as client:
            listed = (await client.list_tools()).tools
            return listed, [await client.call_tool(name, args) for name, args in calls]

    return anyio.run(body)


def test_mcp_schemas_are_the_specs_arguments(home: Path) -> None:
    listed, _ = _mcp(home, [])
    by_name = {tool.name: tool for tool in listed}
    assert set(by_name) == {spec.name for spec in TOOLS}
    for spec in TOOLS:
        schema = by_name[spec.name].input_schema
        expected = spec.args.model_json_schema()
        assert set(schema.get("properties", {})) == set(expected.get("properties", {}))
        assert set(schema.get("required", [])) == set(expected.get("required", []))
        for name, prop in expected.get("properties", {}).items():
            assert schema["properties"][name].get("description") == prop.get("description")
        hint = by_name[spec.name].annotations
        assert hint is not None and hint.read_only_hint is (not spec.writes)


@pytest.mark.parametrize(
    ("mcp_args", "argv"),
    [
        ({"query": "x", "limit": 51}, ["search", "x", "--limit", "51"]),
        ({"query": "x", "kinds": ["memory"]}, ["search", "x", "--kind", "memory"]),
        ({"query": "x", "max_tokens": 100}, ["search", "x", "--max-tokens", "100"]),
    ],
)
def test_cli_and_mcp_refuse_the_same_values_in_the_same_words(
    home: Path, mcp_args: dict[str, Any], argv: list[str]
) -> None:
    _, (result,) = _mcp(home, [("search", mcp_args)])
    assert result.is_error
    cli_run = CliRunner().invoke(cli, argv)
    assert cli_run.exit_code == 2
    field = next(iter(set(mcp_args) - {"query"}))
    assert f"--{field.replace('_', '-')}" in cli_run.output or field in cli_run.output
    assert field in result.content[0].text


def test_search_api_limit_is_the_same_bound_everywhere(home: Path) -> None:
    _, (over, ok) = _mcp(
        home,
        [
            ("search_api", {"base_class": "X", "limit": 101}),
            ("search_api", {"base_class": "X", "limit": 100}),
        ],
    )
    assert over.is_error and "limit" in over.content[0].text
    assert not ok.is_error, ok.content[0].text
    assert CliRunner().invoke(cli, ["search-api", "--base", "X", "--limit", "101"]).exit_code == 2


def test_cli_json_is_the_mcp_structured_content(home: Path) -> None:
    from ctxhub.core.records import RecordInput
    from ctxhub.memory.records.log import log_solution
    from ctxhub.session import HubSession

    with HubSession(Settings(home=home)) as hub:
        rid = log_solution(hub, RecordInput(problem="pip install fails: SSL", solution="a")).id
    _, (via_mcp,) = _mcp(home, [("browse_solutions", {"limit": 5})])
    import json

    via_cli = json.loads(CliRunner().invoke(cli, ["browse", "--limit", "5", "--json"]).output)
    assert via_cli == via_mcp.structured_content
    assert via_cli["hits"][0]["id"] == rid
    text = CliRunner().invoke(cli, ["browse", "--limit", "5"]).output
    assert text.strip() == via_mcp.content[0].text.strip()


def test_exactly_the_memory_reading_tools_store_captured_records_first() -> None:
    readers = {spec.name for spec in TOOLS if spec.reads_memory}
    assert readers == {
        "search_solutions",
        "search_by_approach",
        "browse_solutions",
        "ecosystem_digest",
    }
    assert not any(spec.reads_memory and spec.writes for spec in TOOLS)


def test_a_list_argument_takes_one_value_too(home: Path) -> None:
    _, (one, listed, kinds) = _mcp(
        home,
        [
            ("search_api", {"chunk_type": "class"}),
            ("search_api", {"chunk_type": ["class"]}),
            ("search", {"query": "x", "kinds": "api"}),
        ],
    )
    for result in (one, listed, kinds):
        assert not result.is_error, result.content[0].text
    assert one.structured_content == listed.structured_content
