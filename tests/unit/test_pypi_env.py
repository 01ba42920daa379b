"""pypi:NAME is read from the project's environment, not only ctxhub's own: a real
virtualenv (made here, without pip) with a distribution's metadata written into it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ctxhub.sources import materialize, pypi, spec_from_argument


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


def test_a_release_that_is_not_installed_comes_from_pypi(tmp_path: Path) -> None:
    """pypi:tomli_w==1.0.0 while another version is installed: its sdist, from PyPI."""
    import importlib.metadata

    assert importlib.metadata.version("tomli_w") != "1.0.0"
    spec = spec_from_argument("pypi:tomli_w==1.0.0")
    assert (spec.package, spec.release) == ("tomli-w", "1.0.0")
    snap = materialize(spec, tmp_path)
    assert snap.version == "1.0.0" and snap.origin == "pypi:tomli-w==1.0.0 (sdist from PyPI)"
    assert any(f.endswith("tomli_w/_writer.py") for f in snap.files)
    assert "PKG-INFO" in snap.files  # the sdist, not the wheel
    again = materialize(spec, tmp_path)  # cached: no second download
    assert again.files == snap.files
    assert pypi.distribution_of(snap.origin) is None  # a pin is never "refresh due"
    installed = spec_from_argument(f"pypi:tomli_w=={importlib.metadata.version('tomli_w')}")
    assert materialize(installed, tmp_path).origin.startswith("pypi:tomli-w")  # the installed one


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
    monkeypatch.setattr(sources, "fetch_release", lambda name, version, dest: (sdist, "0" * 64))
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
