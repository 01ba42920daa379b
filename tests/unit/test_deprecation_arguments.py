"""A project's own deprecation helpers read by their arguments: a `@deprecated(version,
thing=..., instead=...)` decorator, a `deprecate_attributes(__name__, {...})` table, a
`warn_deprecated("f(x=False)", version=...)` call about one parameter; and a towncrier
changelog's removals of names the code no longer has."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.config import Settings
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.session import HubSession, set_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools.deprecation_tools import check_deprecation

PACKAGE = {
    "acme/__init__.py": "from acme._queue import Queue\nfrom acme._run import open_group\n",
    "acme/_deprecate.py": """
import sys
import warnings


class AcmeDeprecationWarning(FutureWarning):
    pass


def _stringify(thing):
    return getattr(thing, "__qualname__", str(thing))


def warn_deprecated(thing, version, *, issue, instead):
    msg = f"{_stringify(thing)} is deprecated since acme {version}"
    if instead is not None:
        msg += f"; use {_stringify(instead)} instead"
    warnings.warn(AcmeDeprecationWarning(msg), stacklevel=3)


def deprecated(version, *, thing=None, issue, instead):
    def do_wrap(fn):
        def wrapper(*args, **kwargs):
            warn_deprecated(thing, version, instead=instead, issue=issue)
            return fn(*args, **kwargs)

        return wrapper

    return do_wrap


class DeprecatedAttribute:
    def __init__(self, value, version, issue, instead=None):
        self.value, self.version, self.issue, self.instead = value, version, issue, instead


def deprecate_attributes(module_name, attributes):
    def __getattr__(name):
        if name in attributes:
            info = attributes[name]
            thing = f"{module_name}.{name}"
            warn_deprecated(thing, info.version, issue=info.issue, instead=info.instead)
            return info.value
        raise AttributeError(name)

    sys.modules[module_name].__getattr__ = __getattr__
""",
    "acme/_queue.py": '''
from acme._deprecate import deprecated


class Queue:
    """A queue."""

    @deprecated("0.9.0", issue=497, thing="acme.lowlevel.Queue", instead="acme.open_channel(1)")
    def __init__(self):
        self.items = []
''',
    "acme/_run.py": '''
from acme._deprecate import warn_deprecated


def open_group(strict=None):
    """Open a group of tasks."""
    if strict is not None and not strict:
        warn_deprecated("open_group(strict=False)", version="0.25.0", issue=1, instead=None)
    return strict


def open_channel(size):
    """A channel."""
    return size
''',
    "acme/testing/__init__.py": """
from acme import _deprecate
from acme.testing._groups import Matcher as _Matcher

_deprecate.deprecate_attributes(
    __name__,
    {
        "Matcher": _deprecate.DeprecatedAttribute(
            _Matcher, version="0.33.0", issue=3326, instead="See the pytest docs"
        ),
    },
)
""",
    "acme/testing/_groups.py": "class Matcher:\n    pass\n",
    "CHANGES.rst": """\
Release history
===============

acme 0.33.0 (2025-01-01)
------------------------

Deprecations and removals
~~~~~~~~~~~~~~~~~~~~~~~~~

- Remove ``clear`` method on `acme.Event`: it was deprecated in 0.12.0.


Miscellaneous internal changes
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~

- Decrease indentation for errors raised in `acme.open_group`.
""",
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    home = tmp_path_factory.mktemp("deprecation-arguments")
    for rel, text in PACKAGE.items():
        path = home / "pkg" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    embedder = HashingEmbedder(dim=64)
    with SQLiteStore(home / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        specs = [SourceSpec(name="acme", kind=["python"], path=str(Path(home / "pkg")))]
        refresh(store, specs, home / "sources", embedder)
    set_embedder(embedder)
    with HubSession(Settings(home=home)) as h:
        yield h
    set_embedder(None)


def test_decorated_init_deprecates_its_class_with_the_arguments(hub: HubSession) -> None:
    report = check_deprecation(hub, "Queue")
    assert report.deprecated
    assert report.since == "0.9.0"  # the positional version, not the note
    assert report.replacement is not None and report.replacement.endswith("open_channel")


def test_the_thing_argument_names_what_is_deprecated(hub: HubSession) -> None:
    report = check_deprecation(hub, "acme.lowlevel.Queue")
    assert report.deprecated and report.since == "0.9.0"


def test_attributes_table_deprecates_each_key(hub: HubSession) -> None:
    report = check_deprecation(hub, "acme.testing.Matcher")
    assert report.deprecated and report.since == "0.33.0"
    assert report.replacement is None  # "See the pytest docs" names nothing
    assert report.note is not None and "See the pytest docs" in report.note


def test_call_form_subject_is_a_parameter(hub: HubSession) -> None:
    report = check_deprecation(hub, "open_group")
    assert not report.deprecated
    assert [(p.parameter, p.since) for p in report.parameters] == [("strict", "0.25.0")]


def test_changelog_removal_of_a_gone_name_and_no_misc_entry(hub: HubSession) -> None:
    gone = check_deprecation(hub, "acme.Event.clear")
    assert gone.deprecated and gone.removed and gone.removed_in == "0.33.0"
    assert not check_deprecation(hub, "acme.open_group").removed  # a Misc entry
