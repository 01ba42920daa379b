"""A module-level name bound to a function wrapped by a deprecation decorator by hand
(`utcnow = deprecated("...")(datetime.utcnow)`, or `old = deprecated(new, "...")`) is
a definition (`snippet` opens it) and deprecated as a decorated def is, while the
function it wraps stays current."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.session import HubSession
from ctxhub.tools import code_tools, deprecation_tools
from tests.unit.package_hub import tree_hub

DEPRECATION = """\
import functools
import warnings


def deprecated(instructions, version=None):
    def decorator(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            warnings.warn(instructions, DeprecationWarning, stacklevel=2)
            return func(*args, **kwargs)

        return wrapper

    return decorator
"""

UTIL = '''\
"""Utilities."""

import asyncio
import datetime
import warnings

from acme import deprecation
from acme.deprecation import deprecated

__all__ = ["create_task", "http_now"]


def http_now():
    """The current time as an HTTP date."""
    return datetime.datetime.now().strftime("%a, %d %b %Y %H:%M:%S GMT")


utcnow = deprecated(
    "This was a private alias; please reference datetime.utcnow() directly."
)(datetime.datetime.utcnow)
httpnow = deprecation.deprecated("Use `http_now` instead.")(http_now)
old_now = deprecated(http_now, "This alias is going away.", version="1.2")
create_task = warnings.deprecated("Use asyncio.create_task() instead.")(asyncio.create_task)
# a decorator made for later use deprecates nothing yet
deprecated_in_2 = deprecated("2.0")
'''


def test_both_spellings_make_a_definition_and_a_deprecation() -> None:
    extract = extract_python_file(
        "acme", "acme/util.py", UTIL, version=None, internal_packages={"acme"}
    )
    chunks = {c.symbol: c for c in extract.chunks}
    records = {d.symbol: d for d in extract.deprecations}
    wrappers = ("utcnow", "httpnow", "old_now", "create_task")
    for name in wrappers:
        chunk = chunks[f"acme.util.{name}"]
        assert chunk.metadata.chunk_type == "alias" and chunk.metadata.deprecated, name
        assert chunk.lookup_only and "alias_of" not in chunk.metadata.extra, name
    utcnow = chunks["acme.util.utcnow"]
    assert utcnow.metadata.extra["wraps"] == "datetime.datetime.utcnow"
    assert utcnow.metadata.extra["wrapped_by"] == "acme.deprecation.deprecated"
    assert (utcnow.line_start, utcnow.line_end) == (18, 20)
    assert chunks["acme.util.old_now"].metadata.extra["wraps"] == "acme.util.http_now"
    assert records["acme.util.utcnow"].note == (
        "This was a private alias; please reference datetime.utcnow() directly."
    )
    assert records["acme.util.httpnow"].replacement == "acme.util.http_now"
    old = records["acme.util.old_now"]
    assert (old.note, old.since) == ("This alias is going away.", "1.2")
    assert records["acme.util.create_task"].replacement == "asyncio.create_task"
    assert set(records) == {f"acme.util.{name}" for name in wrappers}
    assert not chunks["acme.util.http_now"].metadata.deprecated
    # a constant of `__all__` no longer: one chunk per name
    assert [c.metadata.chunk_type for c in extract.chunks if c.title == "create_task"] == ["alias"]


FACTORIES = '''\
"""Deprecation helpers that wrap nothing yet."""

from acme.deprecation import deprecated, make_deprecation_warner
from acme.messages import REMOVED_IN_3

MSG = "Use the new API instead."


def current():
    """Today's way."""


warn_old = make_deprecation_warner(__name__)
my_deprecated = deprecated(MSG)
removal = deprecated(REMOVED_IN_3)
literal = deprecated("3.0")(MSG)
old_current = deprecated(current, "Use `current`.")
'''


def test_a_decorator_factory_or_a_helper_given_a_constant_wraps_nothing() -> None:
    extract = extract_python_file(
        "acme", "acme/compat.py", FACTORIES, version=None, internal_packages={"acme"}
    )
    chunks = {c.symbol: c for c in extract.chunks}
    # a message, `__name__` or an imported CONSTANT is no function being wrapped
    for name in ("warn_old", "my_deprecated", "removal", "literal"):
        chunk = chunks.get(f"acme.compat.{name}")
        assert chunk is None or "wraps" not in chunk.metadata.extra, name
        assert chunk is None or not chunk.metadata.deprecated, name
    # a def of the module given first still is one
    assert chunks["acme.compat.old_current"].metadata.extra["wraps"] == "acme.compat.current"
    assert {d.symbol for d in extract.deprecations} == {"acme.compat.old_current"}


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    files = {
        "acme/__init__.py": '"""Acme."""\n',
        "acme/deprecation.py": DEPRECATION,
        "acme/util.py": UTIL,
    }
    with tree_hub(tmp_path, "acme", files) as session:
        yield session


def test_snippet_opens_a_wrapped_name(hub: HubSession) -> None:
    snippet = code_tools.get_code_snippet(hub, symbol="acme.util.utcnow")
    assert snippet.symbol == "acme.util.utcnow"
    assert "(datetime.datetime.utcnow)" in snippet.code
    # the wrapper is its own definition, not the function it wraps
    wrapped = code_tools.get_code_snippet(hub, symbol="acme.util.httpnow")
    assert wrapped.symbol == "acme.util.httpnow"


def test_deprecated_answers_for_each_spelling_and_not_for_the_target(hub: HubSession) -> None:
    utcnow = deprecation_tools.check_deprecation(hub, "acme.util.utcnow")
    assert utcnow.deprecated and utcnow.note is not None and "private alias" in utcnow.note
    assert utcnow.location == "acme:acme/util.py:18"
    httpnow = deprecation_tools.check_deprecation(hub, "acme.util.httpnow")
    assert httpnow.deprecated and httpnow.replacement == "acme.util.http_now"
    old = deprecation_tools.check_deprecation(hub, "acme.util.old_now")
    assert old.deprecated and old.since == "1.2"
    task = deprecation_tools.check_deprecation(hub, "acme.util.create_task")
    assert task.deprecated and task.replacement == "asyncio.create_task"
    # the function a deprecated wrapper wraps is not deprecated by it
    current = deprecation_tools.check_deprecation(hub, "acme.util.http_now")
    assert current.found and not current.deprecated
