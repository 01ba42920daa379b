"""check_deprecation verdicts read from text that walkthroughs found wrong: the Sphinx
`changelog` extension's entries, a docs sentence about a command's option, removed and
undeprecated wording, unquoted class names, aliases, ambiguous short names, a replacement
that is itself deprecated, and one record per statement across indexed versions. Each
on a small package written here, never the real one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.config import Settings
from ctxhub.core.knowledge import Deprecation
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.docs.chunks import chunk_doc_file
from ctxhub.ingest.python.changelog import extract_changelog_deprecations
from ctxhub.ingest.python.changelog_files import is_changelog
from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.ingest.refresh.file_roles import is_text_changelog
from ctxhub.session import HubSession, set_embedder
from ctxhub.store.protocol import SourceState
from ctxhub.tools.deprecation_tools import check_deprecation
from ctxhub.tools.render_deprecation import deprecation_report

MAKE = b'''\
import warnings


def define(maybe_cls=None, repr_ns=None, cmp=None, convert=None):
    """Make a class.

    :param convert: converts the value

    .. deprecated:: 17.4.0
       *convert* is deprecated in favour of *converter*.
    .. versionchanged:: 19.2.0 *convert* keyword argument removed.
    """
    return maybe_cls


s = attributes = define


class Env:
    def configure(self, include_object=None, include_name=None):
        return include_object

    def drop_rule(self, rule_name, table_name, type_=None):
        return rule_name


class WsgiMiddle:
    def __init__(self, app, workers=None):
        self.app = app


class Router:
    def __init__(self, lifespan=None):
        self.lifespan = lifespan


class Conn:
    """The current connection."""


class Code:
    @property
    def code(self):
        warnings.warn(
            "Code.code is deprecated; use Proto.close_code or Code.received.code",
            DeprecationWarning,
        )
        return 1
'''

OLD = b"""\
import warnings


class Conn:
    def __init__(self):
        warnings.warn("Conn is deprecated; use Proto instead", DeprecationWarning)


def auth():
    warnings.warn(
        "acme.old.auth is deprecated; use acme.legacy.auth instead", DeprecationWarning
    )
"""

LEGACY = b"""\
import warnings

warnings.warn("acme.legacy is deprecated", DeprecationWarning)
"""

INIT = b"from acme.make import Code, Conn, Env, WsgiMiddle, Router, attributes, define, s\n"

SPHINX_CHANGELOG = """\
==========
Changelog
==========

.. changelog::
    :version: 1.5.0
    :released: January 1, 2021

    .. change::
        :tags: removed, autogenerate

        The long deprecated
        :paramref:`.Env.configure.include_symbol` hook is removed.
        The :paramref:`.Env.configure.include_object` hook does the same.

    .. change::
        :tags: removed, operations

        Removed legacy parameter names from operations, these have been emitting
        warnings since version 0.8.  Legacy files can be modified directly:

        * :meth:`.Env.drop_rule` - "type" (use ``"type_"``) and "name"
          (use "rule_name")

        * :meth:`.Env.configure` - now drops the ``include_name`` hook

    .. change::
        :tags: bug, batch
        :tickets: 761

        Removed a race in :meth:`.Env.configure`, which dropped the
        ``include_name`` value.

.. changelog::
    :version: 1.4.0

    .. change::
        :tags: deprecated

        :func:`.define` is deprecated in favour of ``make``.
"""

UNRELEASED = """\
.. change::
    :tags: removed

    The ``acme.make.old_helper`` function is removed.
"""

MD_CHANGELOG = """\
# Changelog

## 21.1.0

### Deprecations

- The *cmp* argument to `acme.s()` has been **undeprecated**.

## 19.2.0

### Deprecations

- The `cmp` argument to `acme.s()` is now deprecated. Use `eq` instead.

## 0.19.0

### Deprecated

* Deprecate WsgiMiddle in favor of b2wsgi [#1504](https://example.org/1504).

## 0.16.0

### Deprecated/removed

* Passing a generator function to `acme.make.Router(lifespan=)` is deprecated.

## 0.15.0

### Deprecated/removed

* The `workers` parameter to `WsgiMiddle` was removed. It did nothing.
"""

GUIDE = """\
# Changes

- The `--head_only` option to the `acme run` command is deprecated; the `run`
  command lists less by default; use `--verbose` for more.
- **[changed] [cli]** The `run` command prints more.
"""

RUN = b'''\
def run(config, verbose=False):
    """Run the thing."""
    return config
'''


def _index(session: HubSession, source: str, files: dict[str, bytes]) -> None:
    for rel, code in files.items():
        extract = extract_python_file(source, rel, code, version=None, internal_packages={"acme"})
        session.store.replace_file(source, rel, extract.chunks, deprecations=extract.deprecations)


def _changelogs(source: str) -> list[Deprecation]:
    return [
        *extract_changelog_deprecations(source, "docs/build/changelog.rst", SPHINX_CHANGELOG),
        *extract_changelog_deprecations(source, "docs/build/unreleased/812.rst", UNRELEASED),
        *extract_changelog_deprecations(source, "CHANGELOG.md", MD_CHANGELOG),
    ]


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    set_embedder(HashingEmbedder(dim=64))
    files = {
        "acme/__init__.py": INIT,
        "acme/make.py": MAKE,
        "acme/old.py": OLD,
        "acme/legacy/__init__.py": LEGACY,
        "acme/command.py": RUN,
    }
    try:
        with HubSession(Settings(home=tmp_path)) as session:
            for source, version in (("acme", "2.0"), ("acme-sdist", "1.9")):
                session.store.upsert_source(SourceState(name=source, version=version))
                _index(session, source, files)
                session.store.replace_file(
                    source, "CHANGELOG.md", [], deprecations=_changelogs(source)
                )
            session.store.replace_file(
                "acme", "docs/guide.md", chunk_doc_file("acme", "guide.md", GUIDE)
            )
            yield session
    finally:
        set_embedder(None)


def test_sphinx_changelog_files_are_found_where_sphinx_keeps_them() -> None:
    for path in (
        "docs/build/changelog.rst",
        "docs/build/unreleased/812.rst",
        "doc/build/changelog/unreleased_20/10001.rst",
        "doc/build/changelog/changelog_14.rst",
    ):
        assert is_changelog(path) and is_text_changelog(path), path
    assert not is_changelog("docs/build/unreleased/README.txt")


def test_sphinx_changelog_entries_tagged_removed_or_deprecated() -> None:
    records = extract_changelog_deprecations("acme", "docs/build/changelog.rst", SPHINX_CHANGELOG)
    said = {(r.symbol, r.parameter, r.since) for r in records}
    # `:paramref:` names a parameter of its owner; the bug entry names no removal
    assert ("Env.configure", "include_symbol", "1.5.0") in said
    assert ("define", None, "1.4.0") in said
    assert not any(r.parameter == "include_name" for r in records)
    fragment = extract_changelog_deprecations("acme", "docs/build/unreleased/812.rst", UNRELEASED)
    assert [(r.symbol, r.since) for r in fragment] == [("acme.make.old_helper", None)]


def test_a_removed_hook_that_exists_nowhere_answers_removed(hub: HubSession) -> None:
    report = check_deprecation(hub, "include_symbol")
    # removed, and no definition claimed: nothing indexed defines it
    assert not report.found and report.deprecated and report.removed
    assert report.not_installed == (
        "removed in 1.5.0 per the changelog; not defined in the indexed acme 2.0"
    )
    assert report.removed_in == "1.5.0"
    owner = check_deprecation(hub, "acme.make.Env.configure")
    assert not owner.deprecated
    assert deprecation_report(owner).startswith(
        "acme.make.Env.configure: not deprecated; its `include_symbol` parameter was REMOVED"
        " (in 1.5.0)"
    )


def test_a_docs_sentence_about_an_option_deprecates_the_option(hub: HubSession) -> None:
    report = check_deprecation(hub, "acme.command.run")
    assert not report.deprecated
    (option,) = report.parameters
    assert option.parameter == "head_only" and option.origin == "docs"
    assert "[changed]" not in option.text  # the next list item is another entry
    assert "its `head_only` parameter is deprecated" in deprecation_report(report)


def test_removed_wording_reads_removed(hub: HubSession) -> None:
    middle = check_deprecation(hub, "acme.make.WsgiMiddle")
    workers = [p for p in middle.parameters if p.parameter == "workers"]
    assert workers and "its `workers` parameter was REMOVED (in 0.15.0)" in deprecation_report(
        middle
    )
    define = deprecation_report(check_deprecation(hub, "acme.make.define"))
    # the docstring's later note says the parameter went away in 19.2.0
    assert "`convert` (in 19.2.0)" in define or "`convert` parameter was REMOVED (in 19.2.0)" in (
        define
    )


def test_an_undeprecation_withdraws_the_earlier_deprecation(hub: HubSession) -> None:
    report = check_deprecation(hub, "acme.s")
    assert all(p.parameter != "cmp" for p in report.parameters)
    assert [u.parameter for u in report.undeprecated] == ["cmp"]
    text = deprecation_report(report)
    assert "`cmp`" not in text.splitlines()[0]
    assert "no longer deprecated: its `cmp` parameter was undeprecated in 21.1.0" in text


def test_an_unquoted_class_name_a_deprecated_entry_opens_with(hub: HubSession) -> None:
    report = check_deprecation(hub, "acme.make.WsgiMiddle")
    assert report.deprecated and report.since == "0.19.0"
    router = check_deprecation(hub, "acme.make.Router")
    assert not router.deprecated and router.parameters
    assert router.parameters[0].note.startswith("usage: Passing a generator")  # type: ignore[union-attr]


def test_an_alias_answers_as_its_definition(hub: HubSession) -> None:
    texts = [
        deprecation_report(check_deprecation(hub, name)).splitlines()[0].split(":", 1)[1]
        for name in ("acme.s", "acme.attributes", "acme.make.define", "acme.define")
    ]
    assert len(set(texts)) == 1, texts


def test_an_ambiguous_short_name_lists_each_definition(hub: HubSession) -> None:
    report = check_deprecation(hub, "Conn")
    assert report.deprecated is None
    verdicts = {c.symbol: c.deprecated for c in report.candidates}
    assert verdicts == {"acme.old.Conn": True, "acme.make.Conn": False}
    text = deprecation_report(report)
    assert text.startswith("Conn: 2 definitions carry that name")
    assert "- acme.make.Conn: no deprecation found" in text
    assert check_deprecation(hub, "acme.make.Conn").deprecated is False


def test_a_replacement_that_is_deprecated_itself_and_two_alternatives(hub: HubSession) -> None:
    auth = check_deprecation(hub, "acme.old.auth")
    assert auth.replacement == "acme.legacy.auth" and auth.replacement_deprecated
    assert "use acme.legacy.auth instead (itself deprecated)" in deprecation_report(auth)
    code = check_deprecation(hub, "acme.make.Code.code")
    assert code.replacement == "Proto.close_code or Code.received.code"


def test_records_of_two_indexed_versions_are_cited_once(hub: HubSession) -> None:
    report = check_deprecation(hub, "acme.old.auth")
    (entry,) = report.entries
    assert entry.also_in == ["acme-sdist"]
    line = deprecation_report(report).splitlines()[-1]
    assert "acme 2.0:acme/old.py" in line and "(also in acme-sdist 1.9)" in line


def test_a_sphinx_changelog_note_reads_its_roles_as_names() -> None:
    records = extract_changelog_deprecations("acme", "docs/build/changelog.rst", SPHINX_CHANGELOG)
    removed = next(r for r in records if r.symbol == "Env.configure.include_symbol")
    assert removed.note == (
        "Removed: The long deprecated `Env.configure.include_symbol` hook is removed."
        " The `Env.configure.include_object` hook does the same."
    )
    assert not any(":paramref:" in (r.note or "") or " `." in (r.note or "") for r in records)
    assert next(r for r in records if r.symbol == "define").note == (
        "`define` is deprecated in favour of ``make``."
    )


def test_a_removal_entry_lists_its_parameters_in_bullets_under_their_owners() -> None:
    records = extract_changelog_deprecations("acme", "docs/build/changelog.rst", SPHINX_CHANGELOG)
    listed = {(r.symbol, r.parameter, r.replacement) for r in records if "legacy" in r.text}
    assert listed == {
        ("Env.drop_rule", "type", "type_"),
        ("Env.drop_rule", "name", "rule_name"),
        ("Env.drop_rule.type", None, "type_"),
        ("Env.drop_rule.name", None, "rule_name"),
    }
    # a bullet of prose names no parameter, and an owner named `drop_...` is not dropped
    assert not any(r.symbol == "Env.drop_rule" and not r.parameter for r in records)


def test_an_operation_whose_legacy_parameters_were_removed_stays_current(hub: HubSession) -> None:
    report = check_deprecation(hub, "Env.drop_rule")
    assert report.found and not report.deprecated
    assert {p.parameter for p in report.parameters} == {"type", "name"}
    assert deprecation_report(report).startswith(
        "Env.drop_rule: not deprecated; these parameters were REMOVED:"
        " `type` (in 1.5.0; use `type_` instead), `name` (in 1.5.0; use `rule_name` instead)"
    )
