"""Two versions of one package indexed as two sources: get_code_snippet and trace_calls
answer from the version installed and name the other, and a call graph stays within its
root's source (tools/code_tools.py, tools/resolve.py, hub_status.installed_ranks); a
pinned release is never due a refresh, at `serve`'s start as in status."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.config import Settings
from ctxhub.core.errors import NotFoundError
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.session import HubSession, set_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.sources.manifest import writable_manifest
from ctxhub.store.protocol import SourceState
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools import code_tools, docs_tools, search_tools, trace_tools
from ctxhub.tools import hub_status as hub_status_module
from ctxhub.tools.hub_status import hub_status
from ctxhub.tools.render import call_trace, code_snippet, doc_page, search_response

BODY = '        """Do it."""\n        step = 1\n        step += 1\n        return step\n'
MODELS = 'class Config:\n    """The settings."""\n\n    debug = False\n    level = 1\n'


def _main(padding: int) -> str:
    """The package's main module; `padding` lines move its definitions down (the
    installed version is the longer file, so line order alone would pick the other)."""
    return (
        "from tv.models import Config\n" + "\n" * padding + "\n\nclass App:\n"
        '    """The app."""\n\n'
        f"    def add(self, other):\n{BODY}\n"
        "    plus = add\n\n"
        "    def __call__(self):\n"
        '        """Run it."""\n'
        "        command = get_command(self)\n"
        "        command.debug = True\n"
        "        return command\n\n\n"
        "def get_command(app):\n"
        '    """The command of an app."""\n'
        "    config = Config()\n"
        "    config.level = 2\n"
        "    return config\n"
    )


def _tools(padding: int) -> str:
    """A module with an alias of `get_command` and a call through it; `padding` lines
    move them down (the installed version's come first here, unlike `_main`'s)."""
    return (
        "from tv.main import get_command\n" + "\n" * padding + "\n\nfetch = get_command\n\n\n"
        "def use_fetch(app):\n"
        '    """Fetch the command of an app."""\n'
        "    command = fetch(app)\n"
        "    command.level = 3\n"
        "    return command\n"
    )


def _readme(source: str, package: str) -> str:
    return (
        f"# {package}\n\n## Configure the app\n\nConfigure the app with a Config: set its"
        f" debug flag and level before you run it ({source} edition).\n"
    )


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    root = tmp_path_factory.mktemp("versions")
    specs = []
    for name, padding in (("tv", 40), ("tv-old", 0)):
        pkg = root / name / "tv"
        pkg.mkdir(parents=True)
        (pkg / "__init__.py").write_text("from tv.main import App\n")
        (pkg / "main.py").write_text(_main(padding))
        (pkg / "models.py").write_text(MODELS)
        (pkg / "tools.py").write_text(_tools(40 - padding))
        (root / name / "README.md").write_text(_readme(name, "tv"))
        specs.append(SourceSpec(name=name, kind=["python", "docs"], path=str(root / name)))
    # another package with a page of the same path: another answer, never folded
    (root / "ot" / "ot").mkdir(parents=True)
    (root / "ot" / "ot" / "__init__.py").write_text("def unrelated():\n    return 0\n")
    (root / "ot" / "README.md").write_text(_readme("ot", "ot"))
    specs.append(SourceSpec(name="ot", kind=["python", "docs"], path=str(root / "ot")))
    home = root / "home"
    embedder = HashingEmbedder(dim=64)
    installed = importlib.metadata.version("pydantic")
    with SQLiteStore(home / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        refresh(store, specs, home, embedder)
        # as `add pypi:NAME --python` and `add pypi:NAME==X` record them: the first is
        # the version installed, the second a pinned older release
        for state in store.sources():
            origin, version = (
                ("pypi:pydantic", installed)
                if state.name == "tv"
                else ("pypi:pydantic==0.1", "0.1")
                if state.name == "tv-old"
                else (state.origin, None)
            )
            store.upsert_source(state.model_copy(update={"origin": origin, "version": version}))
            if version:
                store.relabel_version(state.name, version)
    set_embedder(embedder)
    with HubSession(Settings(home=home)) as h:
        yield h
    set_embedder(None)


@pytest.fixture(autouse=True)
def _fresh_lookups(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hub_status_module, "_looked_up", {})


def test_a_snippet_comes_from_the_installed_version_and_names_the_other(
    hub: HubSession,
) -> None:
    for asked in ("App.add", "tv.main.App.add"):
        snippet = code_tools.get_code_snippet(hub, symbol=asked)
        assert snippet.source == "tv", asked
        assert "tv.main.App.add (source tv-old)" in snippet.alternatives
    # a public name (the package re-exports App) reads both versions' definitions
    for asked in ("tv.App", "tv.App.add"):
        snippet = code_tools.get_code_snippet(hub, symbol=asked)
        assert snippet.source == "tv", asked
        assert any("(source tv-old)" in a for a in snippet.alternatives), asked
    # a misspelt class is not read past: the method is offered, not answered
    with pytest.raises(NotFoundError, match=r"did you mean tv\.App\.add"):
        code_tools.get_code_snippet(hub, symbol="Ap.add")
    pinned = code_tools.get_code_snippet(hub, symbol="App.add", source="tv-old")
    assert pinned.source == "tv-old"


def test_an_alias_in_both_versions_answers_from_the_installed_one(hub: HubSession) -> None:
    # the older version's alias line comes first in the file: each alias is followed in
    # its own source, and the alias line shown is the installed version's
    snippet = code_tools.get_code_snippet(hub, symbol="tv.main.App.plus")
    assert (snippet.symbol, snippet.source, snippet.resolution) == (
        "tv.main.App.add",
        "tv",
        "alias",
    )
    assert snippet.alias is not None and snippet.alias.startswith(f"{snippet.path}:53:")
    assert "tv.main.App.add (source tv-old)" in snippet.alternatives


def test_a_call_graph_stays_in_its_roots_source(hub: HubSession) -> None:
    for source in (None, "tv", "tv-old"):
        trace = trace_tools.trace_calls(hub, "App.__call__", depth=2, source=source)
        root = hub.store.get_chunks([trace.id])[0]
        assert root.source == (source or "tv")
        nodes = hub.store.get_chunks([n.id for n in trace.nodes])
        assert [c.symbol for c in nodes] == ["tv.main.get_command", "tv.models.Config"]
        assert {c.source for c in nodes} == {root.source}, source


def test_a_call_graph_names_the_other_sources_of_its_root(hub: HubSession) -> None:
    trace = trace_tools.trace_calls(hub, "App.__call__")
    assert trace.other_sources == ["tv-old"]
    assert "also defined in: tv-old" in call_trace(trace)
    assert trace_tools.trace_calls(hub, "App.__call__", source="tv").other_sources == []


def test_callers_of_an_alias_in_both_versions_stay_in_the_roots_source(
    hub: HubSession,
) -> None:
    # the older version's alias comes last among the aliases found: the calls written
    # by the alias are still read from the installed version's, the root's
    trace = trace_tools.trace_calls(hub, "tv.tools.fetch", "callers")
    root = hub.store.get_chunks([trace.id])[0]
    assert (root.symbol, root.source) == ("tv.main.get_command", "tv")
    nodes = hub.store.get_chunks([n.id for n in trace.nodes])
    assert "tv.tools.use_fetch" in {c.symbol for c in nodes}
    assert {c.source for c in nodes} == {"tv"}


def test_installed_ranks_put_the_installed_version_first(hub: HubSession) -> None:
    ranks = hub_status_module.installed_ranks(hub.store, {"tv", "tv-old"})
    assert ranks == {"tv": hub_status_module.INSTALLED, "tv-old": hub_status_module.UNKNOWN}


def test_a_pinned_release_is_never_due_at_serve_start_nor_in_status(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ctxhub.app.refresh import distributions_due

    monkeypatch.chdir(tmp_path)  # no project manifest here
    settings = Settings(home=tmp_path / "home")
    manifest = writable_manifest(settings.home, cwd=tmp_path)
    # a pinned release of a package this interpreter has in another version
    manifest.add(SourceSpec(name="pinned", kind=["docs"], package="pydantic", release="0.0.1"))
    manifest.add(SourceSpec(name="follows", kind=["python"], package="pydantic"))
    manifest.save()
    with SQLiteStore(settings.home / "ctxhub.db") as store:
        store.upsert_source(
            SourceState(name="pinned", origin="pypi:pydantic==0.0.1", version="0.0.1")
        )
        store.upsert_source(SourceState(name="follows", origin="pypi:pydantic", version="0.0.2"))
        report = {s.name: s for s in hub_status(store, 30).sources}
    due = [s.name for s in distributions_due(settings)]
    assert due == ["follows"]
    assert [name for name, s in report.items() if s.refresh_due] == due
    assert report["follows"].installed_version == importlib.metadata.version("pydantic")


def test_a_search_folds_the_other_version_into_the_installed_ones_hit(hub: HubSession) -> None:
    for kinds in (None, ["api"]):
        response = search_tools.search(hub, "App add step", kinds=kinds, limit=10)
        copies = [h for h in response.hits if h.symbol == "tv.main.App.add"]
        assert [h.source for h in copies] == ["tv"], kinds
        [also] = copies[0].metadata["also_in"]
        assert also["source"] == "tv-old" and also["version"] == "0.1"
        assert hub.store.get_chunks([also["id"]])[0].source == "tv-old"
        assert "also in v0.1 (tv-old)" in search_response(response)
    # asked of the old version alone, it answers alone
    pinned = search_tools.search(hub, "App add step", source="tv-old", limit=10)
    assert [h.source for h in pinned.hits if h.symbol == "tv.main.App.add"] == ["tv-old"]


def test_a_folded_source_that_is_due_a_refresh_is_named_in_the_notes(
    hub: HubSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    due = "refresh due: 9.9 installed, 1.0 indexed"
    monkeypatch.setattr(
        hub_status_module,
        "environment_note",
        lambda origin, indexed: due if origin == "pypi:pydantic" else None,
    )
    response = search_tools.search(hub, "App add step", limit=10)
    [hit] = [h for h in response.hits if h.symbol == "tv.main.App.add"]
    # due a refresh, it is still the version nearest to what runs: the pin folds into it
    assert hit.source == "tv"
    assert [a["source"] for a in hit.metadata["also_in"]] == ["tv-old"]
    assert any(n.startswith(f"tv: {due}") for n in response.source_notes)


def test_a_page_of_two_versions_is_one_hit_and_another_packages_page_stays(
    hub: HubSession,
) -> None:
    response = search_tools.search_docs(hub, "configure the app debug flag level", limit=10)
    readmes = [(h.source, h.path) for h in response.hits if h.path == "README.md"]
    assert sorted(readmes) == [("ot", "README.md"), ("tv", "README.md")]
    tv = next(h for h in response.hits if h.source == "tv")
    assert [v["source"] for v in tv.metadata["also_in"]] == ["tv-old"]
    ot = next(h for h in response.hits if h.source == "ot")
    assert "also_in" not in ot.metadata


def test_without_the_environment_the_better_ranked_copy_is_kept() -> None:
    from ctxhub.search.rank import Candidate
    from ctxhub.search.versions import fold_versions
    from tests.conftest import make_chunk

    def cand(source: str, symbol: str, score: float) -> Candidate:
        return Candidate(chunk=make_chunk(source, "p/m.py", symbol), fused=score, signals={})

    ranked = [cand("old", "p.m.f", 0.9), cand("new", "p.m.g", 0.8), cand("new", "p.m.f", 0.7)]
    kept = fold_versions(ranked, list, None)
    assert [(c.chunk.source, c.chunk.symbol) for c in kept] == [("old", "p.m.f"), ("new", "p.m.g")]
    assert [c.source for c in kept[0].versions] == ["new"]
    preferred = fold_versions(ranked, list, lambda names: {"new": 0, "old": 1})
    assert [(c.chunk.source, c.chunk.symbol) for c in preferred] == [
        ("new", "p.m.f"),
        ("new", "p.m.g"),
    ]
    assert preferred[0].score == 0.9 and [c.source for c in preferred[0].versions] == ["old"]


def test_a_path_lookup_answers_from_the_installed_version_and_names_the_others(
    hub: HubSession,
) -> None:
    snippet = code_tools.get_code_snippet(hub, path="tv/models.py", line_start=2)
    assert snippet.source == "tv" and snippet.other_sources == ["tv-old"]
    assert "also in: tv-old (pass source=NAME)" in code_snippet(snippet)
    pinned = code_tools.get_code_snippet(hub, path="tv/models.py", line_start=2, source="tv-old")
    assert pinned.source == "tv-old" and pinned.other_sources == []


def test_a_doc_page_by_path_answers_from_the_installed_version_and_names_the_others(
    hub: HubSession,
) -> None:
    page = docs_tools.get_doc(hub, path="README")
    assert page.source == "tv" and sorted(page.other_sources) == ["ot", "tv-old"]
    assert "also in: " in doc_page(page) and "tv-old" in doc_page(page)
    assert docs_tools.get_doc(hub, path="README", source="ot").other_sources == []


def test_a_distribution_due_a_refresh_still_answers_before_a_pinned_release(
    hub: HubSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    # another version installed since `tv` was indexed: it is still nearer to what runs
    # than the pinned old release beside it
    monkeypatch.setattr(
        hub_status_module,
        "environment_note",
        lambda origin, indexed: "refresh due: 9.9 installed, 1.0 indexed",
    )
    assert code_tools.get_code_snippet(hub, symbol="App.add").source == "tv"
    hits = search_tools.search(hub, "tv.main.App.add", limit=3).hits
    assert hits[0].source == "tv"
    # a distribution no longer installed steps behind the pinned release
    monkeypatch.setattr(hub_status_module, "_looked_up", {})
    monkeypatch.setattr(
        hub_status_module,
        "environment_note",
        lambda origin, indexed: "not installed any more: 1.0 indexed is kept",
    )
    assert code_tools.get_code_snippet(hub, symbol="App.add").source == "tv-old"
