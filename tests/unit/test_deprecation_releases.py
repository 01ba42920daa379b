"""check_deprecation holds for the release the project runs: a changelog (here a docs
source's release notes, beside the installed package) or docs page stating a newer
release is told apart, not given as the verdict; a removed name nothing defines is not
`found`; a removal is cited where it is recorded; and the answer, like trace_calls',
names a source due a refresh (tools/deprecation_versions.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest

from ctxhub.core.knowledge import Deprecation
from ctxhub.core.outputs import RunningVersion
from ctxhub.session import HubSession
from ctxhub.tools import hub_status as hub_status_module
from ctxhub.tools.deprecation_tools import check_deprecation
from ctxhub.tools.deprecation_versions import absent_note
from ctxhub.tools.releases import release
from ctxhub.tools.render import call_trace
from ctxhub.tools.render_deprecation import deprecation_report
from ctxhub.tools.trace_tools import trace_calls
from tests.unit.package_hub import trees_hub

CODE = {
    "acme/__init__.py": "from acme.client import Client\n\n\n"
    'def old_api():\n    """The old API."""\n\n\n'
    'def modern():\n    """The modern API."""\n',
    "acme/client.py": 'class Client:\n    """A client."""\n\n'
    "    def fetch(self, url, timeout=None):\n"
    '        """Fetch a URL."""\n        return self.get(url)\n\n'
    '    def get(self, url):\n        """Get a URL."""\n        return url\n',
}

# the release notes of a docs source: a deprecation and the removal it announced, twice
NOTES = {
    "docs/releases/v0.5.0.md": "# 0.5.0\n\n## Deprecated\n\n"
    "- `acme.gone_helper` is deprecated; use `acme.modern` instead.\n",
    "docs/releases/v0.8.0.md": "# 0.8.0\n\n## Removed\n\n- `acme.gone_helper` has been removed.\n",
    "docs/releases/v1.5.0.md": "# 1.5.0\n\n## Deprecated\n\n"
    "- `acme.old_api` is deprecated; use `acme.modern` instead.\n"
    "- The `timeout` parameter of `acme.client.Client.fetch` is deprecated.\n",
    "docs/releases/v2.0.0.md": "# 2.0.0\n\n## Removed\n\n- `acme.old_api` has been removed.\n",
    "docs/guide.md": "# Guide\n\n## Getting\n\n"
    "`acme.Client.get` is deprecated since version 3.0; use `acme.Client.fetch` instead.\n",
}

HubAt = Callable[..., AbstractContextManager[HubSession]]


@pytest.fixture
def hub_at(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> HubAt:
    """A hub of the package `acme` indexed at `version` from the project's environment
    (`pypi:acme`: installed at that version, or at `installed` since) and the release
    notes beside it."""
    monkeypatch.setattr(hub_status_module, "_looked_up", {})
    monkeypatch.setattr(hub_status_module, "_versions_now", {})

    @contextmanager
    def make(version: str | None, installed: str | None = None) -> Iterator[HubSession]:
        def environment(origin: str, indexed: str | None) -> str | None:
            if not origin.startswith("pypi:") or installed is None:
                return None  # a folder follows nothing
            return f"refresh due: {installed} installed, {indexed} indexed"

        def now(origin: str, indexed: str | None) -> dict[str, object]:
            return {"installed_version": installed or indexed} if origin.startswith("pypi:") else {}

        monkeypatch.setattr(hub_status_module, "environment_note", environment)
        monkeypatch.setattr(hub_status_module, "installed_state", now)
        trees = {"acme": CODE, "acme-docs": NOTES}
        with trees_hub(tmp_path, trees, {"acme-docs": ("python", "docs")}) as hub:
            if version is not None:
                state = next(s for s in hub.store.sources() if s.name == "acme")
                hub.store.upsert_source(
                    state.model_copy(update={"origin": "pypi:acme", "version": version})
                )
                hub.store.relabel_version("acme", version)
            yield hub

    return make


def test_a_deprecation_a_newer_release_states_is_not_current(hub_at: HubAt) -> None:
    with hub_at("1.0") as hub:
        report = check_deprecation(hub, "acme.old_api")
    assert report.found and report.deprecated is False and not report.removed
    assert report.running is not None and (report.running.version, report.running.installed) == (
        "1.0",
        True,
    )
    assert sorted(d.since or "" for d in report.newer) == ["1.5.0", "2.0.0"]
    assert report.entries == [] and report.since is None and report.replacement is None
    text = deprecation_report(report)
    assert text.startswith(
        "acme.old_api: deprecated in 1.5.0 and removed in 2.0.0, newer than the installed"
        " acme 1.0: not deprecated in your version"
    )
    assert "acme-docs:docs/releases/v1.5.0.md:5" in text  # the records are still cited


def test_a_parameter_deprecated_in_a_newer_release_is_not_current(hub_at: HubAt) -> None:
    with hub_at("1.0") as hub:
        report = check_deprecation(hub, "acme.Client.fetch")
    assert not report.deprecated and report.parameters == []
    assert [d.parameter for d in report.newer] == ["timeout"]
    assert deprecation_report(report).startswith(
        "acme.Client.fetch: its `timeout` parameter deprecated in 1.5.0, newer than the"
        " installed acme 1.0: not deprecated in your version"
    )


def test_a_removal_still_to_come_leaves_the_deprecation_current(hub_at: HubAt) -> None:
    with hub_at("1.6") as hub:
        report = check_deprecation(hub, "acme.old_api")
    assert report.deprecated and report.since == "1.5.0"
    assert not report.removed and report.removed_in is None
    assert [d.since for d in report.newer] == ["2.0.0"]
    text = deprecation_report(report)
    assert text.startswith("acme.old_api: DEPRECATED since 1.5.0; use acme.modern instead")
    assert (
        "later: removed in 2.0.0, newer than the installed acme 1.6: not in effect in your"
        " version" in text
    )


def test_a_docs_statement_of_a_newer_release_is_not_current(hub_at: HubAt) -> None:
    with hub_at("1.0") as hub:
        report = check_deprecation(hub, "acme.Client.get")
        stated = check_deprecation(hub, "acme.Client.get", source="acme-docs")
    assert not report.deprecated and [d.origin for d in report.newer] == ["docs"]
    assert deprecation_report(report).startswith(
        "acme.Client.get: deprecated in 3.0, newer than the installed acme 1.0"
    )
    # asked of the docs source alone, no release runs: the docs' word stands
    assert stated.deprecated and stated.evidence == "docs" and stated.running is None


def test_without_a_known_release_every_record_counts(hub_at: HubAt) -> None:
    with hub_at(None) as hub:  # a folder: no version indexed, none installed
        report = check_deprecation(hub, "acme.old_api")
    assert report.running is None and report.newer == []
    assert report.deprecated and report.removed and report.removed_in == "2.0.0"


def test_a_removed_name_nothing_defines_is_not_found(hub_at: HubAt) -> None:
    with hub_at("1.0") as hub:
        report = check_deprecation(hub, "acme.gone_helper")
        kept = check_deprecation(hub, "acme.old_api")
    assert report.deprecated and report.removed and report.removed_in == "0.8.0"
    assert report.found is False and kept.found is True
    # what is known: the release notes' removal, and that the installed release lacks it
    assert report.not_installed == (
        "removed in 0.8.0 per the changelog; not defined in the installed acme 1.0"
    )
    text = deprecation_report(report)
    assert text.startswith("acme.gone_helper: REMOVED in 0.8.0 (deprecated since 0.5.0)")
    assert f"NOTE: {report.not_installed}" in text


def test_a_removal_cites_its_own_record_then_the_deprecation(hub_at: HubAt) -> None:
    with hub_at("1.0") as hub:
        report = check_deprecation(hub, "acme.gone_helper")
    assert report.location == "acme-docs:docs/releases/v0.8.0.md:5"
    assert report.deprecated_location == "acme-docs:docs/releases/v0.5.0.md:5"
    assert report.note == "`acme.gone_helper` has been removed."
    lines = deprecation_report(report).splitlines()
    at = lines.index("at acme-docs:docs/releases/v0.8.0.md:5")
    assert lines[at + 1] == "deprecated at acme-docs:docs/releases/v0.5.0.md:5"


def test_the_answers_name_a_source_due_a_refresh(hub_at: HubAt) -> None:
    with hub_at("1.0", installed="1.1") as hub:
        report = check_deprecation(hub, "acme.Client.fetch")
        trace = trace_calls(hub, "acme.client.Client.fetch")
        nothing = check_deprecation(hub, "acme.modern")
    said = "acme: refresh due: 1.1 installed, 1.0 indexed; run `ctxhub refresh acme`"
    assert report.source_notes == [said] and deprecation_report(report).endswith(said)
    assert nothing.source_notes == [said]  # the definition's source, with no record cited
    assert trace.nodes and trace.source_notes == [said]
    assert call_trace(trace).endswith(said)


def test_a_version_installed_since_the_index_is_the_one_answered_for(hub_at: HubAt) -> None:
    with hub_at("1.0", installed="1.6") as hub:
        report = check_deprecation(hub, "acme.old_api")
    assert report.running is not None
    assert (report.running.version, report.running.indexed) == ("1.6", "1.0")
    assert report.deprecated and report.since == "1.5.0" and not report.removed
    assert "newer than the installed acme 1.6 (indexed 1.0)" in deprecation_report(report)


@pytest.mark.parametrize(
    ("stated", "running", "newer"),
    [("6.3", "6.1", True), ("6.3.0", "6.3", False), ("7.0", "7.0.0.dev1", False)],
)
def test_releases_compare_by_their_numbers(stated: str, running: str, newer: bool) -> None:
    first, second = release(stated), release(running)
    assert first is not None and second is not None
    assert (first > second) is newer


def test_a_removal_is_noted_against_one_release_however_it_is_asked(hub_at: HubAt) -> None:
    # the bare name and the qualified one name the same removed definition: the note
    # names the same release (the installed one), not the release notes' own source
    with hub_at("1.0") as hub:
        bare = check_deprecation(hub, "gone_helper")
        qualified = check_deprecation(hub, "acme.gone_helper")
    assert bare.removed and qualified.removed
    assert bare.not_installed == (
        "removed in 0.8.0 per the changelog; not defined in the installed acme 1.0"
    )
    assert qualified.not_installed is not None and "installed acme 1.0" in qualified.not_installed


@pytest.mark.parametrize(("version", "current"), [("1.0", False), ("1.6", True)])
def test_a_bare_parameter_name_holds_for_the_running_release(
    hub_at: HubAt, version: str, current: bool
) -> None:
    # `timeout` names no symbol: where it is a deprecated parameter is split as a
    # symbol's records are, by the release the changelog states
    with hub_at(version) as hub:
        report = check_deprecation(hub, "timeout")
    owners = [d.symbol for d in report.parameter_of]
    later = [d.symbol for d in report.parameter_of_newer]
    assert (owners, later) == (
        (["acme.client.Client.fetch"], []) if current else ([], ["acme.client.Client.fetch"])
    )
    text = deprecation_report(report)
    assert ("as a parameter: `timeout` is deprecated where passed to" in text) is current
    if not current:
        assert (
            "as a parameter, later: `timeout` is deprecated where passed to"
            " acme.client.Client.fetch (1.5.0), newer than the installed acme 1.0: not in effect"
            " in your version"
        ) in text


def test_a_name_nothing_defines_is_noted_with_what_the_records_say() -> None:
    removal = Deprecation(
        source="notes",
        symbol="acme.Model.create_or_get",
        since="2.9.0",
        origin="changelog",
        note="Removed: The ``Model.create_or_get()`` method was removed.",
    )
    notice = Deprecation(
        source="notes", symbol="acme.old", origin="changelog", note="`acme.old` is deprecated."
    )
    running = RunningVersion(source="acme", package="acme", version="3.1", installed=False)
    assert absent_note("create_or_get", running, [removal], [removal]) == (
        "removed in 2.9.0 per the changelog; not defined in the indexed acme 3.1"
    )
    assert absent_note("create_or_get", None, [removal], [removal]) == (
        "removed in 2.9.0 per the changelog; not defined in any indexed source"
    )
    # only deprecated: the record is all that names it
    assert absent_note("acme.old", None, [notice], [notice]) == (
        "not defined in any indexed source: only the changelog names acme.old"
    )
