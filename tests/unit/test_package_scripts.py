"""A package's template scripts (a folder of `.py` files without `__init__.py` inside the
package's tree, copied into users' projects) are examples beside the package's API; with
python and examples both asked for, the package itself is never one big example."""

from __future__ import annotations

from pathlib import Path

from ctxhub.core.knowledge import ChunkQuery
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.ingest.refresh.plan import plan_units
from ctxhub.sources.base import SourceSpec
from ctxhub.sources.local import snapshot_dir
from ctxhub.store.sqlite.store import SQLiteStore

ENV = (
    "from tool import context\n\n\n"
    "def run_online():\n"
    '    """Run the steps with a live connection."""\n'
    "    with context.begin():\n"
    "        context.run_steps()\n\n\n"
    "run_online()\n"
)


def _package(root: Path) -> Path:
    files = {
        "tool/__init__.py": "from tool.command import upgrade\n",
        "tool/command.py": 'def upgrade(config, target):\n    """Move."""\n    return target\n',
        "tool/context.py": "def begin():\n    return None\n\n\ndef run_steps():\n    return None\n",
        "tool/templates/basic/env.py": ENV,
        "tool/templates/basic/README": "A basic environment.\n",
        "tool/templates/basic/script.py.mako": "revision = ${repr(up_revision)}\n",
        "tool/templates/fancy/env.py": ENV.replace("run_online", "run_fancy"),
        "tool/_tests/helpers.py": "def helper():\n    return 1\n",
        "pyproject.toml": '[project]\nname = "tool"\nversion = "1.0"\n',
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def _by_kind(root: Path, kinds: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    plan = plan_units(snapshot_dir(root), kinds)  # type: ignore[arg-type]
    units: dict[str, list[str]] = {}
    for unit in plan.units:
        units.setdefault(unit.kind, []).append(unit.key)
    return list(plan.kinds), units


def test_python_and_examples_give_the_api_and_the_template_scripts(tmp_path: Path) -> None:
    _, units = _by_kind(_package(tmp_path), ["python", "examples"])
    assert {"tool/command.py", "tool/context.py", "tool/__init__.py"} <= set(units["python"])
    assert sorted(units["examples"]) == ["tool/templates/basic", "tool/templates/fancy"]


def test_a_package_of_kind_python_indexes_its_template_scripts_as_examples(
    tmp_path: Path,
) -> None:
    kinds, units = _by_kind(_package(tmp_path), ["python"])
    assert "examples" in kinds and "tool/command.py" in units["python"]
    assert sorted(units["examples"]) == ["tool/templates/basic", "tool/templates/fancy"]
    plan = plan_units(snapshot_dir(tmp_path), ["python"])
    basic = next(u for u in plan.units if u.key == "tool/templates/basic")
    assert basic.members == ["tool/templates/basic/README", "tool/templates/basic/env.py"]
    # a package's own tests are neither
    assert "tool/_tests/helpers.py" in dict(plan.left_out)


def test_a_source_regrouped_from_one_example_to_api_and_examples_refreshes(
    tmp_path: Path,
) -> None:
    root = _package(tmp_path / "src")
    embedder = HashingEmbedder(dim=64)
    with SQLiteStore(tmp_path / "home" / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        whole = SourceSpec(name="t", kind=["examples"], path=str(root))
        refresh(store, [whole], tmp_path / "home", embedder)
        both = SourceSpec(name="t", kind=["python", "examples"], path=str(root))
        [summary] = refresh(store, [both], tmp_path / "home", embedder).sources
        assert summary.status == "ok"
        api = store.find_chunks(ChunkQuery(kind="api", source="t"))
        examples = store.find_chunks(ChunkQuery(kind="example", source="t"))
    assert any(c.symbol == "tool.command.upgrade" for c in api)
    assert examples and all(c.path.startswith("tool/templates/") for c in examples)
