"""A single-module library (`peewee.py`: no package folder) is API when the evidence says
the distribution installs it: what pip put at the top of site-packages, the project's
`py_modules` / `top_level.txt` / name, or a user's `--kind python` over a tree with no
package. A `NAME-stubs` package (PEP 561) is the stubs of NAME. Loose scripts stay out."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ctxhub.core.knowledge import ChunkQuery
from ctxhub.ingest.python.modules import module_name_for
from ctxhub.ingest.refresh.plan import plan_units
from ctxhub.sources import materialize, spec_from_argument
from ctxhub.sources.local import snapshot_dir
from tests.conftest import write_tree
from tests.unit.package_hub import tree_hub

ORM = 'class Model:\n    """A row of a table."""\n\n    def save(self):\n        return 1\n'
LOOSE = "Loose scripts index with --kind examples"


def _installed(tmp_path: Path) -> Path:
    """A virtualenv (no pip) where distribution `solo` 2.0 installed `solo.py`, its
    stubs package `solo-stubs/`, a second module `solotool.py` and a package `soloext/`."""
    venv = tmp_path / "proj" / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = next(venv.glob("lib/python*/site-packages"))
    files = {
        "solo.py": ORM,
        "solotool.py": "import solo\n\ndef main():\n    return solo.Model().save()\n",
        "solo-stubs/__init__.pyi": "class Model:\n    def save(self) -> int: ...\n",
        "soloext/__init__.py": "from solo import Model\n\nclass Ext(Model): ...\n",
    }
    write_tree(site, files)
    info = site / "solo-2.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: solo\nVersion: 2.0\n")
    (info / "top_level.txt").write_text("solo\nsolo-stubs\nsolotool\nsoloext\n")
    record = [*files, "solo-2.0.dist-info/METADATA", "solo-2.0.dist-info/RECORD"]
    (info / "RECORD").write_text("".join(f"{r},,\n" for r in record))
    return venv / "bin" / "python"


def test_stub_packages_stand_for_the_package_they_type() -> None:
    assert module_name_for("solo-stubs/__init__.pyi") == "solo"
    assert module_name_for("solo-stubs/sub/mod.pyi") == "solo.sub.mod"
    assert module_name_for("src/solo-stubs/__init__.pyi") == "solo"
    assert module_name_for("my-scripts/run.py") is None  # still no module


def test_an_installed_single_module_distribution_is_indexed_as_its_modules(
    tmp_path: Path,
) -> None:
    python = _installed(tmp_path)
    snap = materialize(spec_from_argument("pypi:solo", python=str(python)), tmp_path)
    plan = plan_units(snap, snap.kinds)
    assert plan.modules == {
        "solo.py": "solo",
        "solo-stubs/__init__.pyi": "solo",  # the stubs of solo, folded into it at search
        "solotool.py": "solotool",
        "soloext/__init__.py": "soloext",
    }
    assert plan.left_out == []
    assert {"solo", "solotool", "soloext"} <= plan.packages


@pytest.mark.parametrize(
    "metadata",
    [
        {"setup.py": "from setuptools import setup\nsetup(name='x', py_modules=['solo'])\n"},
        {"setup.cfg": "[metadata]\nname = x\n[options]\npy_modules =\n    solo\n"},
        {"pyproject.toml": '[project]\nname = "x"\n[tool.setuptools]\npy-modules = ["solo"]\n'},
        {"pyproject.toml": '[project]\nname = "x"\n[tool.flit.module]\nname = "solo"\n'},
        {"pyproject.toml": '[project]\nname = "Solo"\n'},  # flit/hatch/PDM: named like it
        {"PKG-INFO": "Metadata-Version: 2.1\nName: solo\nVersion: 1.0\n"},
        {"x.egg-info/top_level.txt": "solo\n", "setup.py": "from setuptools import setup\n"},
    ],
)
def test_an_sdist_declares_its_top_level_module(tmp_path: Path, metadata: dict[str, str]) -> None:
    """The module the project says it installs is API (and makes the tree python); the
    test runner and setup.py beside it are loose scripts."""
    files = {"solo.py": ORM, "runtests.py": "import solo\n", "docs/index.md": "# Solo\n"}
    files.update(metadata)
    plan = plan_units(snapshot_dir(write_tree(tmp_path / "sdist", files)))
    assert "python" in plan.kinds
    assert plan.modules == {"solo.py": "solo"}
    left = dict(plan.left_out)
    assert "runtests.py" in left and LOOSE.lower() in left["runtests.py"].lower()


def test_a_top_level_script_without_evidence_stays_out(tmp_path: Path) -> None:
    files = {"pkg/__init__.py": "", "pkg/core.py": ORM, "helper.py": "print(1)\n"}
    plan = plan_units(snapshot_dir(write_tree(tmp_path / "t", files)), ["python"])
    assert plan.modules == {"pkg/__init__.py": "pkg", "pkg/core.py": "pkg.core"}
    assert "helper.py" in dict(plan.left_out)
    detected = plan_units(snapshot_dir(write_tree(tmp_path / "u", {"run.py": "print(1)\n"})))
    assert "python" not in detected.kinds and detected.modules == {}


def test_kind_python_over_a_folder_with_no_package_indexes_its_modules(tmp_path: Path) -> None:
    """`ctxhub add FOLDER --kind python` of a folder holding `solo.py`: module `solo`,
    searchable by its name; setup.py and a test module stay out."""
    files = {"solo.py": ORM, "setup.py": "import setuptools\n", "test_solo.py": "import solo\n"}
    with tree_hub(tmp_path, "solo", files) as hub:
        found = hub.store.find_chunks(ChunkQuery(kind="api", source="solo", symbol="solo.Model"))
        assert [c.path for c in found] == ["solo.py"]
        state = next(s for s in hub.store.sources() if s.name == "solo")
        assert state.stats["packages"] == ["solo"] and state.status == "ok"
        assert state.stats["ignored_files"] == 2  # setup.py, test_solo.py
