"""A new changelog chunker re-reads every changelog on the next refresh, whichever unit
reads it: a changelog unit (a root CHANGELOG beside Python), a docs page that is a
changelog (a docs-only source's CHANGELOG, a release page in a `releases/` folder) or a
page that includes one. Each layout is indexed first by a chunker that misses the entry,
then refreshed with the current one under a bumped number: the record must be there."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import ctxhub.sources as sources
from ctxhub.ingest.refresh import extract, included_changelogs, plan
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.sources import pypi, spec_from_argument
from ctxhub.sources.base import SourceSpec
from ctxhub.sources.pypi_release import FetchedRelease, ReleaseStamp
from ctxhub.store.sqlite.store import SQLiteStore
from tests.conftest import write_tree

ENTRY = "- Deprecated `acme_lib.old_hello` in favour of `acme_lib.hello`.\n"
CHANGELOG = f"# Changelog\n\n## 2.0.0 (2024-01-02)\n\n{ENTRY}\n## 1.4.0\n\n- Added hello.\n"
PACKAGE = {
    "pyproject.toml": '[project]\nname = "acme-lib"\nversion = "2.0.0"\n',
    "src/acme_lib/__init__.py": "def hello():\n    return 'hi'\n\n\nold_hello = hello\n",
    "docs/index.md": "# Acme\n\nCall hello to be greeted.\n",
}
#: layout -> (files, kinds): where the changelog lies decides which unit reads it
LAYOUTS: dict[str, tuple[dict[str, str], list[str]]] = {
    "changelog unit": ({**PACKAGE, "CHANGELOG.md": CHANGELOG}, []),
    "docs-only changelog page": ({"docs/index.md": "# Acme\n", "CHANGELOG.md": CHANGELOG}, []),
    "release page": ({**PACKAGE, "docs/releases/v2.0.0.md": f"# 2.0.0\n\n{ENTRY}"}, []),
    "page including a changelog": (
        {
            "docs/index.md": "# Acme\n",
            "HISTORY": CHANGELOG,
            "docs/history.md": "# History\n\n```{include} ../HISTORY\n```\n",
        },
        ["docs"],
    ),
}


def _old_chunker(monkeypatch: pytest.MonkeyPatch) -> None:
    """A changelog chunker that reads no entry (as an older one missed some)."""
    for module in (extract, included_changelogs):
        monkeypatch.setattr(module, "extract_changelog_deprecations", lambda *_: [])


def _records(store: SQLiteStore) -> list[str]:
    return [d.symbol for d in store.deprecations("acme_lib.old_hello")]


def _bump_reads_the_entry(
    store: SQLiteStore, monkeypatch: pytest.MonkeyPatch, run: Callable[[], object]
) -> None:
    with monkeypatch.context() as old:
        _old_chunker(old)
        run()
    assert _records(store) == []
    run()  # nothing changed: the old chunker's (empty) reading stands
    assert _records(store) == []
    bumped = plan.CHUNKER_VERSIONS["changelog"] + 1
    monkeypatch.setitem(plan.CHUNKER_VERSIONS, "changelog", bumped)
    run()
    assert _records(store) == ["acme_lib.old_hello"]


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_a_changelog_chunker_bump_re_reads_a_folder_changelog(
    layout: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files, kinds = LAYOUTS[layout]
    root = write_tree(tmp_path / "acme", files)
    spec = SourceSpec(name="acme", path=str(root), kind=kinds)  # type: ignore[arg-type]
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        _bump_reads_the_entry(
            store, monkeypatch, lambda: refresh(store, [spec], tmp_path / "sources", None)
        )


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_a_changelog_chunker_bump_re_reads_a_release_sdist_changelog(
    layout: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pypi:NAME==X --sdist`: the release read from its (cached) sdist, as a folder is."""
    files, kinds = LAYOUTS[layout]
    sdist = write_tree(tmp_path / "acme_lib-2.0.0", files)
    stamp = ReleaseStamp(
        sha256="0" * 64, archive="acme_lib-2.0.0.tar.gz", index="PyPI", checked=True
    )
    fetched = FetchedRelease(sdist, stamp)
    monkeypatch.setattr(pypi, "installed_version", lambda name, python=None: None)
    monkeypatch.setattr(sources, "fetch_release", lambda name, version, dest, say: fetched)
    spec = spec_from_argument("pypi:acme_lib==2.0.0", kind=kinds, sdist=True)  # type: ignore[arg-type]
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        _bump_reads_the_entry(
            store, monkeypatch, lambda: refresh(store, [spec], tmp_path / "sources", None)
        )
