"""A Python unit's hash covers the type facts of the modules its lookups can reach
(`type_fingerprints.py`): a change elsewhere re-reads the importers of the changed
module, through re-exports and bases, and not the rest of the package."""

from __future__ import annotations

import textwrap
from pathlib import Path

from ctxhub.ingest.refresh.plan import plan_units
from ctxhub.sources.local import snapshot_dir

FILES = {
    "__init__.py": "from .broker import Broker\n",
    "broker.py": """
        class Broker:
            def send(self, message):
                return message
        """,
    # imports the package, which re-exports from broker.py
    "via_package.py": """
        from pkg import Broker


        def send(message):
            return Broker().send(message)
        """,
    # a base in base.py, whose own base is in broker.py
    "base.py": """
        from .broker import Broker


        class Hook(Broker):
            pass
        """,
    "subclass.py": """
        from .base import Hook


        class Deeper(Hook):
            def send(self, message):
                return message
        """,
    "unrelated.py": """
        import json


        class Codec:
            def dump(self, value) -> str:
                return json.dumps(value)
        """,
    "local_import.py": """
        def make():
            from .broker import Broker

            return Broker()
        """,
}


def _hashes(root: Path) -> dict[str, str]:
    return {u.key: u.hash for u in plan_units(snapshot_dir(root), ["python"]).units}


def test_a_new_annotated_function_re_reads_only_the_modules_that_can_reach_it(
    tmp_path: Path,
) -> None:
    (tmp_path / "pkg").mkdir()
    for name, text in FILES.items():
        (tmp_path / "pkg" / name).write_text(textwrap.dedent(text))
    before = _hashes(tmp_path)
    broker = tmp_path / "pkg" / "broker.py"
    broker.write_text(broker.read_text() + "\n\ndef get_broker() -> Broker:\n    return Broker()\n")
    after = _hashes(tmp_path)
    changed = {key for key in before if before[key] != after[key]}
    assert changed == {
        "pkg/broker.py",
        "pkg/__init__.py",
        "pkg/via_package.py",
        "pkg/base.py",
        "pkg/subclass.py",
        "pkg/local_import.py",
    }
    assert "pkg/unrelated.py" not in changed


def test_a_new_module_named_by_an_import_re_reads_its_importer(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "user.py").write_text("from . import extra\n\n\ndef f():\n    return 1\n")
    (tmp_path / "pkg" / "alone.py").write_text("def g():\n    return 2\n")
    before = _hashes(tmp_path)
    (tmp_path / "pkg" / "extra.py").write_text("class E:\n    pass\n")
    after = _hashes(tmp_path)
    assert after["pkg/user.py"] != before["pkg/user.py"]
    assert after["pkg/alone.py"] == before["pkg/alone.py"]
