"""Deprecation shapes a walkthrough missed: a helper spelt as a dunder, a constructor
that always warns, an option popped from `**kwargs`, a module `__getattr__` serving the
keys of a local table, and the changelog's other wordings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.ingest.python.changelog import extract_changelog_deprecations
from ctxhub.session import HubSession
from ctxhub.tools.deprecation_tools import check_deprecation
from ctxhub.tools.render_deprecation import deprecation_report
from tests.unit.package_hub import package_hub

FILES = {
    "__init__.py": '''
import warnings


def __deprecated__(s):
    warnings.warn(s, DeprecationWarning)


class OldKey:
    def __init__(self, *args, **kwargs):
        __deprecated__('"OldKey" has been renamed to "NewKey".')
        self.args = args


class NewKey:
    pass


class Renamed:
    def __init__(self):
        warnings.warn('"Renamed" has been renamed to "Target".', DeprecationWarning)


class Target:
    pass


class Table:
    @classmethod
    def create(cls, safe=True, **options):
        if 'fail_silently' in options:
            __deprecated__('"fail_silently" has been deprecated in favor of '
                           '"safe" for the create() method.')
            safe = options.pop('fail_silently')
        return safe

    def drop(self, **kwargs):
        cascade = kwargs.pop('cascade', False)
        old = kwargs.pop('cascade_all', None)
        if old is not None:
            __deprecated__('"cascade_all" is deprecated, use "cascade" instead.')
        return old or cascade


class Formatter:
    """Format records.

    .. deprecated:: 21.3.0
       *processor* (singular) in favor of *processors* (plural). Removal is not
       planned.
    """

    def __init__(self, processor=None, processors=()):
        self.processors = processors or [processor]


class Connection:
    def __init__(self, dsn, **kwargs):
        if 'autocommit' in kwargs:
            warnings.warn('Drivers also use the "autocommit" option: remove it.',
                          DeprecationWarning)
        self.dsn = dsn


class Careful:
    def __init__(self, value=None):
        if value is None:
            warnings.warn("Careful() without a value is deprecated.", DeprecationWarning)
        self.value = value
''',
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with package_hub(tmp_path_factory.mktemp("shapes"), "pkgs", FILES) as h:
        yield h


def test_a_dunder_named_helper_is_a_helper(hub: HubSession) -> None:
    report = check_deprecation(hub, "pkgs.Table.create")
    assert not report.deprecated
    assert [p.parameter for p in report.parameters] == ["fail_silently"]


def test_a_constructor_that_always_warns_deprecates_its_class(hub: HubSession) -> None:
    through_helper = check_deprecation(hub, "pkgs.OldKey")
    assert through_helper.deprecated and through_helper.replacement == "pkgs.NewKey"
    direct = check_deprecation(hub, "pkgs.Renamed")
    assert direct.deprecated and direct.replacement == "pkgs.Target"
    # a warning on some constructions only is one usage: the class stays current
    careful = check_deprecation(hub, "pkgs.Careful")
    assert not careful.deprecated


def test_an_option_popped_from_kwargs_is_the_deprecated_parameter(hub: HubSession) -> None:
    (create,) = check_deprecation(hub, "pkgs.Table.create").parameters
    assert (create.parameter, create.replacement) == ("fail_silently", "safe")
    (drop,) = check_deprecation(hub, "pkgs.Table.drop").parameters
    assert (drop.parameter, drop.replacement) == ("cascade_all", "cascade")
    (option,) = check_deprecation(hub, "pkgs.Connection").parameters
    assert (option.parameter, option.replacement) == ("autocommit", None)  # not itself


def test_in_favor_of_another_parameter_names_it(hub: HubSession) -> None:
    report = check_deprecation(hub, "pkgs.Formatter")
    assert not report.deprecated
    (note,) = report.parameters
    assert (note.parameter, note.replacement) == ("processor", "processors")


def test_no_deprecation_found_is_one_short_line(hub: HubSession) -> None:
    report = check_deprecation(hub, "pkgs.NewKey")
    assert not report.deprecated
    assert deprecation_report(report) == (
        "pkgs.NewKey: no deprecation found (checked: warnings, deprecation helpers,"
        " decorators, docstrings, aliases, changelogs, docs)"
    )
    # the structured answer keeps what each kind of evidence covers
    assert any("call sites" in c for c in report.checked)


CHANGELOG = """# Changelog

## 3.0.0

In this release there are two notable changes:

* The ``Model.create_or_get()`` method was removed. See the documentation for the
  code one would write instead.
* Nothing else.

## 2.0.0

### Deprecated

- The entire `pkgs.legacy` module is deprecated.
  Please use the primitives from `pkgs.modern` instead.
"""


def test_changelog_wordings() -> None:
    records = {
        r.symbol: r for r in extract_changelog_deprecations("pkgs", "CHANGELOG.md", CHANGELOG)
    }
    removed = records["Model.create_or_get"]  # passive "was removed", no Removed heading
    assert removed.since == "3.0.0" and "removed" in (removed.note or "").lower()
    legacy = records["pkgs.legacy"]  # "The entire `x` module is deprecated"
    assert (legacy.since, legacy.replacement) == ("2.0.0", "pkgs.modern")


def test_a_module_getattr_serving_a_local_tables_keys(tmp_path: Path) -> None:
    files = {
        "__init__.py": """
import warnings


def __getattr__(name):
    metadata_keys = {"__description__": "summary", "__uri__": "", "__version__": ""}
    if name not in metadata_keys:
        raise AttributeError(name)
    if name != "__version__":
        warnings.warn(
            f"Accessing meta.{name} is deprecated. Use importlib.metadata directly.",
            DeprecationWarning,
        )
    return metadata_keys[name]
""",
    }
    with package_hub(tmp_path, "meta", files) as hub:
        description = check_deprecation(hub, "meta.__description__")
        version = check_deprecation(hub, "meta.__version__")
    assert description.deprecated
    assert description.note == (
        "Accessing meta.__description__ is deprecated. Use importlib.metadata directly."
    )
    assert description.replacement == "importlib.metadata"  # not the table's value
    assert not version.deprecated  # the guard spares it


def test_a_warning_naming_its_own_module_deprecates_the_module(tmp_path: Path) -> None:
    files = {
        "legacy.py": '''
"""Old primitives.

.. deprecated:: 2.0
"""
import warnings


def _deprecated():
    warnings.warn(
        "`olds.legacy` is deprecated, please use `olds.modern` instead.",
        DeprecationWarning,
    )


def wrap():
    _deprecated()
''',
        "modern.py": "def wrap():\n    pass\n",
    }
    with package_hub(tmp_path, "olds", files) as hub:
        report = check_deprecation(hub, "olds.legacy")
    assert report.deprecated and (report.since, report.replacement) == ("2.0", "olds.modern")
