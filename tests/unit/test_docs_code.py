"""Python code under a source's docs folder (a tutorial's projects, a quick tour's
scripts) is the docs' worked examples, not the package's API: a source with a package
beside it indexes it as examples, one per project, its tests and the docs build's own
scripts left out; a docs tree added alone keeps its packages (ingest/examples/docs_code.py)."""

from __future__ import annotations

from pathlib import Path

from ctxhub.ingest.refresh.plan import plan_units
from ctxhub.sources.local import snapshot_dir

APP = "from lib_x.config import Setup\n\n\ndef main():\n    return Setup()\n"
FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='framework')\n",
    "src/framework/__init__.py": "",
    "src/framework/config.py": "class Setup:\n    pass\n",
    "docs/conf.py": "project = 'framework'\n",
    "docs/index.rst": "Framework\n=========\n\nHello.\n",
    # a tutorial step: a project (setup.py) with a package and its unittest module
    "docs/tutorial/step1/setup.py": "from setuptools import setup\nsetup(name='tutorial')\n",
    "docs/tutorial/step1/tutorial/__init__.py": APP,
    "docs/tutorial/step1/tutorial/views.py": "def home(request):\n    return {}\n",
    "docs/tutorial/step1/tutorial/tests.py": "import unittest\n\n\n"
    "class ViewTests(unittest.TestCase):\n    def test_home(self):\n        pass\n",
    # the next step: the same package name again
    "docs/tutorial/step2/tutorial/__init__.py": APP,
    "docs/tutorial/step2/tutorial/views.py": "def home(request):\n    return {'a': 1}\n",
    # a quick tour's loose scripts
    "docs/quick/json/app.py": "def main():\n    return 1\n",
    "docs/quick/json/views.py": "def hello(request):\n    return {}\n",
}


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_docs_code_is_examples_not_api(tmp_path: Path) -> None:
    plan = plan_units(snapshot_dir(_write(tmp_path, FILES)))
    python = {u.key for u in plan.units if u.kind == "python"}
    assert python == {"src/framework/__init__.py", "src/framework/config.py"}
    assert plan.packages == {"framework"}
    examples = {u.key: set(u.members) for u in plan.units if u.kind == "examples"}
    assert examples == {
        "docs/tutorial/step1": {
            "docs/tutorial/step1/setup.py",
            "docs/tutorial/step1/tutorial/__init__.py",
            "docs/tutorial/step1/tutorial/views.py",
        },
        "docs/tutorial/step2": {
            "docs/tutorial/step2/tutorial/__init__.py",
            "docs/tutorial/step2/tutorial/views.py",
        },
        "docs/quick/json": {"docs/quick/json/app.py", "docs/quick/json/views.py"},
    }
    left = dict(plan.left_out)
    assert "tests are not indexed" in left["docs/tutorial/step1/tutorial/tests.py"]
    assert "not an example" in left["docs/conf.py"]


def test_a_docs_tree_alone_keeps_its_packages(tmp_path: Path) -> None:
    files = {k: v for k, v in FILES.items() if k.startswith("docs/tutorial/step1/")}
    plan = plan_units(snapshot_dir(_write(tmp_path, files)), ["python"])
    assert "docs/tutorial/step1/tutorial/views.py" in {
        u.key for u in plan.units if u.kind == "python"
    }


def test_a_tests_module_in_a_package_is_a_test(tmp_path: Path) -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/core.py": "def run():\n    return 1\n",
        "pkg/tests.py": "import unittest\n\n\nclass T(unittest.TestCase):\n    pass\n",
    }
    plan = plan_units(snapshot_dir(_write(tmp_path, files)), ["python"])
    assert {u.key for u in plan.units if u.kind == "python"} == {"pkg/__init__.py", "pkg/core.py"}
    assert "tests are not indexed" in dict(plan.left_out)["pkg/tests.py"]
