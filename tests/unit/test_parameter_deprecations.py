"""A note that deprecates one parameter of X records a parameter deprecation: X stays
current, and check_deprecation says which parameter is deprecated instead."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.config import Settings
from ctxhub.core.knowledge import Deprecation
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.python.chunks import PythonFileExtract, extract_python_file
from ctxhub.ingest.python.deprecations import extract_changelog_deprecations
from ctxhub.session import HubSession, set_embedder
from ctxhub.tools import deprecation_tools
from ctxhub.tools.render_deprecation import deprecation_report

CHANGELOG = """\
# Changelog

## 2.0.0

### Deprecated

- `acme.Renderer()`'s *pad* argument has been renamed to *pad_to*.
  *pad* is now deprecated.
- The `width` parameter of `acme.layout()` is deprecated.
- `acme.Widget(size=...)` is deprecated; use `acme.Widget(extent=...)`.
- `acme.OldThing` is deprecated, use `acme.NewThing` instead.
"""

MODULE = b'''\
import warnings


class Renderer:
    """Renders."""

    def __init__(self, pad=None, pad_to=None):
        if pad is not None:
            warnings.warn(
                "The `pad` argument is deprecated. Use `pad_to` instead.",
                DeprecationWarning,
            )
            pad_to = pad
        self.pad_to = pad_to
'''


def extract_module() -> PythonFileExtract:
    return extract_python_file(
        "acme", "acme/__init__.py", MODULE, version=None, internal_packages={"acme"}
    )


def by_symbol(records: list[Deprecation]) -> dict[str, Deprecation]:
    return {r.symbol: r for r in records}


def test_changelog_parameter_notes_deprecate_the_parameter_only() -> None:
    found = by_symbol(extract_changelog_deprecations("acme", "CHANGELOG.md", CHANGELOG))
    renderer = found["acme.Renderer"]
    assert (renderer.parameter, renderer.replacement, renderer.since) == ("pad", "pad_to", "2.0.0")
    assert found["acme.layout"].parameter == "width"
    assert found["acme.Widget"].parameter == "size"
    assert found["acme.OldThing"].parameter is None  # the class itself
    assert "acme.Renderer.pad" not in found and "width" not in found


def test_a_warning_about_an_argument_is_a_parameter_record() -> None:
    extract = extract_module()
    (record,) = [r for r in extract.deprecations if r.symbol == "acme.Renderer.__init__"]
    # pad_to is a parameter (also an attribute): the replacement stays the parameter's name
    assert (record.parameter, record.replacement) == ("pad", "pad_to")
    assert not extract.deprecated_symbols


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    set_embedder(HashingEmbedder(dim=64))
    try:
        with HubSession(Settings(home=tmp_path)) as session:
            extract = extract_module()
            session.store.replace_file(
                "acme", "acme/__init__.py", extract.chunks, deprecations=extract.deprecations
            )
            records = extract_changelog_deprecations("acme", "CHANGELOG.md", CHANGELOG)
            session.store.replace_file("acme", "CHANGELOG.md", [], deprecations=records)
            yield session
    finally:
        set_embedder(None)


def test_check_deprecation_reports_the_parameter_not_the_class(hub: HubSession) -> None:
    report = deprecation_tools.check_deprecation(hub, "acme.Renderer")
    assert not report.deprecated and report.found
    assert {p.parameter for p in report.parameters} == {"pad"}
    text = deprecation_report(report)
    assert text.startswith(
        "acme.Renderer: not deprecated; its `pad` parameter is deprecated "
        "(since 2.0.0; use `pad_to` instead)"
    )
    init = deprecation_tools.check_deprecation(hub, "acme.Renderer.__init__")
    assert not init.deprecated and init.parameters[0].replacement == "pad_to"
    assert deprecation_tools.check_deprecation(hub, "acme.OldThing").deprecated
