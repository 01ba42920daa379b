"""Which indexed definitions a user can import and is meant to use: what a lookup of a
bare name answers first and what "did you mean" offers."""

from __future__ import annotations

import ast
import textwrap

from ctxhub.core.identifiers import is_private_path
from ctxhub.core.knowledge import Chunk
from ctxhub.core.nesting import is_nested

#: Path parts of test code (a name defined there is the test suite's, not the API's).
_TEST_DIRS = frozenset({"tests", "test", "testing"})


def in_tests(path: str) -> bool:
    """Whether a file belongs to a test suite (`tests/`, `test_x.py`, `conftest.py`)."""
    parts = path.split("/")
    name = parts[-1]
    return (
        any(p in _TEST_DIRS for p in parts[:-1])
        or name.startswith("test_")
        or name.removesuffix(".py").endswith("_test")
        or name == "conftest.py"
    )


def importable(chunk: Chunk) -> bool:
    """Neither nested in a function nor defined by a test suite."""
    return not is_nested(chunk) and not in_tests(chunk.path)


def documented(chunk: Chunk) -> bool:
    """Whether the definition opens with a docstring."""
    try:
        tree = ast.parse(textwrap.dedent(chunk.content))
    except SyntaxError:
        return False
    first = tree.body[0] if tree.body else None
    if isinstance(first, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return ast.get_docstring(first) is not None
    return False


def public_first(chunks: list[Chunk], last: str) -> list[Chunk]:
    """`chunks` (definitions of one bare name) with the one a user means first: spelled
    with the case asked, importable, on a public path (no `_private` module or class),
    documented; the order among equals is kept."""
    return sorted(
        chunks,
        key=lambda c: (
            (c.symbol or "").rsplit(".", 1)[-1] != last,
            not importable(c),
            is_private_path(c.symbol),
            not documented(c),
        ),
    )
