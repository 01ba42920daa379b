"""A changelog entry that deprecates a way of using a module ("Accessing package
metadata as attributes on the *kit* module is deprecated ... Please use
[`importlib.metadata`](url) instead") is a usage record of that module; a name the
module serves whose own records say no since (a `__getattr__` proxy's warning without
a version) is dated by it when both name the same replacement."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.config import Settings
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.python.changelog import extract_changelog_deprecations
from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.session import HubSession, set_embedder
from ctxhub.tools.deprecation_tools import check_deprecation
from ctxhub.tools.render_deprecation import deprecation_report

INIT = '''\
"""The kit."""

import warnings

_OLD = {"__title__": "summary", "__uri__": ""}


def __getattr__(name):
    if name not in _OLD:
        raise AttributeError(name)
    warnings.warn(
        f"Accessing kit.{name} is deprecated. Use importlib.metadata directly.",
        DeprecationWarning,
    )
    return ""


class Modern:
    """The new way."""


# deprecated: use kit.Modern
Legacy = Modern
'''

CHANGELOG = """\
# Changes

## [2.2.0](https://example.org/compare/2.1.0...2.2.0) - 2022-11-19

### Deprecated

- Accessing package metadata as attributes on the *kit* module is deprecated
  (for example, `kit.__version__`).
  Please use [`importlib.metadata`](https://docs.python.org/3/library/metadata.html) instead.
"""


def test_the_entry_is_a_usage_record_of_the_module() -> None:
    (record,) = extract_changelog_deprecations("kit", "CHANGELOG.md", CHANGELOG)
    assert (record.symbol, record.since, record.replacement) == (
        "kit",
        "2.2.0",
        "importlib.metadata",
    )
    assert record.partial and record.parameter is None  # one usage, not the module


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    set_embedder(HashingEmbedder(dim=64))
    try:
        with HubSession(Settings(home=tmp_path)) as session:
            code = extract_python_file(
                "kit", "kit/__init__.py", INIT, version="2.4", internal_packages={"kit"}
            )
            session.store.replace_file(
                "kit", "kit/__init__.py", code.chunks, deprecations=code.deprecations
            )
            records = extract_changelog_deprecations("kit", "CHANGELOG.md", CHANGELOG)
            session.store.replace_file("kit", "CHANGELOG.md", [], deprecations=records)
            yield session
    finally:
        set_embedder(None)


def test_a_served_name_is_dated_by_its_modules_usage_entry(hub: HubSession) -> None:
    report = check_deprecation(hub, "kit.__title__")
    assert report.deprecated and report.since == "2.2.0"
    assert report.replacement == "importlib.metadata"
    text = deprecation_report(report)
    assert text.startswith("kit.__title__: DEPRECATED since 2.2.0; use importlib.metadata")
    assert "- kit [changelog] -> importlib.metadata" in text  # where the date comes from
    # another replacement: another deprecation, not dated by that entry
    legacy = check_deprecation(hub, "kit.Legacy")
    assert legacy.deprecated and legacy.since is None
    # the module itself is not deprecated: one way of using it is
    module = check_deprecation(hub, "kit")
    assert not module.deprecated and module.parameters
