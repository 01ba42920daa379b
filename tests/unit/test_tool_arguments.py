"""Every free-text argument of every MCP tool reaches the tool verbatim, JSON-looking or
not (the SDK's pre-parsing decoded `str | None` arguments as JSON), while a list sent as
a JSON string still becomes a list where the argument takes one."""

from __future__ import annotations

from typing import Any

import pytest

from ctxhub.config import Settings
from ctxhub.server.app import CtxhubServer, build_server
from ctxhub.server.arguments import decode_argument

#: Strings an agent really pastes: a FastAPI 422 body, a JSON array, scalars, a quoted word.
HOSTILE = [
    '{"detail":[{"type":"int_parsing","loc":["path","item_id"],"msg":"Input should be a '
    'valid integer"}]}',
    "[1, 2, 3]",
    "123",
    "true",
    "null",
    '"quoted"',
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> CtxhubServer:
    return build_server(Settings(home=tmp_path_factory.mktemp("home")))


def _text_arguments(server: CtxhubServer, length: int = 0) -> list[tuple[str, str, dict[str, Any]]]:
    """(tool, argument, its required arguments) for every argument that takes any string
    of `length` characters (shorter limits give their own precise message)."""
    found = []
    for tool in server._tool_manager.list_tools():
        props: dict[str, Any] = tool.parameters["properties"]
        required = set(tool.parameters.get("required", []))
        for name, schema in props.items():
            options = schema.get("anyOf", [schema])
            if any(
                o.get("type") == "string"
                and "enum" not in o
                and o.get("maxLength", length) >= length
                for o in options
            ):
                found.append((tool.name, name, {r: _filler(props[r]) for r in required}))
    return found


def _filler(schema: dict[str, Any]) -> Any:
    options = schema.get("anyOf", [schema])
    if any(o.get("type") == "array" for o in options):
        return ["python"]
    if any(o.get("type") == "boolean" for o in options):
        return True
    return "x"


def test_every_tool_has_text_arguments_covered(server: CtxhubServer) -> None:
    tools = {tool for tool, _, _ in _text_arguments(server)}
    names = {t.name for t in server._tool_manager.list_tools()}
    assert names - tools <= {"get_hub_status", "ecosystem_digest"}  # no text arguments
    covered = {(t, a) for t, a, _ in _text_arguments(server)}
    assert {("log_solution", "stack_trace"), ("search", "query"), ("rate", "note")} <= covered
    assert {("get_code_snippet", "intent"), ("search_docs", "area")} <= covered


@pytest.mark.parametrize("value", HOSTILE)
def test_text_arguments_arrive_verbatim(server: CtxhubServer, value: str) -> None:
    for tool_name, argument, required in _text_arguments(server, len(value)):
        tool = server._tool_manager.get_tool(tool_name)
        assert tool is not None
        got = tool.fn_metadata.validate_arguments({**required, argument: value})
        assert got[argument] == value, (tool_name, argument)


def test_lists_sent_as_json_strings_still_decode(server: CtxhubServer) -> None:
    search = server._tool_manager.get_tool("search")
    assert search is not None
    got = search.fn_metadata.validate_arguments(
        {"query": "x", "source": '["docs", "api-src"]', "kinds": '["doc"]'}
    )
    assert got["source"] == ["docs", "api-src"] and got["kinds"] == ["doc"]
    api = server._tool_manager.get_tool("search_api")
    assert api is not None
    assert api.fn_metadata.validate_arguments({"is_dataclass": "true"})["is_dataclass"] is True


def test_decode_argument_rules() -> None:
    assert decode_argument(str | None, "null") == "null"
    assert decode_argument(str | list[str] | None, '["a"]') == ["a"]
    assert decode_argument(str | list[str] | None, '{"a": 1}') == '{"a": 1}'
    assert decode_argument(list[str] | None, '["a"]') == ["a"]
    assert decode_argument(bool | None, "false") is False
    assert decode_argument(str | None, "{not json") == "{not json"
    assert decode_argument(int, 5) == 5
