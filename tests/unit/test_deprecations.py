"""Deprecations from code (warnings, decorators, docstrings, aliases) and changelogs."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxhub.core.knowledge import Deprecation
from ctxhub.ingest.python.chunks import PythonFileExtract, extract_python_file
from ctxhub.ingest.python.deprecation_text import (
    docstring_directives,
    find_replacement,
    find_since,
    find_subject,
)
from ctxhub.ingest.python.deprecations import (
    extract_changelog_deprecations,
    is_changelog,
    link_deprecations,
)
from ctxhub.ingest.refresh.file_roles import is_text_changelog

TREE = Path(__file__).parent.parent / "fixtures" / "python_api" / "tree"


def extract(relpath: str) -> PythonFileExtract:
    data = (TREE / f"{relpath}.txt").read_bytes()
    return extract_python_file("fx", relpath, data, version=None, internal_packages={"fakepkg"})


def records(ex: PythonFileExtract) -> dict[str, list[Deprecation]]:
    out: dict[str, list[Deprecation]] = {}
    for r in ex.deprecations:
        out.setdefault(r.symbol, []).append(r)
    return out


@pytest.fixture(scope="module")
def core() -> PythonFileExtract:
    return extract("src/fakepkg/sub/core.py")


def test_decorator_deprecation_with_resolved_replacement(core: PythonFileExtract) -> None:
    (old,) = records(core)["fakepkg.sub.core.OldProcessor"]
    assert (old.origin, old.replacement, old.since) == (
        "decorator",
        "fakepkg.sub.core.EchoProcessor",
        "2.0",
    )
    assert old.path == "src/fakepkg/sub/core.py" and old.source == "fx"
    chunk = next(c for c in core.chunks if c.symbol == "fakepkg.sub.core.OldProcessor")
    assert chunk.metadata.deprecated is True
    assert chunk.metadata.extra["deprecation"]["replacement"] == "fakepkg.sub.core.EchoProcessor"


def test_subclass_that_only_warns_in_init_is_an_alias(core: PythonFileExtract) -> None:
    (legacy,) = records(core)["fakepkg.sub.core.LegacyProcessor"]
    assert legacy.origin == "alias" and legacy.replacement == "fakepkg.sub.core.EchoProcessor"
    assert "fakepkg.sub.core.LegacyProcessor" in core.deprecated_symbols
    assert "fakepkg.sub.core.LegacyProcessor.__init__" not in core.deprecated_symbols


def test_docstring_directive_deprecates_the_function(core: PythonFileExtract) -> None:
    (helper,) = records(core)["fakepkg.sub.core.old_helper"]
    assert (helper.origin, helper.since, helper.replacement) == (
        "docstring",
        "1.5",
        "fakepkg.helpers.retry",
    )
    lines = (TREE / "src/fakepkg/sub/core.py.txt").read_text().splitlines()
    assert ".. deprecated:: 1.5" in lines[(helper.line or 0) - 1]


def test_parameter_deprecations_leave_the_function_current(core: PythonFileExtract) -> None:
    found = records(core)["fakepkg.sub.core.configure"]
    assert {r.origin for r in found} == {"docstring", "warn"}  # the UserWarning is no deprecation
    assert all(r.replacement == "value" and r.since == "1.4" for r in found)
    assert any((r.note or "").startswith("parameter `legacy`") for r in found)
    assert "fakepkg.sub.core.configure" not in core.deprecated_symbols
    chunk = next(c for c in core.chunks if c.symbol == "fakepkg.sub.core.configure")
    assert chunk.metadata.deprecated is False


def test_helpers_that_emit_computed_warnings_are_not_deprecated(core: PythonFileExtract) -> None:
    assert "fakepkg.sub.core.emit" not in records(core)


def test_module_level_alias_marked_by_a_comment(core: PythonFileExtract) -> None:
    (old_echo,) = records(core)["fakepkg.sub.core.OldEcho"]
    assert (old_echo.origin, old_echo.replacement, old_echo.since) == (
        "alias",
        "fakepkg.sub.core.EchoProcessor",
        "1.1",
    )
    assert "fakepkg.sub.core.Compat" not in records(core)  # an unmarked alias is not deprecated


def test_deprecated_shim_module_reexports_are_aliases() -> None:
    legacy = extract("src/fakepkg/sub/legacy.py")
    got = records(legacy)
    assert got["fakepkg.sub.legacy"][0].replacement == "fakepkg.sub.core"
    assert got["fakepkg.sub.legacy"][0].since == "1.2"
    assert got["fakepkg.sub.legacy.Settings"][0].replacement == "fakepkg.sub.core.Settings"
    assert legacy.chunks[0].metadata.deprecated is True


def test_module_warning_at_import_deprecates_the_module() -> None:
    moved = extract("src/fakepkg/sub/moved.py")
    (rec,) = moved.deprecations
    assert (rec.symbol, rec.origin, rec.replacement) == (
        "fakepkg.sub.moved",
        "warn",
        "fakepkg.helpers",
    )


def test_module_getattr_proxy() -> None:
    proxy = extract("src/fakepkg/sub/proxy.py")
    got = records(proxy)
    (old,) = got["fakepkg.sub.proxy.OldName"]
    assert old.origin == "alias" and old.replacement == "fakepkg.frames.TextFrame"
    # Lazily imported names that do not warn are not deprecated.
    assert set(got) == {"fakepkg.sub.proxy.OldName"}


SHIM = """\
from typing import TYPE_CHECKING
from fakepkg.utils import warn_deprecation

__all__ = ("Repository", "wrap_error")


def __getattr__(attr_name: str) -> object:
    if attr_name in __all__:
        module = "fakepkg.plugins.repository"
        value = globals()[attr_name] = getattr(__import__(module), attr_name)
        warn_deprecation(
            deprecated_name=f"fakepkg.contrib.{attr_name}",
            version="2.12",
            kind="import",
            removal_in="3.0",
            info=f"importing {attr_name} from 'fakepkg.contrib' is deprecated",
        )
        return value
    raise AttributeError(attr_name)


if TYPE_CHECKING:
    from fakepkg.plugins.repository import Repository, wrap_error
"""


def test_a_module_that_offers_only_warning_names_is_deprecated() -> None:
    shim = extract_python_file(
        "fakepkg",
        "src/fakepkg/contrib/__init__.py",
        SHIM,
        version=None,
        internal_packages={"fakepkg"},
    )
    (module,) = [c for c in shim.chunks if c.metadata.chunk_type == "module"]
    assert module.metadata.deprecated is True
    assert records(shim)["fakepkg.contrib"][0].note.startswith("every name this module offers")
    # the same lazy `__getattr__` without the warning deprecates nothing
    lazy = SHIM.replace("warn_deprecation(", "print(")
    plain = extract_python_file(
        "fakepkg",
        "src/fakepkg/contrib/__init__.py",
        lazy,
        version=None,
        internal_packages={"fakepkg"},
    )
    assert not [c for c in plain.chunks if c.metadata.deprecated]
    # a module that also defines one of the names it offers is not a shim
    mixed = SHIM + "\nclass Repository: ...\n"
    both = extract_python_file(
        "fakepkg",
        "src/fakepkg/contrib/__init__.py",
        mixed,
        version=None,
        internal_packages={"fakepkg"},
    )
    assert "fakepkg.contrib" not in records(both)


def test_chains_of_aliases_are_followed_across_files(core: PythonFileExtract) -> None:
    legacy = extract("src/fakepkg/sub/legacy.py")
    linked = link_deprecations(
        core.deprecations + legacy.deprecations,
        core.deprecated_symbols | legacy.deprecated_symbols,
    )
    by = {r.symbol: r for r in linked}
    # legacy.OldProcessor -> core.OldProcessor -> core.EchoProcessor
    assert by["fakepkg.sub.legacy.OldProcessor"].replacement == "fakepkg.sub.core.EchoProcessor"
    assert by["fakepkg.sub.legacy.Settings"].replacement == "fakepkg.sub.core.Settings"


@pytest.mark.parametrize(
    "source",
    [
        'warnings.warn("old is deprecated", DeprecationWarning)',
        'warnings.warn("old is deprecated", category=PendingDeprecationWarning)',
        'warn("old is deprecated", FutureWarning)',
        'warnings.warn(DeprecationWarning("old is deprecated"))',
        'warn_deprecated("old is deprecated")',
    ],
)
def test_warning_call_forms(source: str) -> None:
    code = f"import warnings\nfrom warnings import warn\n\n\ndef old():\n    {source}\n"
    ex = extract_python_file("fx", "src/p/m.py", code, version=None, internal_packages=set())
    assert [(r.symbol, r.origin, r.note) for r in ex.deprecations] == [
        ("p.m.old", "warn", "old is deprecated")
    ]
    assert ex.deprecated_symbols == {"p.m.old"}


def test_a_warning_about_something_else_is_partial() -> None:
    code = (
        "import warnings\n\n\ndef run(x=None):\n"
        '    warnings.warn("Passing x is deprecated", DeprecationWarning)\n'
    )
    ex = extract_python_file("fx", "src/p/m.py", code, version=None, internal_packages=set())
    assert [r.symbol for r in ex.deprecations] == ["p.m.run"]
    assert ex.deprecated_symbols == set()


def test_thin_warning_subclass_needs_no_subject_in_its_message() -> None:
    code = (
        "import warnings\nfrom p.new import New\n\n\nclass Old(New):\n"
        "    def __init__(self, *args):\n"
        '        warnings.warn("Going away soon.", DeprecationWarning)\n'
        "        super().__init__(*args)\n"
    )
    ex = extract_python_file("fx", "src/p/m.py", code, version=None, internal_packages={"p"})
    (rec,) = ex.deprecations
    assert (rec.symbol, rec.origin, rec.replacement) == ("p.m.Old", "alias", "p.new.New")


def test_an_unconditional_warning_naming_its_function_deprecates_it() -> None:
    code = (
        "import warnings\n\n\ndef old():\n"
        '    warnings.warn("old() is deprecated, use new() instead", DeprecationWarning)\n'
        "    return new()\n"
    )
    ex = extract_python_file("fx", "src/p/m.py", code, version=None, internal_packages=set())
    assert ex.deprecations[0].replacement == "new"
    assert ex.deprecated_symbols == {"p.m.old"}


# --- prose ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Use :class:`~pkg.worker.Worker` instead.", "pkg.worker.Worker"),
        ("`A` is deprecated. Use `B` instead.", "B"),
        ("Please use pkg.new.mod instead.", "pkg.new.mod"),
        ("Import from :mod:`pkg.new` instead.", "pkg.new"),
        ("Use ``settings=Svc.Settings(model=...)`` instead.", "Svc.Settings"),
        ("Deprecated in favour of `new_api()`.", "new_api"),
        ("Use Pipecat's universal `Context` instead.", "Context"),
        ("Use it with care.", None),
        ('In favor of "consolidated" handlers.', None),
        ("No replacement.", None),
    ],
)
def test_find_replacement(text: str, expected: str | None) -> None:
    assert find_replacement(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("`Foo.bar` is deprecated since 1.0.", "Foo.bar"),
        ("Parameter 'json_config' is deprecated.", "json_config"),
        ("old() has been deprecated", "old"),
        ("`Svc(param=...)` is deprecated", None),  # a parameter, not Svc
        ("Passing a dict is deprecated", None),
    ],
)
def test_find_subject(text: str, expected: str | None) -> None:
    assert find_subject(text) == expected


def test_find_since() -> None:
    assert find_since("`X` is deprecated since 1.3.0 and will be removed") == "1.3.0"
    assert find_since("deprecated as of v2.1rc1") == "2.1rc1"
    assert find_since("will be removed in 2.0.0") is None


def test_docstring_directives_top_level_and_per_parameter() -> None:
    doc = (
        "Do things.\n\n.. deprecated:: 1.2\n    Use `g` instead.\n\n"
        "Args:\n    old: Old knob.\n\n        .. deprecated:: 1.1\n            Gone soon.\n"
    )
    top, param = docstring_directives(doc)
    assert (top.version, top.text, top.nested) == ("1.2", "Use `g` instead.", False)
    assert (param.version, param.nested, param.parameter) == ("1.1", True, "old")


# --- changelogs -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("relpath", "expected"),
    [
        ("CHANGELOG.md", True),
        ("docs/HISTORY.rst", True),
        ("changelog/123.deprecated.md", True),
        ("newsfragments/4.removed.rst", True),
        ("changelog/_template.md.j2", False),
        ("docs/changelog-guide/intro.md", False),
        # one page per release in a release-notes folder, named by its version
        ("docs/releases/v6.0.0.rst", True),
        ("docs/releases/4.2.rst", True),
        ("Doc/whatsnew/3.12.rst", True),
        ("docs/releases/v6.0.0b1.md", True),
        ("docs/releases/index.rst", False),  # the list of releases, not one's notes
        ("docs/releases/security.rst", False),
        ("docs/guide/v6.0.0.rst", False),  # a version name outside a release folder
    ],
)
def test_is_changelog(relpath: str, expected: bool) -> None:
    assert is_changelog(relpath) is expected


@pytest.mark.parametrize(
    ("relpath", "expected"),
    [
        # a changelog's conventional name with a prefix or suffix: another project's or
        # an older series' history shipped beside the current one
        ("BFG_HISTORY.rst", True),
        ("HISTORY-1.x.txt", True),
        ("OLD_CHANGES.md", True),
        ("docs/LEGACY-NEWS.rst", True),
        ("CHANGES_2.txt", True),
        ("old_changes.md", True),  # at the root, any case
        ("docs/changelog-old.md", True),  # "changelog" says it in any case, anywhere
        # lower-case words inside a docs tree are topics, not histories
        ("docs/browser_history.rst", False),
        ("docs/news_feed.md", False),
        ("docs/making-changes.rst", False),
        ("BFG_HISTORY.py", False),
        ("docs/HISTORYLESS.md", False),  # a word of its own, not the conventional name
    ],
)
def test_an_affixed_changelog_name_is_a_changelog(relpath: str, expected: bool) -> None:
    assert is_changelog(relpath) is expected
    assert is_text_changelog(relpath) is expected  # the refresh reads what the chunker parses


@pytest.mark.parametrize(
    ("relpath", "expected"),
    [
        ("CHANGES.rst", True),
        ("docs/release-notes.md", True),
        ("changelog.d/12.removal.md", True),
        ("docs/changes.html", False),  # a page of a built docs site
        # an sdist's release history in plain text or without an extension: its headings
        # and bullets read as in CHANGES.rst
        ("CHANGES.txt", True),
        ("HISTORY", True),
        ("NEWS", True),
        ("docs/notes.txt", False),
        ("src/pkg/history.py", False),
        (".claude/skills/changelog/SKILL.md", False),  # not a towncrier fragment
    ],
)
def test_refresh_reads_the_same_changelogs_the_chunker_parses(relpath: str, expected: bool) -> None:
    assert is_text_changelog(relpath) is expected


@pytest.fixture(scope="module")
def changelog() -> dict[str, Deprecation]:
    text = (TREE / "CHANGELOG.md").read_text()
    return {r.symbol: r for r in extract_changelog_deprecations("fx", "CHANGELOG.md", text)}


def test_changelog_entries_become_records(changelog: dict[str, Deprecation]) -> None:
    old = changelog["OldProcessor"]
    assert (old.since, old.replacement, old.origin) == ("2.0.0", "EchoProcessor", "changelog")
    assert changelog["LegacyProcessor"].replacement == "EchoProcessor"
    assert old.note and old.note.startswith("Deprecated `OldProcessor`")  # marker dropped
    # "`Cls` methods `a()` and `b()`" deprecates members of Cls.
    assert {"BaseProcessor.push_all", "BaseProcessor.flush"} <= set(changelog)
    # "the `legacy` parameter of `configure()`": a parameter record against configure
    legacy = changelog["configure"]
    assert (legacy.parameter, legacy.replacement) == ("legacy", None)  # "pass" is no "use"


def test_changelog_sections_versions_and_removals(changelog: dict[str, Deprecation]) -> None:
    gone = changelog["fakepkg.sub.gone"]
    assert gone.since is None and gone.replacement == "fakepkg.sub.core"  # Unreleased
    assert changelog["old_api"].since == "1.5.0"
    assert changelog["old_api"].note == "Breaking: Removed the `old_api()` function."
    # Added/Fixed sections, nested bullets and code samples name nothing deprecated.
    assert not {"EchoProcessor.stream", "stream", "Settings", "NotDeprecated", "NotAName"} & set(
        changelog
    )


def test_towncrier_fragments() -> None:
    def read(name: str) -> list[Deprecation]:
        rel = f"changelog/{name}"
        return extract_changelog_deprecations("fx", rel, (TREE / rel).read_text())

    (dep,) = read("123.deprecated.md")
    assert (dep.symbol, dep.replacement, dep.since) == (
        "frames_mod.validate",
        "fakepkg.frames.check",
        None,
    )
    (removed,) = read("124.removed.md")
    assert removed.symbol == "helpers.old_log" and removed.note == "Removed `helpers.old_log`."
    assert read("125.added.md") == []


def test_a_project_deprecation_helper_called_with_keywords() -> None:
    """litestar-style `warn_deprecation(version=..., deprecated_name=..., alternative=...)`:
    no literal message, the keywords say it all."""
    source = b"""
from fakepkg.utils.deprecation import warn_deprecation


class StaticFilesConfig:
    def __post_init__(self):
        warn_deprecation(
            version="2.6.0",
            deprecated_name="StaticFilesConfig",
            kind="class",
            alternative="create_static_files_router",
        )


def serve(path, legacy=False):
    if legacy:
        warn_deprecation(version="2.1", deprecated_name="legacy", kind="parameter")
    return path
"""
    ex = extract_python_file(
        "fx", "src/fakepkg/static.py", source, version=None, internal_packages={"fakepkg"}
    )
    found = records(ex)
    (cls,) = found["fakepkg.static.StaticFilesConfig"]
    assert (cls.since, cls.replacement, cls.origin) == (
        "2.6.0",
        "create_static_files_router",
        "warn",
    )
    deprecated = {c.symbol for c in ex.chunks if c.metadata.deprecated}
    assert "fakepkg.static.StaticFilesConfig" in deprecated
    (param,) = found["fakepkg.static.serve"]  # a parameter: recorded, serve stays current
    assert param.since == "2.1" and "fakepkg.static.serve" not in deprecated
