"""A hit that only another indexed release has (a method added after the installed
version) says so: the installed copy of its package has no such definition
(tools/installed_gaps.py)."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterator

import pytest

from ctxhub.config import Settings
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.session import HubSession, set_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools import hub_status as hub_status_module
from ctxhub.tools import search_tools
from ctxhub.tools.render import search_response

OLD = '''
class Settings:
    """Settings read from the environment."""

    def reload(self):
        """Read the environment again."""
        values = dict(self.environ)
        self.values = values
        return values
'''

NEW = (
    "import warnings\n"
    + OLD
    + '''
    def legacy_values(self):
        """The values, as a list."""
        warnings.warn("legacy_values is deprecated; use reload", DeprecationWarning)
        return list(self.values)

    def cached_instance(self):
        """Build the settings once and cache the instance for later calls."""
        if self.cache is None:
            self.cache = type(self)()
        return self.cache
'''
)


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    root = tmp_path_factory.mktemp("gaps")
    specs = []
    for name, text in (("ps", OLD), ("ps-next", NEW)):
        pkg = root / name / "ps"
        pkg.mkdir(parents=True)
        (pkg / "__init__.py").write_text("")
        (pkg / "main.py").write_text(text)
        if name == "ps-next":  # a package the installed distribution never ships
            (root / name / "pstools").mkdir()
            (root / name / "pstools" / "__init__.py").write_text(
                'def bootstrap_sandbox():\n    """Bootstrap a sandbox for the tour."""\n'
                "    made = [1]\n    made.append(2)\n    return made\n"
            )
        specs.append(SourceSpec(name=name, kind=["python"], path=str(root / name)))
    home = root / "home"
    embedder = HashingEmbedder(dim=64)
    installed = importlib.metadata.version("pydantic")
    with SQLiteStore(home / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        refresh(store, specs, home, embedder)
        # `add pypi:NAME --python` (installed) and `add pypi:NAME==X` (a newer release)
        for state in store.sources():
            origin, version = (
                ("pypi:pydantic", installed)
                if state.name == "ps"
                else ("pypi:pydantic==99.0", "99.0")
            )
            store.upsert_source(state.model_copy(update={"origin": origin, "version": version}))
            store.relabel_version(state.name, version)
    set_embedder(embedder)
    with HubSession(Settings(home=home)) as h:
        yield h
    set_embedder(None)


@pytest.fixture(autouse=True)
def _fresh_lookups(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hub_status_module, "_looked_up", {})


def test_a_definition_only_another_release_has_says_so(hub: HubSession) -> None:
    response = search_tools.search(hub, "build the settings once and cache the instance")
    hit = next(h for h in response.hits if h.symbol == "ps.main.Settings.cached_instance")
    note = hit.metadata["not_installed"]
    assert note.startswith("not in the installed version: ps (v")
    assert "has no ps.main.Settings.cached_instance; this is ps-next v99.0" in note
    assert f"NOTE: {note}" in search_response(response)


def test_a_definition_the_installed_version_has_says_nothing(hub: HubSession) -> None:
    response = search_tools.search(hub, "read the environment again", limit=10)
    reload = [h for h in response.hits if (h.symbol or "").endswith("Settings.reload")]
    assert reload and not any("not_installed" in h.metadata for h in response.hits[:1])
    assert all("not_installed" not in h.metadata for h in reload)


def test_a_deprecation_only_another_release_has_says_the_installed_one_lacks_it(
    hub: HubSession,
) -> None:
    from ctxhub.tools.deprecation_tools import check_deprecation
    from ctxhub.tools.render_deprecation import deprecation_report

    report = check_deprecation(hub, "ps.main.Settings.legacy_values")
    assert report.deprecated
    assert report.not_installed is not None
    assert "has no ps.main.Settings.legacy_values; this is ps-next" in report.not_installed
    assert f"NOTE: {report.not_installed}" in deprecation_report(report)
    assert check_deprecation(hub, "ps.main.Settings.reload").not_installed is None


def test_a_package_the_installed_copy_never_ships_has_no_version_note(hub: HubSession) -> None:
    response = search_tools.search(hub, "bootstrap a sandbox for the tour")
    hit = next(h for h in response.hits if h.symbol == "pstools.bootstrap_sandbox")
    assert "not_installed" not in hit.metadata
