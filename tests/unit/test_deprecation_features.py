"""A parameter that marks something else deprecated (`deprecated: bool`, documented "Mark
this command as deprecated") is a feature, not a deprecation; and a constructor's
deprecated usages answer for its class."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.config import Settings
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.python.chunks import PythonFileExtract, extract_python_file
from ctxhub.ingest.python.deprecation_subjects import deprecated_sentences
from ctxhub.session import HubSession, set_embedder
from ctxhub.tools import deprecation_tools
from ctxhub.tools.render_deprecation import deprecation_report

APP = b'''\
import warnings
from typing import Annotated

from annotated_doc import Doc


class App:
    def __init__(
        self,
        deprecated: Annotated[
            bool, Doc("Mark this command as being deprecated in the help text.")
        ] = False,
    ) -> None:
        self.deprecated = deprecated

    def command(
        self,
        deprecated: Annotated[
            bool, Doc("Mark this command as deprecated in the help outputs.")
        ] = False,
        hidden: Annotated[bool, Doc("Hide it. Shows it as deprecated when set.")] = False,
        legacy: Annotated[bool, Doc("This parameter is deprecated, use `hidden`.")] = False,
    ) -> None:
        """Register a command."""


class OptionInfo:
    def __init__(self, is_flag: bool | None = None, flag_value: str | None = None) -> None:
        if is_flag is not None or flag_value is not None:
            warnings.warn(
                "The 'is_flag' and 'flag_value' parameters are not supported and will be"
                " removed in a future release.",
                DeprecationWarning,
            )
        self.is_flag = is_flag


def _setup_compat(autocompletion=None, shell_complete=None):
    if shell_complete is not None:
        warnings.warn(
            "The support for 'shell_complete' is deprecated, use 'autocompletion'.",
            DeprecationWarning,
        )
'''


def extract() -> PythonFileExtract:
    return extract_python_file("acme", "acme/app.py", APP, version=None, internal_packages={"acme"})


def test_a_parameter_that_marks_something_deprecated_is_no_deprecation() -> None:
    records = {(r.symbol, r.parameter) for r in extract().deprecations}
    assert ("acme.app.App.command", "deprecated") not in records
    assert ("acme.app.App.__init__", "deprecated") not in records
    assert ("acme.app.App.command", "hidden") not in records
    # a parameter whose own doc says it is deprecated still is
    assert ("acme.app.App.command", "legacy") in records


@pytest.mark.parametrize(
    ("text", "name", "said"),
    [
        ("Mark this command as deprecated in the help outputs.", "deprecated", False),
        ("Whether the command is deprecated.", "deprecated", False),
        ("If set, the option is deprecated and shown so.", "deprecated_reason", False),
        ("This parameter is deprecated.", "deprecated", True),
        ("`deprecated` is deprecated, use `status`.", "deprecated", True),
        ("Passing a string is marked as deprecated.", "value", True),
        ("Note that this usage is deprecated.", "default", True),
    ],
)
def test_deprecated_sentences(text: str, name: str, said: bool) -> None:
    assert (deprecated_sentences(text, name) is not None) == said


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    home: Path = tmp_path_factory.mktemp("home")
    set_embedder(HashingEmbedder(dim=64))
    try:
        with HubSession(Settings(home=home)) as session:
            ex = extract()
            session.store.replace_file(
                "acme", "acme/app.py", ex.chunks, deprecations=ex.deprecations
            )
            yield session
    finally:
        set_embedder(None)


def test_the_commands_deprecated_parameter_is_current(hub: HubSession) -> None:
    report = deprecation_tools.check_deprecation(hub, "App.command")
    assert [p.parameter for p in report.parameters] == ["legacy"]
    app = deprecation_tools.check_deprecation(hub, "App")
    assert not app.deprecated and not app.parameters


def test_a_constructors_deprecated_usage_answers_for_its_class(hub: HubSession) -> None:
    report = deprecation_tools.check_deprecation(hub, "OptionInfo")
    assert not report.deprecated
    assert [p.symbol for p in report.parameters] == ["acme.app.OptionInfo.__init__"]
    assert "is_flag" in deprecation_report(report)


def test_a_bare_parameter_name_says_where_it_is_deprecated(hub: HubSession) -> None:
    report = deprecation_tools.check_deprecation(hub, "shell_complete")
    assert not report.unknown and not report.deprecated
    assert [d.symbol for d in report.parameter_of] == ["acme.app._setup_compat"]
    text = deprecation_report(report)
    assert text.splitlines()[0] == (
        "shell_complete: no symbol of that name is indexed; it is a deprecated parameter"
    )
    assert "deprecated where passed to acme.app._setup_compat" in text
    # a name neither defined nor a deprecated parameter stays unknown
    assert deprecation_tools.check_deprecation(hub, "autocompletion").unknown
