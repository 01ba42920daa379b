"""Documented class attributes (an assignment or annotation followed by its docstring,
as Sphinx's autodoc reads them) are definitions of their own: `pkg.mod.Class.attr`
opens with `snippet`, resolves through the class's re-export and answers `deprecated`,
while search never ranks them on their few words (lookup-only)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.core.errors import NotFoundError
from ctxhub.core.knowledge import Chunk
from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.session import HubSession
from ctxhub.tools import code_tools, deprecation_tools, search_tools
from tests.unit.package_hub import tree_hub

RESPONSE = '''\
"""Responses."""

import dataclasses
from typing import IO, Iterable


class Response:
    """An HTTP response."""

    status: int
    """The HTTP status code to send."""

    stream: IO[bytes] | Iterable[bytes] | None
    """Either a file-like object with a `read()` method, or an iterable yielding
    blocks of bytes, representing the response content."""

    text: str | None
    """String content of the response.

    .. deprecated:: 2.0
       Use `data` instead.
    """

    default_media_type = "application/json"
    """The media type used when the response sets none."""

    undocumented: int

    def __init__(self) -> None:
        self.status = 200

    media = None
    """Set at class level, then redefined as a property: the property is `media`."""

    @property
    def media(self) -> object:
        """Deserialized media."""
        return None


@dataclasses.dataclass
class Options:
    """Options of a response."""

    chunk_size: int = 4096
    """How many bytes each read of a stream takes."""

    strict: bool = False
'''


def attribute_chunks() -> dict[str, Chunk]:
    extract = extract_python_file(
        "acme", "acme/response.py", RESPONSE, version=None, internal_packages={"acme"}
    )
    return {c.symbol or "": c for c in extract.chunks if c.metadata.chunk_type == "attribute"}


def test_each_documented_attribute_is_a_lookup_only_definition() -> None:
    found = attribute_chunks()
    assert set(found) == {
        "acme.response.Response.status",
        "acme.response.Response.stream",
        "acme.response.Response.text",
        "acme.response.Response.default_media_type",
        "acme.response.Options.chunk_size",
    }  # no chunk for an undocumented one, nor one for the name a property takes
    stream = found["acme.response.Response.stream"]
    assert stream.metadata.signature == "IO[bytes] | Iterable[bytes] | None"
    assert stream.metadata.class_name == "Response"
    assert stream.content.splitlines()[0].strip().startswith("stream: IO[bytes]")
    assert "blocks of bytes, representing the response content" in stream.content
    assert (stream.line_start, stream.line_end) == (13, 15)
    assert all(c.lookup_only for c in found.values())
    plain = found["acme.response.Response.default_media_type"]
    assert plain.metadata.signature is None
    assert 'default_media_type = "application/json"' in plain.content
    assert "The media type used" in plain.content
    field = found["acme.response.Options.chunk_size"]
    assert field.metadata.signature == "int" and "How many bytes" in field.content
    # the deprecation note in an attribute docstring flags that attribute's chunk
    assert found["acme.response.Response.text"].metadata.deprecated
    assert not stream.metadata.deprecated


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    # the package re-exports the class: `acme.Response.stream` is the public spelling
    files = {
        "acme/__init__.py": '"""Acme."""\nfrom acme.response import Response\n',
        "acme/response.py": RESPONSE,
    }
    with tree_hub(tmp_path, "acme", files) as session:
        yield session


def test_an_attribute_opens_by_its_name_and_through_a_re_export(hub: HubSession) -> None:
    own = code_tools.get_code_snippet(hub, symbol="acme.response.Response.stream")
    assert own.symbol == "acme.response.Response.stream"
    assert "representing the response content" in own.code
    public = code_tools.get_code_snippet(hub, symbol="acme.Response.stream")
    assert public.symbol == "acme.response.Response.stream"
    assert public.resolution == "re-export"
    field = code_tools.get_code_snippet(hub, symbol="Options.chunk_size")
    assert field.symbol == "acme.response.Options.chunk_size"
    with pytest.raises(NotFoundError):
        code_tools.get_code_snippet(hub, symbol="acme.Response.undocumented")


def test_deprecated_answers_for_an_attribute(hub: HubSession) -> None:
    old = deprecation_tools.check_deprecation(hub, "acme.Response.text")
    assert old.deprecated and old.since == "2.0"
    assert old.location is not None and old.location.startswith("acme:acme/response.py:")
    current = deprecation_tools.check_deprecation(hub, "acme.Response.stream")
    assert current.found and not current.deprecated


def test_search_finds_an_attribute_by_name_only(hub: HubSession) -> None:
    named = search_tools.search_api(hub, "acme.response.Response.stream").hits
    assert named and named[0].symbol == "acme.response.Response.stream"
    # its words alone never rank it: the class and its methods answer a description
    described = search_tools.search_api(hub, "file-like object iterable blocks of bytes").hits
    assert all(h.symbol != "acme.response.Response.stream" for h in described)
