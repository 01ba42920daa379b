"""Module-level instances (`name = Class(...)`) documented by an attribute docstring or
listed in `__all__` are API chunks: searchable by name, resolvable, deprecation-aware."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.core.knowledge import Chunk
from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.session import HubSession
from ctxhub.tools import code_tools, deprecation_tools, search_tools
from tests.unit.package_hub import tree_hub

MODULE = '''\
"""Processors."""

from acme.tracebacks import Transformer

__all__ = ["Renderer", "structured"]

LEVELS = {"debug": 10, "info": 20}
DEFAULT = dict(a=1)


class Renderer:
    """Renders an exception."""

    def __init__(self, transformer=None):
        self.transformer = transformer


render_exc_info = Renderer()
"""
Replace an ``exc_info`` field with a rendered ``exception`` string.

Use it as a processor.
"""

structured = Renderer(Transformer())

_private = Renderer()
"""Internal."""

old_renderer = Renderer()
"""
Renders the old way.

.. deprecated:: 1.2
   Use `render_exc_info` instead.
"""
'''


def chunks_by_symbol() -> dict[str | None, Chunk]:
    extract = extract_python_file(
        "acme", "acme/processors.py", MODULE, version=None, internal_packages={"acme"}
    )
    return {c.symbol: c for c in extract.chunks if c.metadata.chunk_type == "instance"}


def test_documented_or_exported_instances_become_chunks() -> None:
    found = chunks_by_symbol()
    assert set(found) == {
        "acme.processors.render_exc_info",
        "acme.processors.structured",
        "acme.processors.old_renderer",
    }  # undocumented constants outside __all__, and private names, stay out
    render = found["acme.processors.render_exc_info"]
    assert render.metadata.extra["instance_of"] == "acme.processors.Renderer"
    assert "Replace an ``exc_info`` field" in render.content
    assert "instance of acme.processors.Renderer" in render.embed_text
    structured = found["acme.processors.structured"]
    assert structured.metadata.extra["instance_of"] == "acme.processors.Renderer"
    assert found["acme.processors.old_renderer"].metadata.deprecated
    assert not render.metadata.deprecated


def test_type_variables_and_a_private_modules_all_make_no_instances() -> None:
    text = (
        "from typing import TypeVar\n__all__ = ['T', 'PATTERN', 'Shown']\n"
        "T = TypeVar('T')\nPATTERN = compile('x')\nShown = compile('y')\n"
        '"""A documented pattern."""\n'
    )
    made = extract_python_file(
        "acme", "acme/util.py", text, version=None, internal_packages={"acme"}
    )
    shown = next(c for c in made.chunks if c.title == "Shown")
    assert shown.metadata.extra == {"value_of": "compile"}  # a function's value, no class
    assert "value of compile" in shown.embed_text
    for module, expected in (("acme/util.py", {"PATTERN", "Shown"}), ("acme/_util.py", {"Shown"})):
        extract = extract_python_file(
            "acme", module, text, version=None, internal_packages={"acme"}
        )
        kinds = {c.title for c in extract.chunks if c.metadata.chunk_type == "instance"}
        assert kinds == expected, module


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    # the package re-exports one instance (`acme.structured` is importable)
    files = {
        "acme/__init__.py": '"""Acme."""\nfrom acme.processors import structured\n',
        "acme/tracebacks.py": "class Transformer:\n    pass\n",
        "acme/processors.py": MODULE,
    }
    with tree_hub(tmp_path, "acme", files) as session:
        yield session


def test_instances_are_searchable_resolvable_and_checked(hub: HubSession) -> None:
    snippet = code_tools.get_code_snippet(hub, symbol="acme.processors.render_exc_info")
    assert "render_exc_info = Renderer()" in snippet.code
    assert snippet.metadata.get("chunk_type") == "instance"
    hits = search_tools.search_api(hub, "render_exc_info").hits
    assert hits and hits[0].symbol == "acme.processors.render_exc_info"
    listed = search_tools.search_api(hub, chunk_type=["instance"]).hits
    assert {h.symbol for h in listed} >= {"acme.processors.structured"}
    current = deprecation_tools.check_deprecation(hub, "acme.processors.render_exc_info")
    assert current.found and not current.deprecated
    old = deprecation_tools.check_deprecation(hub, "acme.processors.old_renderer")
    assert old.deprecated and old.since == "1.2"


def test_an_instance_resolves_by_bare_name_and_through_a_re_export(
    tmp_path: Path, hub: HubSession
) -> None:
    """An agent asks for `render_exc_info` (the name it sees in a config) or for the
    public path `acme.render_exc_info` the package re-exports."""
    bare = code_tools.get_code_snippet(hub, symbol="render_exc_info")
    assert bare.symbol == "acme.processors.render_exc_info" and bare.resolution == "instance"
    assert deprecation_tools.check_deprecation(hub, "old_renderer").deprecated
    public = code_tools.get_code_snippet(hub, symbol="acme.structured")
    assert public.symbol == "acme.processors.structured"
    assert public.resolution == "re-export"
