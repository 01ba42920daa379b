"""A docs or examples folder added by itself gets the version of the Python project it
belongs to (its metadata, a dynamic version's module, its package's `__version__`, its
Sphinx conf.py's `release`); a folder no project versions reads `unversioned` in
`sources`, `status` and `get_hub_status`, never `-`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.session import set_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.sources.project_version import project_version
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools.hub_status import hub_status
from ctxhub.tools.render_status import hub_status as render_status
from tests.conftest import write_tree
from tests.unit.cli_runner import run

PAGE = "# Guide\n\nHow to queue a task and read its result.\n"


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        # static metadata
        ({"pyproject.toml": '[project]\nname = "acme"\nversion = "1.4.2"\n'}, "1.4.2"),
        ({"PKG-INFO": "Metadata-Version: 2.1\nName: acme\nVersion: 3.0.1\n"}, "3.0.1"),
        ({"setup.cfg": "[metadata]\nname = acme\nversion = 0.9\n"}, "0.9"),
        (
            {"setup.py": "from setuptools import setup\nsetup(name='acme', version='2.2.0')\n"},
            "2.2.0",
        ),
        # a dynamic version, followed to the module that states it
        (
            {
                "setup.cfg": "[metadata]\nname = acme\nversion = attr: acme.about.VERSION\n",
                "src/acme/__init__.py": "",
                "src/acme/about.py": 'VERSION = "5.1"\n',
            },
            "5.1",
        ),
        (
            {
                "pyproject.toml": '[project]\nname = "acme"\ndynamic = ["version"]\n'
                '[tool.hatch.version]\npath = "acme/__about__.py"\n',
                "acme/__init__.py": "",
                "acme/__about__.py": '__version__ = "7.0.0rc1"\n',
            },
            "7.0.0rc1",
        ),
        (
            {
                "pyproject.toml": '[project]\nname = "acme"\ndynamic = ["version"]\n'
                '[tool.setuptools.dynamic]\nversion = {file = ["VERSION"]}\n',
                "VERSION": "3.3.1\n",
                "docs/conf.py": 'release = "0.1"\n',
            },
            "3.3.1",
        ),
        # metadata that computes it: the package's own literal (a git checkout)
        (
            {
                "setup.py": "setup(name='acme', version=__import__('acme').__version__)\n",
                "acme/__init__.py": "__version__ = '2.5.3'\n",
                "tests/__init__.py": "__version__ = '0.0'\n",
            },
            "2.5.3",
        ),
        (
            {
                "pyproject.toml": '[project]\nname = "acme-tools"\ndynamic = ["version"]\n',
                "acme_tools/__init__.py": 'version = "6.6.1"\n',
            },
            "6.6.1",
        ),
        # nothing but the docs' conf.py says it
        ({"pyproject.toml": "[tool.ruff]\n", "docs/conf.py": 'release = "4.4"\n'}, "4.4"),
    ],
)
def test_a_docs_folder_gets_its_projects_version(
    tmp_path: Path, files: dict[str, str], expected: str
) -> None:
    root = write_tree(tmp_path / "project", {**files, "docs/guide.md": PAGE})
    assert project_version(root / "docs") == expected
    assert project_version(root / "docs" / "source") == expected  # docs/source/ layouts


def test_no_project_is_no_version_and_a_sibling_package_or_conf_py_is_one(tmp_path: Path) -> None:
    bare = write_tree(tmp_path / "bare", {"docs/guide.md": PAGE})
    assert project_version(bare / "docs") is None
    beside = write_tree(
        tmp_path / "beside", {"docs/guide.md": PAGE, "acme/__init__.py": "__version__ = '1.0'\n"}
    )
    assert project_version(beside / "docs") == "1.0"
    sphinx = write_tree(
        tmp_path / "sphinx", {"docs/conf.py": "version = '2.1'\nrelease = '2.1.3'\n"}
    )
    assert project_version(sphinx / "docs") == "2.1.3"
    computed = write_tree(tmp_path / "computed", {"docs/conf.py": "release = acme.__version__\n"})
    assert project_version(computed / "docs") is None


def test_a_repository_top_without_packaging_ends_the_search(tmp_path: Path) -> None:
    outer = write_tree(tmp_path, {"pyproject.toml": '[project]\nname = "outer"\nversion = "9.9"\n'})
    repo = write_tree(
        outer / "vendor" / "notes", {".git/HEAD": "ref: main\n", "docs/guide.md": PAGE}
    )
    assert project_version(repo / "docs") is None


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    project = write_tree(
        tmp_path / "acme",
        {"pyproject.toml": '[project]\nname = "acme"\nversion = "1.4.2"\n', "docs/guide.md": PAGE},
    )
    notes = write_tree(tmp_path / "notes", {"guide.md": PAGE})
    embedder = HashingEmbedder(dim=64)
    (tmp_path / "store").mkdir()
    with SQLiteStore(tmp_path / "store" / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        specs = [
            SourceSpec(name="acme-docs", kind=["docs"], path=str(project / "docs")),
            SourceSpec(name="notes", kind=["docs"], path=str(notes)),
        ]
        refresh(store, specs, tmp_path / "sources", embedder)
    set_embedder(embedder)
    yield tmp_path
    set_embedder(None)


def test_sources_and_status_show_the_version_or_unversioned(home: Path) -> None:
    with SQLiteStore(home / "store" / "ctxhub.db") as store:
        report = hub_status(store, 30)
    versions = {s.name: s.version for s in report.sources}
    assert versions == {"acme-docs": "1.4.2", "notes": None}  # JSON: null, as before
    text = render_status(report)
    assert "- acme-docs [docs] 1.4.2 · ok" in text and "- notes [docs] unversioned · ok" in text
    for command in ("status", "sources"):
        shown = run(home, command).output
        rows = [line for line in shown.splitlines() if "notes" in line or "unversioned" in line]
        assert "unversioned" in " ".join(rows), shown
        assert "1.4.2" in shown, shown


def test_a_folder_beside_the_docs_that_cannot_be_read_is_passed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a container's data volume owned by another user: stat raises PermissionError
    # there (tests run as root here, so the refusal is simulated)
    root = write_tree(
        tmp_path / "project",
        {
            "pyproject.toml": '[project]\nname = "acme"\ndynamic = ["version"]\n',
            "acme/__init__.py": "__version__ = '1.3'\n",
            "docs/guide.md": PAGE,
        },
    )
    (root / "pgdata").mkdir()
    is_file = Path.is_file

    def refused(path: Path) -> bool:
        if "pgdata" in path.parts:
            raise PermissionError(13, "Permission denied", str(path))
        return is_file(path)

    monkeypatch.setattr(Path, "is_file", refused)
    assert project_version(root / "docs") == "1.3"


@pytest.mark.parametrize("placeholder", ["0.0.0", "0.0.0.dev0", "0+unknown", "v0.0", "0.0.0+g1a2b"])
def test_a_placeholder_version_is_no_version(tmp_path: Path, placeholder: str) -> None:
    # a build backend's stand-in (setuptools-scm without a tag, a template's default)
    # says nothing of the release: the next place that states one answers, else none
    stated = write_tree(
        tmp_path / "stated",
        {
            "pyproject.toml": f'[project]\nname = "acme"\nversion = "{placeholder}"\n',
            "acme/__init__.py": "__version__ = '3.1.4'\n",
            "docs/guide.md": PAGE,
        },
    )
    assert project_version(stated / "docs") == "3.1.4"
    only = write_tree(
        tmp_path / "only",
        {
            "setup.cfg": f"[metadata]\nname = acme\nversion = {placeholder}\n",
            "acme/__init__.py": f"__version__ = '{placeholder}'\n",
            "docs/guide.md": PAGE,
        },
    )
    assert project_version(only / "docs") is None


SETUP_WITH_HELPERS = """\
from setuptools import setup


def python_requires(version="3.8"):
    return f">={version}"


VERSION = "4.0.2"

setup(
    name="acme",
    python_requires=python_requires(version="3.9"),
    install_requires=["other>=1.0"],
    version=VERSION,
)
"""


@pytest.mark.parametrize(
    ("setup_py", "expected"),
    [
        # the first `version=` of the file is a helper's keyword: the setup() call's counts
        (SETUP_WITH_HELPERS, "4.0.2"),
        (
            "import setuptools\n\nextras = dict(version='9.9.9')\n\n"
            "setuptools.setup(name='acme', version='1.2.3')\n",
            "1.2.3",
        ),
        # computed where it is passed: the package's own literal answers
        (
            "from setuptools import setup\nfrom helpers import pinned\n\n"
            "DEPS = [pinned('dep', version='7.7')]\nsetup(name='acme', install_requires=DEPS)\n",
            "2.0",
        ),
        # Python 2 (no parse): read from the setup( call on
        (
            "from distutils.core import setup\nopts = dict(version='0.1')\nprint 'building'\n"
            "setup(name='acme', version='1.0.1')\n",
            "1.0.1",
        ),
    ],
)
def test_a_setup_py_version_is_the_setup_calls_keyword(
    tmp_path: Path, setup_py: str, expected: str
) -> None:
    root = write_tree(
        tmp_path / "project",
        {"setup.py": setup_py, "acme/__init__.py": "__version__ = '2.0'\n", "docs/guide.md": PAGE},
    )
    assert project_version(root / "docs") == expected
