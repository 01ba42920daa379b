"""A member asked through a module-level instance (`logger.add` after `logger =
_Logger(...)`, the class imported under a private alias) is its class's member, found
along the class's bases, in every tool that resolves a name; a name only a type stub
defines is not offered as one to import."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.core.errors import NotFoundError
from ctxhub.core.knowledge import ChunkQuery
from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.search.stubs import runtime_definition
from ctxhub.session import HubSession
from ctxhub.tools import code_tools, deprecation_tools, trace_tools
from ctxhub.tools.nearest import nearest_names
from tests.unit.package_hub import tree_hub

LOGGER = '''\
class Base:
    def opt(self, depth=0):
        """Options for the next message."""
        return self.bind(depth=depth)


class Logger(Base):
    def __init__(self, core):
        self._core = core

    def add(self, sink):
        """Add a sink."""
        return self._core.add_sink(sink)

    def bind(self, **extra):
        """A logger with extra fields."""
        return Logger(self._core)
'''

INIT = '''\
"""Acme logging."""
from acme._logger import Logger as _Logger

__all__ = ["logger"]

logger = _Logger(None)
'''

STUB = """\
class Logger:
    def add(self, sink) -> int: ...
    def bind(self, **extra) -> "Logger": ...

logger: Logger
"""


def test_an_instance_of_a_privately_aliased_class_is_an_instance() -> None:
    made = extract_python_file(
        "acme", "acme/__init__.py", INIT, version=None, internal_packages={"acme"}
    )
    [instance] = [c for c in made.chunks if c.metadata.chunk_type == "instance"]
    assert instance.metadata.extra == {"instance_of": "acme._logger.Logger"}


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    files = {"acme/__init__.py": INIT, "acme/__init__.pyi": STUB, "acme/_logger.py": LOGGER}
    with tree_hub(tmp_path, "acme", files) as session:
        yield session


@pytest.mark.parametrize(
    ("asked", "expected"),
    [
        ("acme.logger.bind", "acme._logger.Logger.bind"),
        ("logger.add", "acme._logger.Logger.add"),
        ("logger.opt", "acme._logger.Base.opt"),  # along the class's bases
    ],
)
def test_a_member_through_an_instance_resolves_in_every_tool(
    hub: HubSession, asked: str, expected: str
) -> None:
    snippet = code_tools.get_code_snippet(hub, symbol=asked)
    assert (snippet.symbol, snippet.resolution) == (expected, "instance")
    assert trace_tools.trace_calls(hub, asked).symbol == expected
    report = deprecation_tools.check_deprecation(hub, asked)
    assert report.found and not report.deprecated


def test_a_name_only_a_stub_defines_is_not_offered(hub: HubSession) -> None:
    near = nearest_names(hub, "acme.Loger.add")
    assert "acme._logger.Logger.add" in near
    assert not any(n.startswith("acme.Logger") for n in near), near


def test_an_instance_never_borrows_a_member_of_the_class_spelt_like_it(tmp_path: Path) -> None:
    """`logger.stop` where `logger` holds a `Quiet` and a class `Logger` has `stop`:
    every tool says the instance has no such member."""
    core = (
        "import warnings\n\n__all__ = ['logger']\n\n\nclass Logger:\n"
        "    def stop(self):\n        warnings.warn('stop is deprecated', DeprecationWarning)\n\n\n"
        "class Quiet:\n    def hush(self):\n        return 1\n\n\nlogger = Quiet()\n"
    )
    with tree_hub(tmp_path, "acme", {"acme/__init__.py": "", "acme/core.py": core}) as hub:
        assert code_tools.get_code_snippet(hub, symbol="logger.hush").resolution == "instance"
        with pytest.raises(NotFoundError):
            code_tools.get_code_snippet(hub, symbol="logger.stop")
        assert not deprecation_tools.check_deprecation(hub, "logger.stop").found


def test_a_stub_of_a_privately_imported_class_still_describes_it(hub: HubSession) -> None:
    """The stub's `acme.Logger.add` is not importable, yet it types the code that runs:
    a search folds it into `acme._logger.Logger.add`."""
    (stub,) = hub.store.find_chunks(ChunkQuery(kind="api", symbol="acme.Logger.add"))
    runtime = runtime_definition(hub.store, stub)
    assert runtime is not None and runtime.symbol == "acme._logger.Logger.add"
