"""Small answers said once and the same way: a name offered once however many chunks
carry it, an empty query worded as a blank one is, and `deprecated` of an unknown name
exiting 1 on the command line as `snippet` does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ctxhub.cli.main import cli
from ctxhub.config import Settings
from ctxhub.core.errors import InputError, NotFoundError
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.session import HubSession, set_embedder
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools import code_tools, nearest, run
from ctxhub.tools.specs import BY_NAME
from tests.conftest import make_chunk


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    embedder = HashingEmbedder(dim=64)
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        # a property's getter and setter: two chunks, one symbol
        chunks = [
            make_chunk(
                "fw",
                "fw/dev.py",
                name,
                content=f"colors property {i}",
                ordinal=i,
                chunk_type="method",
            )
            for name in ("fw.dev.Console.colors", "fw.dev.Console.force_colors")
            for i in (0, 1)
        ]
        store.replace_file("fw", "fw/dev.py", chunks)
    set_embedder(embedder)
    yield tmp_path
    set_embedder(None)


def invoke(home: Path, *args: str, code: int) -> Result:
    result = CliRunner().invoke(cli, list(args), env={"CTXHUB_HOME": str(home)})
    assert result.exit_code == code, result.output
    return result


def test_did_you_mean_and_other_matches_name_each_symbol_once(home: Path) -> None:
    with HubSession(Settings(home=home)) as hub:
        near = nearest.nearest_names(hub, "fw.dev._use_colors")
        assert "fw.dev.Console.colors" in near
        assert len(near) == len(set(near)), near
        with pytest.raises(NotFoundError) as caught:
            code_tools.get_code_snippet(hub, symbol="fw.dev._use_colors")
        offered = str(caught.value).split("did you mean ", 1)[1].split("?")[0].split(", ")
        assert len(offered) == len(set(offered)), offered
        snippet = code_tools.get_code_snippet(hub, symbol="colors")
        assert snippet.symbol == "fw.dev.Console.colors"
        assert snippet.symbol not in snippet.alternatives


@pytest.mark.parametrize("tool", ["search", "search_docs", "search_examples"])
def test_an_empty_query_is_worded_as_a_blank_one(tool: str) -> None:
    messages = set()
    for query in ("", "   "):
        with pytest.raises(InputError) as caught:
            run.parse_args(BY_NAME[tool], {"query": query})
        messages.add(str(caught.value))
    assert messages == {"query must not be empty"}


def test_an_empty_query_on_the_command_line_is_one_message(home: Path) -> None:
    empty = invoke(home, "search", "", code=2).output
    blank = invoke(home, "search", "   ", code=2).output
    assert empty == blank
    assert "error: invalid arguments for search: query must not be empty" in empty
    assert "String should have" not in empty


def test_deprecated_of_an_unknown_symbol_exits_1_and_the_tool_still_answers(home: Path) -> None:
    out = invoke(home, "deprecated", "fw.nowhere.Thing", code=1).output
    assert "fw.nowhere.Thing: unknown symbol" in out
    invoke(home, "deprecated", "fw.dev.Console.colors", code=0)
    with HubSession(Settings(home=home)) as hub:  # MCP: an answer, not an error
        report = run.call(hub, "check_deprecation", symbol="fw.nowhere.Thing")
    assert report.data["found"] is False and not report.data["deprecated"]
