"""pypi:NAME is read from the project's environment, not only ctxhub's own: a real
virtualenv (made here, without pip) with a distribution's metadata written into it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ctxhub.sources import materialize, pypi, spec_from_argument
from ctxhub.sources.pypi_release import FetchedRelease, ReleaseStamp
from tests.unit import fake_index


def _venv_with(tmp_path: Path, version: str = "1.4.0") -> Path:
    venv = tmp_path / "proj" / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = next(venv.glob("lib/python*/site-packages"))
    (site / "acme_lib").mkdir()
    (site / "acme_lib" / "__init__.py").write_text("def hello():\n    return 'hi'\n")
    info = site / f"acme_lib-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: Acme-Lib\nVersion: {version}\n")
    (info / "RECORD").write_text(
        f"acme_lib/__init__.py,,\nacme_lib-{version}.dist-info/METADATA,,\n"
        f"acme_lib-{version}.dist-info/RECORD,,\n"
    )
    return venv / "bin" / "python"


def test_a_distribution_in_another_environment(tmp_path: Path) -> None:
    python = _venv_with(tmp_path)
    spec = spec_from_argument("pypi:Acme_Lib", python=str(python))
    assert spec.name == "acme-lib" and spec.package == "acme-lib"  # one canonical source
    snap = materialize(spec, tmp_path)
    assert snap.version == "1.4.0" and snap.files == ["acme_lib/__init__.py"]
    assert snap.origin == f"pypi:acme-lib @ {python}"
    assert pypi.installed_version("acme-lib", str(python)) == "1.4.0"
    assert pypi.distribution_of(snap.origin) == ("acme-lib", str(python))
    with pytest.raises(Exception, match="not installed in"):
        pypi.describe("no-such-dist", str(python))


def test_the_project_environment_is_found_from_virtual_env_or_dot_venv(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    python = _venv_with(tmp_path)
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    assert pypi.project_python(tmp_path / "proj") == str(python)  # ./.venv
    monkeypatch.setenv("VIRTUAL_ENV", str(python.parent.parent))
    assert pypi.project_python(tmp_path) == str(python)  # an activated virtualenv
    monkeypatch.setenv("VIRTUAL_ENV", sys.prefix)  # ctxhub's own: nothing to switch to
    assert pypi.project_python(tmp_path) is None


def test_a_release_that_is_not_installed_comes_from_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pypi:tomli_w==1.0.0 while another version is installed: its sdist, from the index
    pip is pointed at (a fake one here: no network)."""
    import importlib.metadata

    assert importlib.metadata.version("tomli_w") != "1.0.0"
    files = {"PKG-INFO": "Name: tomli_w\n", "tomli_w/_writer.py": "def dumps(): ...\n"}
    with fake_index.running_index() as index:
        index.publish("tomli-w", {"tomli_w-1.0.0.tar.gz": fake_index.sdist("tomli_w-1.0.0", files)})
        monkeypatch.setenv("PIP_INDEX_URL", index.simple_url)
        spec = spec_from_argument("pypi:tomli_w==1.0.0")
        assert (spec.package, spec.release) == ("tomli-w", "1.0.0")
        snap = materialize(spec, tmp_path)
    assert snap.version == "1.0.0" and snap.origin == "pypi:tomli-w==1.0.0 (sdist from 127.0.0.1)"
    assert any(f.endswith("tomli_w/_writer.py") for f in snap.files)
    assert "PKG-INFO" in snap.files  # the sdist, not the wheel
    again = materialize(spec, tmp_path)  # cached: no second download
    assert again.files == snap.files
    assert pypi.distribution_of(snap.origin) is None  # a pin is never "refresh due"
    installed = spec_from_argument(f"pypi:tomli_w=={importlib.metadata.version('tomli_w')}")
    read = materialize(installed, tmp_path)
    assert read.origin.startswith("pypi:tomli-w")  # the installed one, and it says whose
    assert any("installed beside ctxhub" in note for note in read.notes)


def _stamp(archive: str) -> ReleaseStamp:
    return ReleaseStamp(sha256="0" * 64, archive=archive, index="PyPI", checked=True)


def test_a_release_fetched_as_an_sdist_indexes_its_docs_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pypi:NAME==X with no --kind: the sdist's kinds are detected from its files (code
    and docs), as for a folder; the installed distribution stays python only."""
    import ctxhub.sources as sources
    from ctxhub.ingest.refresh.incremental import refresh
    from ctxhub.store.sqlite.store import SQLiteStore

    sdist = tmp_path / "acme_lib-2.0.0"
    (sdist / "src" / "acme_lib").mkdir(parents=True)
    (sdist / "src" / "acme_lib" / "__init__.py").write_text("def hello():\n    return 'hi'\n")
    (sdist / "docs").mkdir()
    (sdist / "docs" / "guide.md").write_text("# Guide\n\nCall hello to be greeted warmly.\n")
    (sdist / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: acme-lib\nVersion: 2.0.0\n")
    monkeypatch.setattr(pypi, "installed_version", lambda name, python=None: None)
    fetched = FetchedRelease(sdist, _stamp("acme_lib-2.0.0.tar.gz"))
    monkeypatch.setattr(sources, "fetch_release", lambda name, version, dest, say: fetched)
    spec = spec_from_argument("pypi:acme_lib==2.0.0")
    assert spec.kind == []  # detect, and the manifest entry says so on every refresh
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        (done,) = refresh(store, [spec], tmp_path / "sources", None).sources
        assert done.status == "ok" and set(done.kinds) == {"python", "docs"}
        assert set(store.counts()["acme-lib"]) == {"api", "doc"}

    monkeypatch.undo()
    python = _venv_with(tmp_path)  # 1.4.0 installed: the distribution, its code only
    installed = spec_from_argument("pypi:Acme_Lib==1.4.0", python=str(python))
    with SQLiteStore(tmp_path / "other.db") as store:
        (done,) = refresh(store, [installed], tmp_path / "sources", None).sources
        assert done.status == "ok" and done.kinds == ["python"]


def _tutorial(topic: str) -> str:
    return (
        f'"""{topic} tutorial."""\nimport acme_lib\n\n\ndef main():\n    acme_lib.hello()\n\n\n'
        'if __name__ == "__main__":\n    main()\n'
    )


def test_an_sdist_indexes_its_tutorial_tree_as_examples_and_accounts_for_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A docs_src/ tutorial tree (some topics with __init__.py, most without) is examples,
    not API and not dropped; tests (fixtures at any depth too) are left out; every file
    is indexed or left out with a reason, and the counts add up."""
    import ctxhub.sources as sources
    from ctxhub.ingest.refresh.incremental import refresh
    from ctxhub.store.sqlite.store import SQLiteStore

    sdist = tmp_path / "acme_lib-2.0.0"
    files = {
        "PKG-INFO": "Metadata-Version: 2.1\nName: acme-lib\nVersion: 2.0.0\n",
        "pyproject.toml": '[project]\nname = "acme-lib"\n',
        "README.md": "# Acme\n\nCall hello to be greeted warmly.\n",
        "acme_lib/__init__.py": "def hello():\n    return 'hi'\n",
        "docs_src/app_dir/tutorial001.py": _tutorial("app dir"),
        "docs_src/envvar/tutorial001.py": _tutorial("envvar"),
        "docs_src/envvar/tutorial002.py": _tutorial("envvar two"),
        "docs_src/one_file/__init__.py": "",
        "docs_src/one_file/main.py": _tutorial("one file"),
        "docs_src/one_file/version.py": _tutorial("version"),
        "tests/__init__.py": "",
        "tests/test_hello.py": "def test_hello():\n    assert True\n",
        "tests/assets/cli/page.md": "# Fixture\n\nNot documentation.\n",
        "scripts/build.sh": "echo build\n",
    }
    for rel, text in files.items():
        (sdist / rel).parent.mkdir(parents=True, exist_ok=True)
        (sdist / rel).write_text(text)
    monkeypatch.setattr(pypi, "installed_version", lambda name, python=None: None)
    fetched = FetchedRelease(sdist, _stamp("acme_lib-2.0.0.tar.gz"))
    monkeypatch.setattr(sources, "fetch_release", lambda name, version, dest, say: fetched)
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        spec = spec_from_argument("pypi:acme_lib==2.0.0")
        (done,) = refresh(store, [spec], tmp_path / "sources", None).sources
        assert done.status == "ok" and set(done.kinds) == {"python", "docs", "examples"}
        states = store.file_states("acme-lib")
    tutorials = {f for f in files if f.startswith("docs_src/")}
    assert {s.path for s in states.values() if s.kind == "python"} == {"acme_lib/__init__.py"}
    examples = {s.path for s in states.values() if s.kind == "examples"}
    assert all(any(t == e or t.startswith(e + "/") for e in examples) for t in tutorials)
    assert not any(p.startswith("tests/") for p in states)  # fixtures are no docs
    left = dict(done.left_out)
    assert set(left) >= {"tests/test_hello.py", "tests/assets/cli/page.md", "scripts/build.sh"}
    assert left["tests/assets/cli/page.md"] == "under tests/: tests are not indexed"
    assert left["scripts/build.sh"] == "not docs, python or examples (.sh)"
    assert done.files == len(files) == done.indexed_files + len(done.left_out)
    assert not set(left) & tutorials


def test_markdown_inside_an_installed_distribution_is_indexed_as_docs(tmp_path: Path) -> None:
    """A wheel's SKILL.md (or any .md/.rst guide) is docs; its templates, py.typed and
    license are left out with a reason; indexed + left out = the files listed."""
    from ctxhub.ingest.refresh.incremental import refresh
    from ctxhub.store.sqlite.store import SQLiteStore

    python = _venv_with(tmp_path)
    site = next((tmp_path / "proj" / ".venv").glob("lib/python*/site-packages"))
    extra = {
        "acme_lib/.agents/skills/acme/SKILL.md": "# Acme skill\n\nCall hello to greet.\n",
        "acme_lib/templates/page.html": "<html><body>{{ name }}</body></html>\n",
        "acme_lib/py.typed": "",
        "acme_lib/LICENSE.txt": "MIT\n",
    }
    for rel, text in extra.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(text)
    with (next(site.glob("acme_lib-*.dist-info")) / "RECORD").open("a") as record:
        record.writelines(f"{rel},,\n" for rel in extra)
    spec = spec_from_argument("pypi:acme-lib", python=str(python))
    assert spec.kind == []  # the distribution's own kinds: its code and its Markdown
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        (done,) = refresh(store, [spec], tmp_path / "sources", None).sources
        counts = store.counts()["acme-lib"]
        states = store.file_states("acme-lib")
    assert done.status == "ok" and done.kinds == ["python", "docs"]
    assert counts["doc"] >= 1 and counts["api"] >= 1
    assert states["acme_lib/.agents/skills/acme/SKILL.md"].kind == "docs"
    left = dict(done.left_out)
    assert left["acme_lib/templates/page.html"].endswith("a template, not docs")
    assert set(left) == {
        "acme_lib/templates/page.html",
        "acme_lib/py.typed",
        "acme_lib/LICENSE.txt",
    }
    assert done.files == 5 == done.indexed_files + len(done.left_out)


def test_sdist_reads_the_release_from_the_index_even_when_it_is_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`add pypi:NAME==X --sdist` with X installed: the sdist (docs, examples), not the
    installed wheel again; with no pin, the installed version's; named NAME-sdist."""
    import ctxhub.sources as sources
    from ctxhub.core.errors import InputError

    python = _venv_with(tmp_path)  # acme-lib 1.4.0 installed, no docs
    sdist = tmp_path / "acme_lib-1.4.0"
    (sdist / "acme_lib").mkdir(parents=True)
    (sdist / "acme_lib" / "__init__.py").write_text("def hello():\n    return 'hi'\n")
    (sdist / "docs").mkdir()
    (sdist / "docs" / "guide.md").write_text("# Guide\n\nCall hello.\n")
    asked: list[tuple[str, str]] = []

    def fetch(name: str, version: str, dest: Path, say: object) -> FetchedRelease:
        asked.append((name, version))
        return FetchedRelease(sdist, _stamp("acme_lib-1.4.0.tar.gz"))

    monkeypatch.setattr(sources, "fetch_release", fetch)
    for argument in ("pypi:acme-lib==1.4.0", "pypi:acme-lib"):
        spec = spec_from_argument(argument, python=str(python), sdist=True)
        assert (spec.name, spec.release, spec.sdist, spec.python) == (
            "acme-lib-sdist",
            "1.4.0",
            True,
            None,  # the environment only said which version
        )
        snap = materialize(spec, tmp_path)
        assert snap.origin == "pypi:acme-lib==1.4.0 (sdist from PyPI)"
        assert "docs/guide.md" in snap.files and snap.advice == []
    assert asked == [("acme-lib", "1.4.0")] * 2
    with pytest.raises(InputError, match=r"not installed .*pypi:nope==X --sdist"):
        spec_from_argument("pypi:nope", python=str(python), sdist=True)
    with pytest.raises(InputError, match="--sdist is for pypi:NAME"):
        spec_from_argument(str(tmp_path), sdist=True)


def test_an_installed_wheel_without_docs_says_how_to_get_them(tmp_path: Path) -> None:
    """The refresh says that the wheel has no docs (or, with docs, no examples) and
    which `add` reads the sdist; a pin met by the installed copy says that copy was
    read, not the sdist."""
    from tests.unit.cli_runner import run

    python = _venv_with(tmp_path)
    get = "`ctxhub add pypi:acme-lib==1.4.0 --sdist` reads the release's sdist (docs, examples)"
    plain = materialize(spec_from_argument("pypi:acme-lib", python=str(python)), tmp_path)
    assert plain.advice == [f"no docs in the installed wheel (acme-lib 1.4.0); {get}"]
    pinned = spec_from_argument("pypi:acme-lib==1.4.0", python=str(python))
    (note,) = materialize(pinned, tmp_path).advice
    assert note.startswith(f"acme-lib==1.4.0 is the distribution installed in {python}")
    assert note.endswith(get)
    run(tmp_path, "add", "pypi:acme-lib", "--python", str(python), "--no-refresh")
    out = " ".join(run(tmp_path, "refresh", "--no-embed").output.split())
    assert f"acme-lib: no docs in the installed wheel (acme-lib 1.4.0); {get}" in out

    site = next((tmp_path / "proj" / ".venv").glob("lib/python*/site-packages"))
    (site / "acme_lib" / "GUIDE.md").write_text("# Guide\n\nCall hello.\n")
    with (next(site.glob("acme_lib-*.dist-info")) / "RECORD").open("a") as record:
        record.write("acme_lib/GUIDE.md,,\n")
    with_docs = materialize(spec_from_argument("pypi:acme-lib", python=str(python)), tmp_path)
    assert with_docs.advice == [f"no examples in the installed wheel (acme-lib 1.4.0); {get}"]


def test_a_manifest_sdist_entry_needs_a_pinned_package(tmp_path: Path) -> None:
    from pydantic import ValidationError

    from ctxhub.sources.base import SourceSpec

    with pytest.raises(ValidationError, match="sdist needs package and release"):
        SourceSpec(name="x", package="x", sdist=True)
    assert SourceSpec(name="x", package="x", release="1.0", sdist=True).sdist
