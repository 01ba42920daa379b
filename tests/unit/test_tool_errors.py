"""Errors stay short and precise whatever the caller sends: a 1 MB string, a 100k-item
list or a 64-bit line number is named in one line, never echoed whole, and never an
internal error. Through the SDK's in-process client, on an empty store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client

from ctxhub.config import Settings
from ctxhub.core.errors import shown
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.server.app import build_server
from ctxhub.session import set_embedder

BIG = "x" * 1_048_576
MANY = ["t"] * 100_000
CASES: list[tuple[str, dict[str, Any], str]] = [
    ("search", {"query": BIG}, "query"),
    ("search", {"query": "x", "source": MANY}, "source"),
    ("search_docs", {"query": "x", "area": BIG}, "area"),
    ("search_api", {"module": BIG}, "module"),
    ("search_api", {"class_name": BIG}, "class_name"),
    ("search_api", {"query": "x", "yields": BIG}, "yields"),
    ("search_api", {"base_class": "A", "cursor": BIG}, "cursor"),
    ("search_examples", {"query": "x", "tags": MANY}, "tags"),
    ("get_code_snippet", {"path": "a.py", "line_start": 2**63}, "line_start"),
    ("get_code_snippet", {"path": BIG, "line_start": 1}, "path"),
    ("get_code_snippet", {"chunk_id": BIG}, "chunk_id"),
    ("get_doc", {"path": BIG}, "path"),
    ("get_doc", {"doc_id": BIG}, "doc_id"),
    ("trace_calls", {"symbol": BIG}, "symbol"),
    ("check_deprecation", {"symbol": BIG}, "symbol"),
    ("get_example", {"example_id": BIG}, "example_id"),
    ("log_solution", {"problem": BIG}, "problem"),
    ("search_solutions", {"query": "x", "tags": MANY}, "tags"),
    ("rate", {"id": BIG, "worked": True}, "id"),
    ("search", {"query": "x", BIG: 1}, "unknown argument"),
]


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    set_embedder(HashingEmbedder())
    yield tmp_path
    set_embedder(None)


def _call_all(home: Path, cases: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    server = build_server(Settings(home=home))

    async def body() -> list[Any]:
        async with Client(server) as client:
            return [await client.call_tool(name, args) for name, args in cases]

    return anyio.run(body)


def test_hostile_arguments_get_one_short_precise_line(home: Path) -> None:
    results = _call_all(home, [(name, args) for name, args, _ in CASES])
    for (name, _, argument), result in zip(CASES, results, strict=True):
        text = result.content[0].text
        assert result.is_error, (name, argument)
        assert len(text) < 400, (name, argument, len(text))
        assert argument in text and "internal error" not in text, (name, text)


def test_not_found_messages_quote_a_bounded_value(home: Path) -> None:
    long_path = "docs/" + "deep/" * 150 + "page.md"  # 762 characters: allowed, not indexed
    [result] = _call_all(home, [("get_doc", {"path": long_path})])
    text = result.content[0].text
    assert result.is_error and "no doc page" in text and len(text) < 400
    assert "(762 characters)" in text


def test_shown_cuts_and_says_how_much() -> None:
    assert shown("abc") == "'abc'"
    assert shown("y" * 1000, 20).endswith("... (1,000 characters)")
    assert shown(list(range(5000)), 30).endswith("(5,000 items)")
