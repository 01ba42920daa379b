"""A release fetched from a package index that publishes no hash, serves a damaged
archive or odd headers, or is named by a malformed $PIP_INDEX_URL: the download is said
to be unchecked, or the fetch fails with one line (a SourceError), never a traceback."""

from __future__ import annotations

import io
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.core.errors import SourceError
from ctxhub.sources import materialize, package_index, pypi, pypi_release, spec_from_argument
from ctxhub.sources.pypi_release import fetch_release
from tests.unit.cli_runner import run
from tests.unit.fake_index import FakeIndex, running_index, sdist, wheel

#: text that compresses badly, so a cut archive is cut inside its data
NOISE = " ".join(str(i * 7919 % 10007) for i in range(20_000))
FILES = {"PKG-INFO": "Name: acme-lib\n", "acme_lib/__init__.py": "X = 1\n", "a.md": "# A\n"}


@pytest.fixture
def index(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeIndex]:
    with running_index() as fake:
        monkeypatch.setenv("PIP_INDEX_URL", fake.simple_url)
        monkeypatch.setattr(pypi, "installed_version", lambda name, python=None: None)
        yield fake


def _quiet(_: str) -> None:
    pass


def test_a_download_the_index_publishes_no_hash_for_is_said_to_be_unchecked(
    index: FakeIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index.publish(
        "acme-lib", {"acme_lib-2.0.0.tar.gz": sdist("acme_lib-2.0.0", FILES)}, hashes=False
    )
    monkeypatch.chdir(tmp_path)
    home = tmp_path / "home"
    run(home, "add", "pypi:acme_lib==2.0.0", "--python", sys.executable, "--no-refresh")
    output = run(home, "refresh", "--no-embed").output  # PEP 691, `"hashes": {}`
    assert "acme_lib-2.0.0.tar.gz: 127.0.0.1 publishes no sha256 for it: unchecked" in output

    index.publish(
        "other-lib",
        {"other_lib-1.0.zip": wheel({"other_lib-1.0/b.md": "# B\n"})},
        html=True,
        hashes=False,
    )  # PEP 503: a link without `#sha256=`
    said: list[str] = []
    spec = spec_from_argument("pypi:other-lib==1.0", python="/nowhere/python")
    snap = materialize(spec, tmp_path / "sources", say=said.append)
    assert any(n.endswith("(no sha256 published: unchecked)") for n in snap.notes)
    assert said[-1].endswith("publishes no sha256 for it: unchecked")
    again = materialize(spec, tmp_path / "sources", say=said.append)  # the cache remembers
    assert again.notes == snap.notes


def test_a_pinned_or_published_hash_is_no_unchecked_download(
    index: FakeIndex, tmp_path: Path
) -> None:
    archive = sdist("acme_lib-2.0.0", FILES)
    index.publish("acme-lib", {"acme_lib-2.0.0.tar.gz": archive}, hashes=False)
    pinned = pypi_release.hashlib.sha256(archive).hexdigest()
    said: list[str] = []
    fetched = fetch_release("acme-lib", "2.0.0", tmp_path, sha256=pinned, say=said.append)
    assert fetched.stamp.checked and not any("unchecked" in s for s in said)
    assert fetched.note == f"acme_lib-2.0.0.tar.gz: sha256 {pinned}"


def _tar_with_escaping_member() -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        info = tarfile.TarInfo("acme_lib-2.0.0/../../evil.txt")
        info.size = 1
        tar.addfile(info, io.BytesIO(b"x"))
    return buf.getvalue()


@pytest.mark.parametrize(
    ("filename", "data"),
    [
        ("acme_lib-2.0.0.tar.gz", b"this is no tarball"),
        ("acme_lib-2.0.0.tar.gz", sdist("acme_lib-2.0.0", {"big.md": NOISE})[:2000]),
        ("acme_lib-2.0.0.zip", b"PK\x03\x04 but no zip"),
        ("acme_lib-2.0.0.tar.gz", _tar_with_escaping_member()),
    ],
    ids=["garbage", "truncated", "bad-zip", "escaping-member"],
)
def test_a_damaged_or_hostile_archive_is_one_line_and_leaves_nothing(
    index: FakeIndex, tmp_path: Path, filename: str, data: bytes
) -> None:
    index.publish("acme-lib", {filename: data})
    with pytest.raises(SourceError, match=rf"^cannot unpack {filename}: ") as caught:
        fetch_release("acme-lib", "2.0.0", tmp_path, say=_quiet)
    assert "\n" not in str(caught.value)
    assert list(tmp_path.iterdir()) == []  # no archive, no half-unpacked tree
    assert not (tmp_path.parent / "evil.txt").exists()


def test_a_release_cached_by_an_earlier_version_is_read_not_fetched_again(
    index: FakeIndex, tmp_path: Path
) -> None:
    """A one-line stamp ("<sha256> <archive>", or the digest alone) still reads: offline,
    a fetch again would fail. A garbled or undecodable stamp is no cache."""
    index.publish("acme-lib", {"acme_lib-2.0.0.tar.gz": sdist("acme_lib-2.0.0", FILES)})
    digest = "ab" * 32
    for line, archive in (
        (f"{digest} acme_lib-2.0.0.tar.gz", "acme_lib-2.0.0.tar.gz"),
        (digest, "acme-lib-2.0.0.tar.gz"),
    ):
        (tmp_path / "acme-lib-2.0.0").mkdir(exist_ok=True)
        (tmp_path / "acme-lib-2.0.0" / ".sha256").write_text(line + "\n")
        cached = fetch_release("acme-lib", "2.0.0", tmp_path, say=_quiet)
        assert (cached.sha256, cached.archive) == (digest, archive)
        assert not cached.stamp.checked  # the old stamp does not say: claimed nowhere
    assert index.requests == []
    (tmp_path / "acme-lib-2.0.0" / ".sha256").write_text("0123abcd garbled\n")
    fetched = fetch_release("acme-lib", "2.0.0", tmp_path, say=_quiet)
    assert fetched.stamp.index == "127.0.0.1" and (fetched.root / "a.md").is_file()
    assert "/files/acme_lib-2.0.0.tar.gz" in index.requests


def test_a_bad_content_length_is_one_line(index: FakeIndex, tmp_path: Path) -> None:
    index.publish("acme-lib", {"acme_lib-2.0.0.tar.gz": sdist("acme_lib-2.0.0", FILES)}, html=True)
    index.headers["/files/acme_lib-2.0.0.tar.gz"] = {"Content-Length": "12 bytes"}
    with pytest.raises(SourceError, match=r"^cannot fetch acme_lib-2.0.0.tar.gz from "):
        fetch_release("acme-lib", "2.0.0", tmp_path, say=_quiet)
    assert list(tmp_path.iterdir()) == []


def test_a_server_that_never_finishes_is_stopped(
    index: FakeIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index.publish("acme-lib", {"acme_lib-2.0.0.tar.gz": sdist("acme_lib-2.0.0", FILES)})
    monkeypatch.setattr(pypi_release, "MAX_FETCH_S", -1.0)  # every block arrives too late
    with pytest.raises(SourceError, match=r"acme_lib-2.0.0.tar.gz: not fetched in -1s"):
        fetch_release("acme-lib", "2.0.0", tmp_path, say=_quiet)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("http://user:secret@[::1/simple", "is not a URL"),
        ("http://user:secret@127.0.0.1:port/simple", "is not a URL"),
        ("ftp://user:secret@mirror.example/simple", "is not an http(s) URL"),
        ("mirror.example/simple", "is not an http(s) URL"),
    ],
)
def test_a_malformed_pip_index_url_is_one_line(
    index: FakeIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, url: str, says: str
) -> None:
    monkeypatch.setenv("PIP_INDEX_URL", url)
    with pytest.raises(SourceError, match=r"^\$PIP_INDEX_URL ") as caught:
        fetch_release("acme-lib", "2.0.0", tmp_path, say=_quiet)
    assert says in str(caught.value) and "secret" not in str(caught.value)


def test_refresh_with_a_malformed_pip_index_url_fails_that_source_in_one_line(
    index: FakeIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    home = tmp_path / "home"
    run(home, "add", "pypi:acme_lib==2.0.0", "--python", sys.executable, "--no-refresh")
    monkeypatch.setenv("PIP_INDEX_URL", "http://mirror.example:port/simple")
    output = run(home, "refresh", "--no-embed", code=1).output
    assert "failed: $PIP_INDEX_URL 'http://mirror.example:port/simple' is not a URL" in output


def test_an_upper_case_sdist_name_is_an_sdist(index: FakeIndex, tmp_path: Path) -> None:
    index.publish(
        "acme-lib",
        {
            "ACME_LIB-2.0.0.TAR.GZ": sdist("acme_lib-2.0.0", FILES),
            "acme_lib-2.0.0-py3-none-any.whl": wheel({"acme_lib/__init__.py": ""}),
        },
    )
    fetched = fetch_release("acme-lib", "2.0.0", tmp_path, say=_quiet)
    assert fetched.archive == "ACME_LIB-2.0.0.TAR.GZ" and fetched.is_sdist
    assert (fetched.root / "a.md").is_file()


@pytest.mark.parametrize("length", ["declared", "not declared"])
def test_an_oversized_project_page_is_refused(
    index: FakeIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, length: str
) -> None:
    index.publish("acme-lib", {"acme_lib-2.0.0.tar.gz": sdist("acme_lib-2.0.0", FILES)})
    if length == "not declared":  # read until the server closes: counted as it comes
        index.headers["/simple/acme-lib/"] = {"Content-Length": None}
    monkeypatch.setattr(package_index, "MAX_PAGE_BYTES", 100)
    with pytest.raises(SourceError, match=r"/simple/acme-lib/: the project page is over 100"):
        fetch_release("acme-lib", "2.0.0", tmp_path, say=_quiet)


def test_a_cached_release_names_the_index_it_came_from(
    index: FakeIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index.publish("acme-lib", {"acme_lib-2.0.0.tar.gz": sdist("acme_lib-2.0.0", FILES)})
    spec = spec_from_argument("pypi:acme-lib==2.0.0", python="/nowhere/python")
    first = materialize(spec, tmp_path / "sources", say=_quiet)
    monkeypatch.setenv("PIP_INDEX_URL", "https://mirror.example/simple/")  # pip moved on
    cached = materialize(spec, tmp_path / "sources", say=_quiet)
    assert first.origin == cached.origin == "pypi:acme-lib==2.0.0 (sdist from 127.0.0.1)"
