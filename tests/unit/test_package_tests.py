"""A test suite shipped inside a package (trio's `trio/_tests/`) is not API: it is left
out and counted, as a top-level tests/ folder is, all of it (`huey/tests/base.py`,
`tornado/test/util.py`) once it holds a test module; a tests package with no test
module (helpers users import; a `conftest.py` is none), a public testing module and one
named like a test stay."""

from __future__ import annotations

from pathlib import Path

from ctxhub.ingest.refresh.plan import plan_units
from ctxhub.sources.local import snapshot_dir

TEST_REASON = "a test module inside the package: tests are not indexed"

FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": "def run():\n    return 1\n",
    "pkg/conftest.py": "import pytest\n",
    "pkg/test_utils.py": "def make_client():\n    return 1\n",  # public API (aiohttp-style)
    "pkg/_tests/__init__.py": "",
    "pkg/_tests/test_core.py": "def test_run():\n    assert True\n",
    "pkg/_tests/tutil.py": "def slow():\n    return 1\n",
    "pkg/_core/_tests/test_run.py": "def test_it():\n    assert True\n",
    "pkg/tests/__init__.py": "",
    "pkg/tests/base.py": "class BaseTestCase:\n    pass\n",  # the suite's helper (huey)
    "pkg/tests/test_utils.py": "def test_run_test():\n    assert True\n",
    "pkg/test/__init__.py": "",
    "pkg/test/util.py": "class AsyncHTTPTestCase:\n    pass\n",  # tornado.test.util
    "pkg/test/data/sample.txt": "fixture\n",
    "pkg/test/web_test.py": "def test_web():\n    assert True\n",
    "pkg/testing.py": "class AsyncHTTPTestCase:\n    pass\n",  # public (tornado.testing)
    "pkg/_core/__init__.py": "",
    "pkg/helpers/__init__.py": "",
    "pkg/helpers/tests/__init__.py": "",
    "pkg/helpers/tests/utils.py": "def run_test():\n    return 1\n",  # users import it
    # pytest's config beside them is no test: the folder is still no suite
    "pkg/helpers/tests/conftest.py": "import pytest\n",
}


def test_tests_inside_a_package_are_left_out_with_a_reason(tmp_path: Path) -> None:
    for rel, text in FILES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    plan = plan_units(snapshot_dir(tmp_path), ["python"])
    python = {u.key for u in plan.units if u.kind == "python"}
    assert python == {
        "pkg/__init__.py",
        "pkg/core.py",
        "pkg/test_utils.py",
        "pkg/testing.py",
        "pkg/_core/__init__.py",
        "pkg/helpers/__init__.py",
        "pkg/helpers/tests/__init__.py",
        "pkg/helpers/tests/utils.py",
    }
    why = dict(plan.left_out)
    for rel in (
        "pkg/conftest.py",
        "pkg/_tests/test_core.py",
        "pkg/_tests/tutil.py",
        "pkg/_core/_tests/test_run.py",
        "pkg/tests/test_utils.py",
        "pkg/tests/__init__.py",
        "pkg/tests/base.py",
        "pkg/test/__init__.py",
        "pkg/test/util.py",
        "pkg/test/data/sample.txt",
        "pkg/test/web_test.py",
        "pkg/helpers/tests/conftest.py",
    ):
        assert why[rel] == TEST_REASON, rel
