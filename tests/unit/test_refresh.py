from __future__ import annotations

import logging
from pathlib import Path

import pytest

from ctxhub.core.knowledge import ChunkQuery, SearchFilters
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.refresh.embedding import embed_missing
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore

MODULE = '''"""Workers."""


class Worker:
    """Runs frames."""

    def run(self, frames):
        for frame in frames:
            self.push(frame)
        return len(frames)

    def push(self, frame):
        text = str(frame)
        print(text)
        return frame
'''


def _tree(root: Path) -> Path:
    (root / "src" / "fw").mkdir(parents=True)
    (root / "src" / "fw" / "__init__.py").write_text('"""fw."""\n')
    (root / "src" / "fw" / "worker.py").write_text(MODULE)
    (root / "docs").mkdir()
    (root / "docs" / "guide.md").write_text("# Guide\n\nHow to run a worker with frames.\n")
    (root / "examples").mkdir()
    (root / "examples" / "hello.py").write_text(
        '"""Hello example."""\nfrom fw.worker import Worker\n\n\ndef main():\n'
        '    w = Worker()\n    w.run([1, 2])\n    print("done")\n\n\nif __name__ == "__main__":\n'
        "    main()\n"
    )
    return root


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return _tree(tmp_path / "repo")


def _run(
    store: SQLiteStore, tree: Path, tmp_path: Path, embedder: HashingEmbedder | None, **kw: object
):  # type: ignore[no-untyped-def]
    spec = SourceSpec(name="fw", path=str(tree))
    return refresh(store, [spec], tmp_path / "sources", embedder, **kw)  # type: ignore[arg-type]


def test_first_refresh_indexes_every_kind(
    store: SQLiteStore, tree: Path, tmp_path: Path, embedder: HashingEmbedder
) -> None:
    summary = _run(store, tree, tmp_path, embedder)
    [s] = summary.sources
    assert s.status == "ok" and set(s.kinds) == {"python", "docs", "examples"}
    counts = store.counts()["fw"]
    assert counts["api"] >= 3 and counts["doc"] >= 1 and counts["example"] >= 1
    assert store.count_missing_embeddings(embedder.id) == 0
    ids, total = store.list_ids(SearchFilters(calls="push"), ["api"], 10)
    assert total == 1 and store.get_chunks(ids)[0].symbol == "fw.worker.Worker.run"


def test_second_refresh_changes_nothing(
    store: SQLiteStore, tree: Path, tmp_path: Path, embedder: HashingEmbedder
) -> None:
    _run(store, tree, tmp_path, embedder)
    generation = store.generation()
    summary = _run(store, tree, tmp_path, embedder)
    [s] = summary.sources
    assert (s.added, s.updated, s.removed) == (0, 0, 0)
    assert s.unchanged_units == s.units
    assert summary.embedded == 0
    # only the source-state row was written
    assert store.generation() == generation + 1


def test_one_changed_file_is_replaced_and_only_new_text_embedded(
    store: SQLiteStore, tree: Path, tmp_path: Path, embedder: HashingEmbedder
) -> None:
    _run(store, tree, tmp_path, embedder)
    (tree / "src" / "fw" / "worker.py").write_text(
        MODULE.replace("print(text)", "print(text.upper())")
    )
    summary = _run(store, tree, tmp_path, embedder)
    [s] = summary.sources
    assert s.unchanged_units == s.units - 1
    assert s.updated >= 1 and s.added == 0
    # push's text changed (and the module/class overviews that quote nothing of it did not)
    assert 1 <= summary.embedded <= 3


def test_removed_file_loses_its_chunks(store: SQLiteStore, tree: Path, tmp_path: Path) -> None:
    _run(store, tree, tmp_path, None)
    (tree / "docs" / "guide.md").unlink()
    summary = _run(store, tree, tmp_path, None)
    assert summary.sources[0].removed >= 1
    assert "doc" not in store.counts()["fw"]


def test_unparsable_file_is_skipped_named_and_keeps_last_good_chunks(
    store: SQLiteStore, tree: Path, tmp_path: Path
) -> None:
    _run(store, tree, tmp_path, None)
    before = store.list_ids(SearchFilters(source=["fw"], module_prefix="fw.worker"), None, 100)
    (tree / "src" / "fw" / "worker.py").write_text("def broken(:\n    pass\n")
    (tree / "src" / "fw" / "extra.py").write_text("def helper(x):\n    y = x + 1\n    return y\n")
    summary = _run(store, tree, tmp_path, None)
    [s] = summary.sources
    assert s.status == "ok"
    assert [unit for unit, _ in s.skipped] == ["src/fw/worker.py"]
    assert "line 1" in s.skipped[0][1] or "syntax" in s.skipped[0][1].lower()
    after = store.list_ids(SearchFilters(source=["fw"], module_prefix="fw.worker"), None, 100)
    assert after == before  # the last good chunks stay searchable
    assert store.list_ids(SearchFilters(symbol_prefix="fw.extra"), None, 10)[1] >= 1
    assert store.file_states("fw")["src/fw/worker.py"].status == "skipped"


def test_a_skipped_unit_is_reported_once_in_the_summary_not_also_as_a_warning(
    store: SQLiteStore, tree: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """`add` and `refresh` print the summary's skipped lines; a WARNING log line for each
    as well printed every one twice (at -v it is logged, as INFO)."""
    (tree / "src" / "fw" / "worker.py").write_text("def broken(:\n    pass\n")
    with caplog.at_level(logging.INFO):
        [s] = _run(store, tree, tmp_path, None).sources
    assert [unit for unit, _ in s.skipped] == ["src/fw/worker.py"]
    said = [r for r in caplog.records if "skipped src/fw/worker.py" in r.getMessage()]
    assert [r.levelno for r in said] == [logging.INFO]


def test_a_lone_surrogate_in_a_string_constant_is_stored_as_a_question_mark(
    store: SQLiteStore, tree: Path, tmp_path: Path
) -> None:
    # `"\ud800"` evaluates to a code point UTF-8 cannot hold; read into a message
    # template, a table text and a deprecation, it once failed the whole refresh
    (tree / "src" / "fw" / "odd.py").write_text(
        "import warnings\n"
        'ERROR_MESSAGES = {"bad": "Bad value \\ud800 given here."}\n\n\n'
        "def check(x):\n"
        "    if x:\n"
        '        raise ValueError(f"bad \\udc80 thing {x} happened here")\n'
        '    warnings.warn("old \\U0000d800 api is going away", DeprecationWarning)\n'
        '    return ERROR_MESSAGES["bad"]\n'
    )
    summary = _run(store, tree, tmp_path, None)
    [s] = summary.sources
    assert s.status == "ok" and not s.skipped
    ids, _ = store.list_ids(SearchFilters(symbol_prefix="fw.odd.check"), None, 10)
    [chunk] = store.get_chunks(ids)
    templates = chunk.metadata.extra["message_templates"]
    assert ["bad ? thing ", "", " happened here"] in templates
    assert "Bad value ? given here." in chunk.metadata.extra["messages"]
    assert [d.note for d in store.deprecations("fw.odd.check")] == ["old ? api is going away"]


def test_failed_source_keeps_previous_chunks(
    store: SQLiteStore, tree: Path, tmp_path: Path
) -> None:
    _run(store, tree, tmp_path, None)
    before = store.counts()["fw"]
    spec = SourceSpec(name="fw", path=str(tmp_path / "gone"))
    summary = refresh(store, [spec], tmp_path / "sources", None)
    [s] = summary.sources
    assert s.status == "failed" and "does not exist" in (s.error or "")
    assert store.counts()["fw"] == before
    [state] = store.sources()
    assert state.status == "failed"


def test_lexical_first_then_embeddings(
    store: SQLiteStore, tree: Path, tmp_path: Path, embedder: HashingEmbedder
) -> None:
    _run(store, tree, tmp_path, None)
    assert store.bm25(["frames"], SearchFilters(), None, 10)
    store.bind_model(embedder.id, embedder.dim)
    missing = store.count_missing_embeddings(embedder.id)
    assert missing > 0
    assert embed_missing(store, embedder) == missing
    assert store.count_missing_embeddings(embedder.id) == 0


def test_a_source_with_nothing_to_index_is_a_warning_with_the_reason(tmp_path: Path) -> None:
    from ctxhub.store.sqlite.store import SQLiteStore
    from ctxhub.tools.hub_status import hub_status

    site = tmp_path / "site"
    site.mkdir()
    for n in range(3):
        (site / f"page{n}.ipynb").write_text('{"cells": []}')
    (site / "logo.png").write_bytes(b"\x89PNG")
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        summary = refresh(
            store, [SourceSpec(name="site", path=str(site), kind=["docs"])], tmp_path, None
        )
        (source,) = summary.sources
        assert source.status == "warning" and source.added == 0  # not `ok`
        assert source.warning is not None and "no supported files" in source.warning
        assert "3 .ipynb" in source.warning
        (status,) = hub_status(store, 30).sources
        assert status.status == "warning" and status.warning == source.warning


def test_status_and_sources_say_warning_with_the_reason_for_a_source_that_indexed_nothing(
    tmp_path: Path,
) -> None:
    """Not `ok` with the reason on stderr only: the refresh table, `status` and
    `sources` say `warning` and why; the refresh itself succeeds (exit 0)."""
    from tests.unit.cli_runner import run

    site = tmp_path / "site"
    site.mkdir()
    (site / "page.ipynb").write_text('{"cells": []}')
    run(tmp_path, "add", str(site), "--kind", "docs", "--no-refresh")
    refreshed = run(tmp_path, "refresh", "--no-embed").output
    assert refreshed.splitlines()[1].split()[:2] == ["site", "warning"]
    for command in ("status", "sources"):
        out = " ".join(run(tmp_path, command).output.split())
        assert "warning: no supported files for docs: found 1 .ipynb" in out, out
        assert " ok" not in out


def test_python_files_outside_any_package_are_not_called_unsupported(tmp_path: Path) -> None:
    """.py files are supported; what is missing is a package, and the warning says so."""
    from ctxhub.store.sqlite.store import SQLiteStore

    tree = tmp_path / "tree" / "tools"
    tree.mkdir(parents=True)
    (tree / "wide.py").write_text("def f(a):\n    return a\n")
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        spec = SourceSpec(name="t", path=str(tmp_path / "tree"), kind=["python"])
        (source,) = refresh(store, [spec], tmp_path, None).sources
    assert source.warning is not None and "no supported files" not in source.warning
    assert "none in a package" in source.warning and "--kind examples" in source.warning


def test_unchanged_files_take_the_new_version_label(tmp_path: Path) -> None:
    """A new release whose files mostly did not change: every chunk says the new version."""
    root = tmp_path / "pkg"
    (root / "acme").mkdir(parents=True)
    (root / "acme" / "__init__.py").write_text("def same():\n    return 1\n")
    (root / "acme" / "core.py").write_text("def changed():\n    return 1\n")
    pyproject = root / "pyproject.toml"
    pyproject.write_text('[project]\nname = "acme"\nversion = "2.25.0"\n')
    spec = SourceSpec(name="acme", path=str(root), kind=["python"])
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        refresh(store, [spec], tmp_path, None)
        pyproject.write_text('[project]\nname = "acme"\nversion = "2.24.0"\n')
        (root / "acme" / "core.py").write_text("def changed():\n    return 2\n")
        refresh(store, [spec], tmp_path, None)
        labels = {c.version for c in store.find_chunks(ChunkQuery(source="acme"))}
        assert labels == {"2.24.0"}
        generation = store.generation()
        assert store.relabel_version("acme", "2.24.0") == 0  # all current: no write
        assert store.generation() == generation


def test_status_says_refresh_due_when_the_installed_version_moved(tmp_path: Path) -> None:
    import importlib.metadata

    from ctxhub.store.protocol import SourceState
    from ctxhub.tools.hub_status import hub_status
    from ctxhub.tools.render_status import hub_status as render_status

    installed = importlib.metadata.version("pydantic")
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        store.upsert_source(SourceState(name="old", origin="pypi:pydantic", version="0.0.1"))
        store.upsert_source(SourceState(name="now", origin="pypi:pydantic", version=installed))
        store.upsert_source(SourceState(name="docs", origin="/some/folder", version=None))
        report = hub_status(store, 30)
    by_name = {s.name: s for s in report.sources}
    assert by_name["old"].refresh_due and by_name["old"].installed_version == installed
    assert not by_name["now"].refresh_due and by_name["now"].installed_version == installed
    assert by_name["docs"].installed_version is None and not by_name["docs"].refresh_due
    assert f"refresh due: {installed} installed" in render_status(report)


def test_installed_distributions_that_moved_are_refreshed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.metadata

    from ctxhub.app.refresh import distributions_due, refresh_distributions_due
    from ctxhub.config import Settings
    from ctxhub.session import set_embedder
    from ctxhub.sources.manifest import writable_manifest
    from ctxhub.store.protocol import SourceState

    monkeypatch.chdir(tmp_path)  # no project manifest here
    settings = Settings(home=tmp_path / "home")
    manifest = writable_manifest(settings.home, cwd=tmp_path)
    manifest.add(SourceSpec(name="tomli-w", kind=["python"], package="tomli-w"))
    manifest.add(SourceSpec(name="docs", path=str(tmp_path), kind=["docs"]))
    manifest.save()
    with SQLiteStore(settings.home / "ctxhub.db") as store:
        store.upsert_source(SourceState(name="tomli-w", origin="pypi:tomli-w", version="0.0.1"))
    assert [s.name for s in distributions_due(settings)] == ["tomli-w"]
    set_embedder(HashingEmbedder(dim=64))
    try:
        summary = refresh_distributions_due(settings)
    finally:
        set_embedder(None)
    assert summary is not None and summary.sources[0].version == importlib.metadata.version(
        "tomli_w"
    )
    assert distributions_due(settings) == []  # current now: nothing to do at the next start
    assert refresh_distributions_due(settings) is None


def test_a_dump_under_another_name_is_read_as_pages(tmp_path: Path) -> None:
    site = tmp_path / "dl"
    site.mkdir()
    pages = [
        f"# Page {n}\nSource: https://docs.acme.dev/guide/page{n}\n\nHow page {n} works.\n"
        for n in range(3)
    ]
    (site / "docs.txt").write_text("\n".join(pages))
    (site / "notes.txt").write_text("just some notes\n")
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        spec = SourceSpec(name="acme", path=str(site), kind=["docs"])
        (source,) = refresh(store, [spec], tmp_path, None).sources
        assert source.added >= 3 and source.warning is None
        assert {p for _, p in store.doc_pages("acme")} >= {f"guide/page{n}" for n in range(3)}


def test_included_code_is_in_the_page(tmp_path: Path) -> None:
    root = tmp_path / "site"
    (root / "docs_src" / "first").mkdir(parents=True)
    (root / "docs_src" / "first" / "tutorial001.py").write_text(
        "from acme import App\n\napp = App()\n\n@app.get('/')\ndef root():\n    return 'hi'\n"
    )
    (root / "docs" / "en" / "docs").mkdir(parents=True)
    (root / "docs" / "en" / "docs" / "first.md").write_text(
        "# First steps\n\nCreate the app:\n\n{* ../../docs_src/first/tutorial001.py hl[3] *}\n\n"
        'Then in a fence:\n\n```python\n--8<-- "docs_src/first/tutorial001.py"\n```\n\n'
        "And a missing one:\n\n{* ../../docs_src/nope.py *}\n"
    )
    (root / "docs" / "guide.rst").write_text(
        "Guide\n=====\n\n"
        ".. literalinclude:: ../docs_src/first/tutorial001.py\n   :language: python\n"
    )
    spec = SourceSpec(name="acme", path=str(root), kind=["docs"])
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        refresh(store, [spec], tmp_path, None)
        (first,) = store.find_chunks(ChunkQuery(path="docs/en/docs/first.md"))
        assert first.content.count("app = App()") == 2  # both includes, resolved upwards
        assert "```python\nfrom acme import App" in first.content
        assert "{* ../../docs_src/nope.py *}" in first.content  # left as written
        assert first.metadata.extra["includes"] == ["docs_src/first/tutorial001.py"] * 2
        assert (first.line_start, first.line_end) == (1, 15)  # the page's own lines
        (guide,) = store.find_chunks(ChunkQuery(path="docs/guide.rst"))
        assert "def root():" in guide.content and "literalinclude" not in guide.content

        # The included file changes, the page does not: the page is re-read without --force.
        code = root / "docs_src" / "first" / "tutorial001.py"
        code.write_text(code.read_text().replace("return 'hi'", "return 'hello'"))
        (again,) = refresh(store, [spec], tmp_path, None).sources
        assert again.updated == 2, again  # first.md and guide.rst; the .py is no docs page
        (guide,) = store.find_chunks(ChunkQuery(path="docs/guide.rst"))
        assert "return 'hello'" in guide.content


def test_a_new_chunker_version_re_reads_that_kind_only(
    store: SQLiteStore, tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ctxhub.ingest.refresh import plan

    _run(store, tree, tmp_path, None)
    (same,) = _run(store, tree, tmp_path, None).sources
    assert same.unchanged_units == same.units
    monkeypatch.setitem(plan.CHUNKER_VERSIONS, "docs", plan.CHUNKER_VERSIONS["docs"] + 1)
    (bumped,) = _run(store, tree, tmp_path, None).sources
    # docs/guide.md is read again; the module and the example are not
    assert bumped.unchanged_units == same.units - 1
