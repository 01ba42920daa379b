"""A module-level call of a deprecation function imported from elsewhere that names one
of the module's own names (`deprecated('old_name', 'message')`, as zope.deprecation
spells it) deprecates that name, with the message; a loop over literal names does so
for each name, its message's fields filled in."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.core.knowledge import Deprecation
from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.ingest.python.deprecation_text import find_since
from ctxhub.session import HubSession
from ctxhub.tools import deprecation_tools
from tests.unit.package_hub import tree_hub

SESSION = '''\
"""Sessions."""

from otherlib.deprecation import deprecated
from acme.tokens import check_token

import otherlib.deprecation


def make_session():
    """A session."""


class OldSerializer:
    """Serializes."""


deprecated(
    'OldSerializer',
    'acme.session.OldSerializer is deprecated as of Acme 2.0 for security concerns. '
    'Use acme.session.make_session instead.',
)

check_token = check_token  # api
deprecated('check_token', 'acme.session.check_token is deprecated as of Acme 1.9. '
           'Use acme.tokens.check_token instead.')

otherlib.deprecation.deprecated(('make_session',), 'Going away in 3.0.')

for attr in ('Allow', 'Deny'):
    deprecated(
        attr,
        '"acme.session.{attr}" is deprecated in Acme 2.0. Adjust your '
        'import to "acme.rules.{attr}"'.format(attr=attr),
    )

Allow = 'Allow'
Deny = 'Deny'

# a call of this shape naming no name of this module deprecates nothing
deprecated('Use the new API instead.', 'x')
'''

UNRELATED = '''\
"""Calls that deprecate nothing of this module."""

from acme.registry import register


def handler():
    """Handles."""


register('handler', 'a handler that is not deprecated')
'''


DECORATED = '''\
"""Decorators of deprecation packages, one imported under another name."""

from deprecated import deprecated as legacy
from deprecation import fail_if_not_removed


@legacy(version="1.2.0", reason="Use `new_api` instead")
def old_api():
    """Old."""


@fail_if_not_removed
def checked():
    """A test helper of the same package: it deprecates nothing."""


def new_api():
    """New."""
'''


def _records(module: str, relpath: str, text: str) -> dict[str, Deprecation]:
    extract = extract_python_file("acme", relpath, text, version=None, internal_packages={"acme"})
    return {d.symbol: d for d in extract.deprecations}


def test_a_call_naming_a_module_name_deprecates_it() -> None:
    records = _records("acme.session", "acme/session.py", SESSION)
    serializer = records["acme.session.OldSerializer"]
    assert serializer.since == "2.0"
    assert serializer.replacement == "acme.session.make_session"
    token = records["acme.session.check_token"]
    assert (token.since, token.replacement) == ("1.9", "acme.tokens.check_token")
    # the call's own words, before the generic note of the alias it deprecates
    assert token.note is not None and token.note.startswith("acme.session.check_token is")
    assert token.origin == "call"
    # a tuple of names, and the deprecation module called through its dotted name
    assert records["acme.session.make_session"].note == "Going away in 3.0."
    # each name of a loop over literal names, its message filled for that name
    allow = records["acme.session.Allow"]
    assert allow.note == (
        '"acme.session.Allow" is deprecated in Acme 2.0. Adjust your import to "acme.rules.Allow"'
    )
    assert (allow.since, allow.replacement) == ("2.0", "acme.rules.Allow")
    assert records["acme.session.Deny"].replacement == "acme.rules.Deny"
    # neither the module nor a name the call does not name
    assert set(records) == {
        f"acme.session.{n}"
        for n in ("OldSerializer", "check_token", "make_session", "Allow", "Deny")
    }


def test_a_call_of_another_function_naming_a_module_name_deprecates_nothing() -> None:
    assert _records("acme.handlers", "acme/handlers.py", UNRELATED) == {}


def test_a_decorator_imported_under_another_name_still_deprecates() -> None:
    records = _records("acme.api", "acme/api.py", DECORATED)
    assert set(records) == {"acme.api.old_api"}
    assert (records["acme.api.old_api"].since, records["acme.api.old_api"].replacement) == (
        "1.2.0",
        "acme.api.new_api",
    )


def test_a_product_name_may_stand_before_the_version_but_python_dates_nothing() -> None:
    assert find_since("x is deprecated as of Acme 1.9. Use y.") == "1.9"
    assert find_since("deprecated in Acme 2.0") == "2.0"
    assert find_since("x is deprecated in Python 3.12") is None


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    files = {"acme/__init__.py": '"""Acme."""\n', "acme/session.py": SESSION}
    with tree_hub(tmp_path, "acme", files) as session:
        yield session


def test_check_deprecation_answers_from_the_call(hub: HubSession) -> None:
    report = deprecation_tools.check_deprecation(hub, "acme.session.OldSerializer")
    assert report.deprecated and report.since == "2.0"
    assert report.replacement == "acme.session.make_session"
    current = deprecation_tools.check_deprecation(hub, "acme.session")
    assert not current.deprecated  # the calls are about names, not the module
