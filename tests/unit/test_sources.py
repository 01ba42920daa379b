from __future__ import annotations

import http.server
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.core.errors import InputError, ManifestError, SourceError
from ctxhub.sources import materialize, spec_from_argument
from ctxhub.sources.base import SourceSpec
from ctxhub.sources.local import snapshot_dir
from ctxhub.sources.manifest import effective_sources, read_manifest


def test_local_walk_skips_junk_and_refuses_reads_outside(tmp_path: Path) -> None:
    root = tmp_path / "src"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "mod.py").write_text("x = 1\n")
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("secret")
    (root / "node_modules" / "x").mkdir(parents=True)
    (root / "node_modules" / "x" / "i.js").write_text("1")
    (root / "logo.png").write_bytes(b"\x89PNG")
    (tmp_path / "outside.txt").write_text("do not read")
    (root / "link.txt").symlink_to(tmp_path / "outside.txt")
    snap = snapshot_dir(root)
    assert snap.files == ["pkg/mod.py"]
    assert snap.skipped == [("link.txt", "symlink outside the source")]
    assert snap.read("pkg/mod.py") == b"x = 1\n"
    for bad in ("../outside.txt", "link.txt", ".git/config", "/etc/passwd"):
        with pytest.raises(SourceError):
            snap.read(bad)


def _git(*args: str, cwd: Path) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_git_source_is_cloned_shallow_and_fetched_on_refresh(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    _git("init", "-q", "-b", "main", cwd=work)
    _git("config", "user.email", "t@example.com", cwd=work)
    _git("config", "user.name", "t", cwd=work)
    (work / "README.md").write_text("# v1\n")
    _git("add", ".", cwd=work)
    _git("commit", "-qm", "v1", cwd=work)
    bare = tmp_path / "repo.git"
    _git("clone", "-q", "--bare", str(work), str(bare), cwd=tmp_path)
    spec = spec_from_argument(str(bare))  # a path ending in .git is a git source
    assert spec.git == str(bare)
    first = materialize(spec, tmp_path / "sources")
    assert first.commit == _git("rev-parse", "HEAD", cwd=work)
    assert first.read("README.md") == b"# v1\n"
    (work / "README.md").write_text("# v2\n")
    _git("commit", "-qam", "v2", cwd=work)
    _git("push", "-q", str(bare), "main", cwd=work)
    second = materialize(spec, tmp_path / "sources")
    assert second.commit == _git("rev-parse", "HEAD", cwd=work) != first.commit
    assert second.read("README.md") == b"# v2\n"


def test_failed_clone_leaves_nothing(tmp_path: Path) -> None:
    spec = SourceSpec(name="gone", git=str(tmp_path / "missing.git"))
    with pytest.raises(SourceError, match="git clone failed"):
        materialize(spec, tmp_path / "sources")
    assert not (tmp_path / "sources" / "gone").exists()


def test_installed_distribution_lists_its_files_and_version() -> None:
    import importlib.metadata as md

    spec = spec_from_argument("pypi:tomli_w")
    assert spec.package == "tomli-w" and spec.kind == []  # the canonical name
    snap = materialize(spec, Path("/nonexistent"))
    assert snap.kinds == ["python"]  # tomli_w ships no Markdown
    assert snap.version == md.version("tomli_w")
    assert any(f.endswith("tomli_w/_writer.py") for f in snap.files)
    assert not any(".dist-info" in f for f in snap.files)
    narrowed = materialize(spec.model_copy(update={"include": ["*/_writer.py"]}), Path("/x"))
    assert narrowed.files == [f for f in snap.files if f.endswith("/_writer.py")]
    assert narrowed.version == snap.version
    with pytest.raises(SourceError, match="not installed"):
        materialize(spec_from_argument("pypi:no-such-dist-xyz"), Path("/nonexistent"))


@pytest.fixture
def http_root(tmp_path: Path) -> Iterator[str]:
    (tmp_path / "llms-full.txt").write_text("# Page\nSource: https://x.dev/a\n\nhello\n")
    (tmp_path / "big.txt").write_bytes(b"x" * 4096)

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **kw):  # type: ignore[no-untyped-def]
            super().__init__(*a, directory=str(tmp_path), **kw)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_url_source_downloads_with_a_size_cap(
    http_root: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = spec_from_argument(f"{http_root}/llms-full.txt", name="site")
    assert spec.kind == ["docs"]
    snap = materialize(spec, tmp_path / "sources")
    assert snap.files == ["llms-full.txt"] and b"hello" in snap.read("llms-full.txt")
    from ctxhub.sources import url

    monkeypatch.setattr(url, "MAX_BYTES", 1000)
    with pytest.raises(SourceError, match="more than 1000 bytes"):
        materialize(SourceSpec(name="big", url=f"{http_root}/big.txt"), tmp_path / "sources")
    with pytest.raises(SourceError, match="HTTP 404"):
        materialize(SourceSpec(name="nf", url=f"{http_root}/nope.txt"), tmp_path / "sources")
    # the earlier good download is still there
    assert (tmp_path / "sources" / "site" / "llms-full.txt").is_file()


def test_manifest_project_over_user_and_relative_paths(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "proj"
    home.mkdir()
    project.mkdir()
    (home / "ctxhub.toml").write_text(
        '[[sources]]\nname = "a"\npath = "/abs/a"\n\n[[sources]]\nname = "b"\npath = "/abs/b"\n'
    )
    (project / "ctxhub.toml").write_text('[[sources]]\nname = "b"\npath = "docs"\nkind = "docs"\n')
    specs = {s.name: s for s in effective_sources(home, project)}
    assert specs["a"].path == "/abs/a"
    assert specs["b"].path == str((project / "docs").resolve()) and specs["b"].kind == ["docs"]


def test_manifest_errors_are_precise(tmp_path: Path) -> None:
    bad = tmp_path / "ctxhub.toml"
    bad.write_text('[[sources]]\nname = "x"\n')
    with pytest.raises(ManifestError, match=r"sources\[0\].*exactly one of path, git"):
        read_manifest(bad)
    bad.write_text('[[sources]]\nname = "x"\npath = "/a"\n[[sources]]\nname = "x"\npath = "/b"\n')
    with pytest.raises(ManifestError, match="duplicate source names: x"):
        read_manifest(bad)
    bad.write_text("not toml [")
    with pytest.raises(ManifestError, match="not valid TOML"):
        read_manifest(bad)


def test_pipecat_preset_names_the_framework_docs_and_examples() -> None:
    from importlib import resources

    text = resources.files("ctxhub.presets").joinpath("pipecat.toml").read_text("utf-8")
    path = Path(__file__).parent / "_preset.toml"
    path.write_text(text)
    try:
        specs = {s.name: s for s in read_manifest(path).sources}
    finally:
        path.unlink()
    assert specs["pipecat-ai"].package == "pipecat-ai"
    assert specs["pipecat-docs"].url == "https://docs.pipecat.ai/llms-full.txt"
    assert specs["pipecat-examples"].git == "https://github.com/pipecat-ai/pipecat-examples"
    assert specs["pipecat-core-examples"].include == ["examples/*"]


def test_a_source_kind_may_be_named_by_the_chunks_it_makes() -> None:
    from ctxhub.sources import spec_from_argument
    from ctxhub.sources.base import SourceSpec

    assert SourceSpec(name="a", path=".", kind=["api", "doc", "example"]).kind == [
        "python",
        "docs",
        "examples",
    ]
    assert spec_from_argument("pypi:x", kind=["api"]).kind == ["python"]  # type: ignore[list-item]


def test_saving_the_manifest_keeps_what_a_person_wrote(tmp_path: Path) -> None:
    from ctxhub.sources.manifest import read_manifest

    path = tmp_path / "ctxhub.toml"
    path.write_text(
        "# ctxhub sources: add them with `ctxhub add SOURCE`\n\n"
        "# The framework API, pinned.\n"
        '[[sources]]\nname = "fw"\nkind = ["python"]\npackage = "fw"\n\n'
        "# Old docs; remove once migrated.\n"
        '[[sources]]\nname = "old-docs"\npath = "/srv/docs"\n'
    )
    manifest = read_manifest(path)
    manifest.add(SourceSpec(name="guide", path="/srv/guide"))
    manifest.remove("old-docs")
    manifest.save()
    text = path.read_text()
    assert text.startswith("# ctxhub sources: add them with `ctxhub add SOURCE`\n")
    assert '# The framework API, pinned.\n[[sources]]\nname = "fw"' in text
    assert "old-docs" not in text and "Old docs" not in text
    assert [s.name for s in read_manifest(path).sources] == ["fw", "guide"]
    changed = read_manifest(path)
    changed.add(SourceSpec(name="fw", package="fw", kind=["python", "docs"]), replace=True)
    changed.save()
    fw = read_manifest(path).get("fw")
    assert fw is not None and fw.manifest == str(path)  # where the entry lives
    assert fw.model_dump() == {
        **SourceSpec(name="fw", package="fw", kind=["python", "docs"]).model_dump()
    }


def test_a_single_file_is_a_source_of_that_file_alone(tmp_path: Path) -> None:
    from ctxhub.ingest.refresh.incremental import refresh
    from ctxhub.store.sqlite.store import SQLiteStore

    (tmp_path / "docs").mkdir()
    page = tmp_path / "docs" / "faq.rst"
    page.write_text("FAQ\n===\n\nWhy templates?\n--------------\n\nBecause they render fast.\n")
    (tmp_path / "docs" / "secret.txt").write_text("not part of the source\n")
    spec = spec_from_argument(str(page))
    assert spec.name == "faq.rst" and spec.path == str(page.resolve())
    snap = materialize(spec, tmp_path / "sources")
    assert snap.files == ["faq.rst"] and snap.origin == str(page.resolve())
    with pytest.raises(SourceError, match="not a file of this source"):
        snap.read("secret.txt")  # its folder is the root, but only the file is listed
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        (done,) = refresh(store, [spec], tmp_path / "sources", None).sources
        assert done.status == "ok" and done.kinds == ["docs"]  # from its suffix
        assert set(store.counts()["faq.rst"]) == {"doc"}
    (tmp_path / "logo.png").write_bytes(b"\x89PNG")
    with pytest.raises(SourceError, match="binary file"):
        materialize(spec_from_argument(str(tmp_path / "logo.png")), tmp_path / "sources")


@pytest.mark.parametrize(
    ("argument", "message"),
    [
        ("pypi:", "empty package name in 'pypi:'"),
        ("pypi:==1.0", "empty package name in 'pypi:==1.0'"),
        ("pypi: foo", "' foo' in 'pypi: foo' is not a package name"),
        ("pypi:foo>=1", "'foo>=1' in 'pypi:foo>=1' is not a package name"),
        ("pypi:foo==", "bad version '' in 'pypi:foo=='"),
        ("pypi:foo== 1.0", "bad version ' 1.0'"),
    ],
)
def test_malformed_pypi_argument_is_one_input_error(argument: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        spec_from_argument(argument)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_bad_source_name_is_an_input_error_not_a_validation_traceback() -> None:
    with pytest.raises(InputError, match="source name 'a b': use letters"):
        spec_from_argument("pypi:foo", name="a b")
    assert spec_from_argument("pypi:Foo_Bar==1.0").release == "1.0"
