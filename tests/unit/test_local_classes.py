"""A class made inside a function (a factory's `class Handler`), the classes nested in
it and their methods are locals, as a def nested in a function is: each is marked with
the function it is local to (`nested_in`), has no public path, and its documented
attributes make no attribute definitions (core/nesting.py,
ingest/python/definition_chunks.py, attribute_chunks.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.core.knowledge import Chunk
from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.search.reexports import public_paths_of
from ctxhub.session import HubSession
from ctxhub.tools import code_tools
from ctxhub.tools.lookup import api_chunks
from ctxhub.tools.render import code_snippet
from tests.unit.package_hub import tree_hub

FACTORY = '''\
"""Handler factories."""


def make_handler(prefix):
    """Make a handler class that prefixes what it handles."""

    class Handler:
        """Handles one request."""

        timeout: float = 1.0
        """Seconds to wait for the request."""

        class Options:
            """The handler's options."""

            retries: int = 3
            """How often to retry."""

            def merged(self, other):
                """Both option sets in one."""
                return other

        def handle(self, request):
            """Handle the request."""
            return prefix + request

    return Handler


class Router:
    """Routes requests."""

    strict: bool = False
    """Whether a trailing slash matters."""

    class Rules:
        """The router's rules."""

        def check(self, uri):
            """Check the uri."""
            return uri
'''

FILES = {
    # `lc.factory` is an attribute of `lc`: a path through it reached `make_handler`'s
    # locals before
    "lc/__init__.py": 'from lc._impl import factory\n\n__all__ = ["factory"]\n',
    "lc/_impl/__init__.py": "",
    "lc/_impl/factory.py": FACTORY,
}
LOCALS = (
    "make_handler.Handler",
    "make_handler.Handler.Options",
    "make_handler.Handler.Options.merged",
    "make_handler.Handler.handle",
)


def _chunks() -> dict[str, Chunk]:
    extract = extract_python_file(
        "lc", "lc/_impl/factory.py", FACTORY, version=None, internal_packages={"lc"}
    )
    return {c.symbol or "": c for c in extract.chunks}


def test_a_class_made_in_a_function_and_its_members_are_local_to_it() -> None:
    chunks = _chunks()
    for qualname in LOCALS:
        assert chunks[f"lc._impl.factory.{qualname}"].metadata.extra["nested_in"] == (
            "make_handler"
        ), qualname
    # a module-level class, its nested class and their methods are no locals
    for qualname in ("make_handler", "Router", "Router.Rules", "Router.Rules.check"):
        assert "nested_in" not in chunks[f"lc._impl.factory.{qualname}"].metadata.extra


def test_a_local_class_makes_no_attribute_definitions() -> None:
    attributes = {s for s, c in _chunks().items() if c.metadata.chunk_type == "attribute"}
    # `timeout` and `retries` (in a class inside a class inside a function) make none
    assert attributes == {"lc._impl.factory.Router.strict"}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with tree_hub(tmp_path_factory.mktemp("local_classes"), "lc", FILES) as h:
        yield h


def test_a_local_class_and_its_methods_have_no_public_path(hub: HubSession) -> None:
    chunks = [
        _chunk(hub, f"lc._impl.factory.{q}") for q in (*LOCALS, "make_handler", "Router.Rules")
    ]
    public = public_paths_of(hub.store, chunks)
    assert public["lc._impl.factory.make_handler"] == "lc.factory.make_handler"
    assert public["lc._impl.factory.Router.Rules"] == "lc.factory.Router.Rules"
    # not `lc.factory.make_handler.Handler`: nothing imports a name made at call time
    assert not [s for s in public if ".make_handler." in s]


def _chunk(hub: HubSession, symbol: str) -> Chunk:
    found = api_chunks(hub.store, "lc", symbol=symbol)
    assert found, symbol
    return found[0]


def test_a_local_class_and_its_methods_are_marked_local(hub: HubSession) -> None:
    handler = code_tools.get_code_snippet(hub, symbol="lc._impl.factory.make_handler.Handler")
    assert handler.public_path is None
    assert "(local class in make_handler)" in code_snippet(handler)
    handle = code_tools.get_code_snippet(hub, symbol="lc._impl.factory.make_handler.Handler.handle")
    assert handle.public_path is None
    assert "(method of a local class in make_handler)" in code_snippet(handle)
