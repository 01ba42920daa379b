"""pypi:NAME==X not installed: its sdist comes straight from the package index ($PIP_INDEX_URL,
here a fake one on 127.0.0.1), with no build (pip download prepared the metadata, which
built the build requirements from source), its sha256 checked, said on stderr, cached."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.core.errors import SourceError
from ctxhub.sources import materialize, pypi, pypi_release, spec_from_argument
from ctxhub.sources.pypi_release import fetch_release
from tests.unit.cli_runner import run
from tests.unit.fake_index import FakeIndex, running_index, sdist, wheel

SDIST_FILES = {
    "PKG-INFO": "Metadata-Version: 2.1\nName: acme-lib\nVersion: 2.0.0\n",
    # a build backend that needs a compiler: nothing may run it
    "pyproject.toml": '[build-system]\nrequires = ["cython>=3"]\nbuild-backend = "nope"\n',
    "acme_lib/__init__.py": "def hello():\n    return 'hi'\n",
    "docs/guide.md": "# Guide\n\nCall hello to be greeted warmly.\n",
}


@pytest.fixture
def index(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeIndex]:
    with running_index() as fake:
        monkeypatch.setenv("PIP_INDEX_URL", fake.simple_url)
        yield fake


def _no_subprocess(*args: object, **kwargs: object) -> None:
    raise AssertionError(f"a release's files need no process: {args}")


def test_an_sdist_comes_from_the_index_unbuilt_checked_said_and_cached(
    index: FakeIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = sdist("acme_lib-2.0.0", SDIST_FILES)
    index.publish(
        "acme-lib",
        {
            "acme_lib-1.0.0.tar.gz": sdist("acme_lib-1.0.0", {"PKG-INFO": ""}),
            "acme_lib-2.0.0-py3-none-any.whl": wheel({"acme_lib/__init__.py": ""}),
            "acme_lib-2.0.0.tar.gz": archive,
        },
    )
    monkeypatch.setattr(subprocess, "run", _no_subprocess)
    monkeypatch.setattr(pypi, "installed_version", lambda name, python=None: None)
    spec = spec_from_argument("pypi:Acme_Lib==2.0.0", python="/nowhere/python")
    said: list[str] = []
    snap = materialize(spec, tmp_path / "sources", say=said.append)
    assert snap.version == "2.0.0" and snap.origin == "pypi:acme-lib==2.0.0 (sdist from 127.0.0.1)"
    assert set(snap.files) == set(SDIST_FILES)  # the sdist's docs too, not the wheel
    assert any(n.startswith("acme_lib-2.0.0.tar.gz: sha256 ") for n in snap.notes)
    assert said[0] == "fetching acme_lib-2.0.0.tar.gz (1 kB) from 127.0.0.1"
    fetched = len(index.requests)
    again = materialize(spec, tmp_path / "sources", say=said.append)  # cached: no request
    assert again.files == snap.files and len(index.requests) == fetched and len(said) == 2
    assert sorted(p.name for p in (tmp_path / "sources" / "acme-lib").iterdir()) == [
        "acme-lib-2.0.0"  # no download or unpack folder left behind
    ]


def test_refresh_says_what_it_fetches_and_a_failed_fetch_is_one_line(
    index: FakeIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index.publish("acme-lib", {"acme_lib-2.0.0.tar.gz": sdist("acme_lib-2.0.0", SDIST_FILES)})
    monkeypatch.setattr(pypi, "installed_version", lambda name, python=None: None)
    monkeypatch.chdir(tmp_path)  # the user's manifest, not a project's
    home, python = tmp_path / "home", sys.executable  # (what it has installed is not asked)
    run(home, "add", "pypi:acme_lib==2.0.0", "--python", python, "--no-refresh")
    output = run(home, "refresh", "--no-embed").output
    assert "fetching acme_lib-2.0.0.tar.gz (1 kB) from 127.0.0.1" in output
    run(home, "add", "pypi:acme_lib==9.0", "--name", "nine", "--python", python, "--no-refresh")
    output = run(home, "refresh", "nine", "--no-embed", code=1).output
    assert "nine failed: acme-lib has no release 9.0 on http://127.0.0.1:" in output
    assert "Traceback" not in output


def test_a_pep_503_html_index_is_read_too(index: FakeIndex, tmp_path: Path) -> None:
    index.publish(
        "acme-lib", {"acme-lib-2.0.0.zip": wheel({"acme-lib-2.0.0/a.md": "# A\n"})}, html=True
    )
    fetched = fetch_release("acme-lib", "2.0", tmp_path, say=lambda _: None)  # 2.0 == 2.0.0
    assert fetched.archive == "acme-lib-2.0.0.zip" and (fetched.root / "a.md").is_file()


def test_a_release_without_an_sdist_gets_its_wheel_and_says_so(
    index: FakeIndex, tmp_path: Path
) -> None:
    index.publish(
        "acme-lib",
        {
            "acme_lib-2.0.0-cp312-cp312-manylinux_x86_64.whl": wheel({"acme_lib/x.py": ""}),
            "acme_lib-2.0.0-py3-none-any.whl": wheel({"acme_lib/__init__.py": ""}),
        },
    )
    said: list[str] = []
    fetched = fetch_release("acme-lib", "2.0.0", tmp_path, say=said.append)
    assert fetched.archive == "acme_lib-2.0.0-py3-none-any.whl" and not fetched.is_sdist
    assert (fetched.root / "acme_lib" / "__init__.py").is_file()
    assert "has no sdist" in said[0] and "code only" in said[0]


def test_a_hash_the_index_does_not_publish_is_refused_and_deleted(
    index: FakeIndex, tmp_path: Path
) -> None:
    index.publish(
        "acme-lib",
        {"acme_lib-2.0.0.tar.gz": sdist("acme_lib-2.0.0", SDIST_FILES)},
        wrong_sha256=True,
    )
    with pytest.raises(SourceError, match=r"acme_lib-2.0.0.tar.gz: sha256 \w+ is not the index's"):
        fetch_release("acme-lib", "2.0.0", tmp_path, say=lambda _: None)
    assert list(tmp_path.iterdir()) == []  # nothing unpacked, nothing half-written


def test_missing_releases_projects_and_indexes_are_one_line_errors(
    index: FakeIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index.publish(
        "acme-lib",
        {f"acme_lib-{v}.tar.gz": sdist(f"acme_lib-{v}", {"a.md": ""}) for v in ("1.0", "1.2")},
    )
    with pytest.raises(
        SourceError, match=r"acme-lib has no release 3.0 on .* \(newest: 1.2, 1.0\)"
    ):
        fetch_release("acme-lib", "3.0", tmp_path)
    with pytest.raises(SourceError, match="no project 'other-lib' on the package index"):
        fetch_release("other-lib", "1.0", tmp_path)
    monkeypatch.setattr(pypi_release, "MAX_ARCHIVE_BYTES", 10)
    with pytest.raises(SourceError, match="over the fetch limit"):
        fetch_release("acme-lib", "1.2", tmp_path, say=lambda _: None)
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("PIP_INDEX_URL", f"http://user:secret@127.0.0.1:{port}/simple")
    with pytest.raises(SourceError, match="cannot reach the package index") as caught:
        fetch_release("acme-lib", "1.2", tmp_path)
    assert "secret" not in str(caught.value)  # an index URL's password is never printed
