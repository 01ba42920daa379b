"""Examples discovery: the three layouts, topic folders, junk and support files, and
nothing dropped silently."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from ctxhub.ingest.examples.chunks import discover_examples
from ctxhub.ingest.examples.files import skip_reason
from ctxhub.ingest.examples.layout import Example
from tests.conftest import write_tree
from tests.unit.example_trees import FIXTURES, discover_tree


def _by_path(examples: list[Example]) -> dict[str, Example]:
    return {e.path: e for e in examples}


def _dict_reader(files: dict[str, str]) -> Callable[[str], str]:
    def read(path: str) -> str:
        if path not in files:
            raise FileNotFoundError(path)
        return files[path]

    return read


# -- discovery --------------------------------------------------------------------------


def test_examples_dir_layout_files_projects_topics_and_support() -> None:
    got = {(e.path, e.name, e.role, e.is_file) for e in discover_tree(FIXTURES / "examples_dir")}
    assert got == {
        ("examples/weather_bot.py", "weather_bot", "example", True),
        ("examples/chat_bot.py", "chat_bot", "example", True),
        ("examples/voice_agent", "voice_agent", "example", False),
        ("examples/legacy", "legacy", "example", False),
        # a README beside three runnable scripts is a topic, its scripts the examples
        ("examples/telephony/twilio_call.py", "telephony/twilio_call", "example", True),
        ("examples/telephony/sip_call.py", "telephony/sip_call", "example", True),
        ("examples/telephony/webrtc_call.py", "telephony/webrtc_call", "example", True),
        ("examples/telephony", "telephony", "support", False),
        # assets/ holds material for other examples; helpers.py is imported, never run
        ("examples/assets", "assets", "support", False),
        ("examples", "examples", "support", False),
    }


def test_examples_dir_support_entry_and_junk() -> None:
    ex = _by_path(discover_tree(FIXTURES / "examples_dir"))
    root = ex["examples"]
    assert set(root.files) == {"examples/README.md", "examples/env.example", "examples/helpers.py"}
    assert ("examples/logo.png", "binary") in root.skipped
    assert all("src/acme" not in f for e in ex.values() for f in e.files)
    voice = ex["examples/voice_agent"]
    assert "examples/voice_agent/Dockerfile" in voice.files
    assert voice.context_files == ("pyproject.toml",)  # enclosing pins, nearest first
    assert ex["examples/weather_bot.py"].rel("examples/weather_bot.py") == "weather_bot.py"
    assert voice.rel("examples/voice_agent/bot.py") == "bot.py"


def test_repo_of_projects_layout_with_nested_group() -> None:
    ex = _by_path(discover_tree(FIXTURES / "repo_of_projects"))
    assert {p for p, e in ex.items() if e.role == "example"} == {
        "chatbot",
        "translator",
        "integrations/slack-bot",
    }
    assert all(e.layout == "repo_of_projects" for e in ex.values())
    assert ex[""].role == "support" and ex[""].files == ("README.md",)  # the root README
    assert not any(f.startswith("docs/") for e in ex.values() for f in e.files)


def test_single_project_layout_is_the_whole_repo() -> None:
    (only,) = discover_tree(FIXTURES / "single_project")
    assert only.layout == "single_project" and only.path == "" and only.role == "example"
    assert only.name == "tiny-agent"  # from pyproject [project].name
    assert "tiny_agent/main.py" in only.files and "pcc-deploy.toml" in only.files


def test_a_server_and_client_folder_under_a_project_root_stay_one_project() -> None:
    paths = ["pyproject.toml", "server/main.py", "server/README.md", "client/index.js"]
    paths += ["client/package.json"]
    files = {p: "" for p in paths}
    (only,) = discover_examples(paths, _dict_reader(files))
    assert only.layout == "single_project" and len(only.files) == 5


def test_readme_over_scripts_without_an_entry_point_is_a_topic() -> None:
    paths = ["examples/basics/README.md"] + [f"examples/basics/0{i}-step.py" for i in range(4)]
    files = {p: "import asyncio\nasyncio.run(main())\n" for p in paths}
    got = {(e.path, e.role) for e in discover_examples(paths, _dict_reader(files))}
    assert got == {(p, "example") for p in paths[1:]} | {("examples/basics", "support")}
    # one script with a README is a project
    one = discover_examples(paths[:2], _dict_reader(files))
    assert [(e.path, e.role) for e in one] == [("examples/basics", "example")]


@pytest.mark.parametrize(
    ("path", "junk"),
    [
        ("examples/node_modules/left-pad/index.js", True),
        (".git/config", True),
        ("examples/__pycache__/bot.cpython-311.pyc", True),
        ("examples/bot/uv.lock", True),
        ("examples/bot/package-lock.json", True),
        ("examples/bot/shot.png", True),
        ("examples/bot/.env", True),
        ("examples/bot/LICENSE", True),
        ("examples/bot/dist/app.min.js", True),
        ("examples/bot/.env.example", False),
        ("examples/bot/Dockerfile", False),
        ("examples/bot/requirements-dev.txt", False),
        ("examples/bot/index.ts", False),
        ("examples/bot/bot.py", False),
    ],
)
def test_skip_reason(path: str, junk: bool) -> None:
    assert (skip_reason(path) is not None) is junk


def test_junk_never_reaches_an_example_and_is_reported() -> None:
    paths = [
        "examples/bot/bot.py",
        "examples/bot/node_modules/x/index.js",
        "examples/bot/__pycache__/bot.cpython-311.pyc",
        "examples/bot/uv.lock",
        "examples/bot/diagram.png",
    ]
    read = _dict_reader({"examples/bot/bot.py": "print(1)\n"})
    (bot,) = discover_examples(paths, read)
    assert bot.files == ("examples/bot/bot.py",)
    assert {p for p, _ in bot.skipped} == set(paths[1:])


# -- nothing dropped silently -------------------------------------------------------------


def _tutorials() -> dict[str, str]:
    """A docs_src-like tree: topic folders of standalone tutorial scripts, and two
    folders that look like projects."""
    files = {
        f"{topic}/tutorial00{n}{suffix}.py": f"from acme import App\napp = App()  # {topic} {n}\n"
        for topic in ("body", "cookies", "dependencies/nested")
        for n in (1, 2)
        for suffix in ("", "_py310")
    }
    files |= {
        "chat/README.md": "# chat",
        "chat/main.py": "print(1)",
        "shop/pyproject.toml": "[project]\nname='shop'",
        "shop/app.py": "print(2)",
        "README.md": "# tutorials",
    }
    return files


def _covered(examples: list[Example]) -> set[str]:
    return {f for e in examples for f in e.files} | {p for e in examples for p, _ in e.skipped}


def test_topic_folders_beside_projects_are_one_example_per_script() -> None:
    files = _tutorials()
    found = discover_examples(list(files), _dict_reader(files))
    assert _covered(found) == set(files)  # every file indexed or skipped with a reason
    examples = {e.path for e in found if e.role == "example"}
    assert {"chat", "shop"} <= examples
    scripts = [f for f in files if f.count("/") >= 1 and "tutorial" in f]
    assert set(scripts) <= examples  # each standalone script is its own example
    assert {e.name for e in found if e.path == "dependencies/nested/tutorial001.py"} == {
        "dependencies/nested/tutorial001"
    }


def test_a_tree_of_topic_folders_without_projects_is_not_one_big_example() -> None:
    files = {p: t for p, t in _tutorials().items() if not p.startswith(("chat/", "shop/"))}
    found = discover_examples(list(files), _dict_reader(files))
    assert _covered(found) == set(files)
    assert len([e for e in found if e.role == "example"]) == 12
    assert all(e.layout == "topic_folders" for e in found)


def test_a_community_repo_of_projects_is_detected_as_examples(tmp_path: Path) -> None:
    from ctxhub.ingest.refresh.plan import plan_units
    from ctxhub.sources.local import snapshot_dir

    files = {
        "README.md": "# community bots",
        "weather-bot/README.md": "# weather",
        "weather-bot/requirements.txt": "acme\n",
        "weather-bot/bot.py": "print('weather')",
        "echo-bot/README.md": "# echo",
        "echo-bot/requirements.txt": "acme\n",
        "echo-bot/bot.py": "print('echo')",
    }
    plan = plan_units(snapshot_dir(write_tree(tmp_path / "repo", files)))
    assert "examples" in plan.kinds
    examples = {u.key for u in plan.units if u.kind == "examples"}
    assert {"weather-bot", "echo-bot"} <= examples
    # a library's repo (its pyproject at the root) is not taken for a collection
    lib = dict(files, **{"pyproject.toml": "[project]\nname='lib'"})
    plan = plan_units(snapshot_dir(write_tree(tmp_path / "lib", lib)))
    assert "examples" not in plan.kinds


def test_every_examples_tree_outside_tests_and_packages_is_a_root() -> None:
    """docs_src/ (a docs site's included code) and docs/examples/ are both examples trees;
    tests/examples/ and a package's own examples subpackage are not."""
    script = 'import acme\n\nif __name__ == "__main__":\n    acme.run()\n'
    files = {
        "pyproject.toml": "[project]\nname = 'acme'\n",
        "acme/__init__.py": "",
        "acme/examples/__init__.py": "",
        "acme/examples/builtin.py": "X = 1\n",
        "docs_src/topic/tutorial001.py": script,
        "docs/examples/quick.py": script,
        "tests/examples/case.py": script,
    }
    found = discover_examples(list(files), _dict_reader(files))
    members = {f for e in found for f in e.files}
    assert {"docs_src/topic/tutorial001.py", "docs/examples/quick.py"} <= members
    assert not members & {"tests/examples/case.py", "acme/examples/builtin.py"}


def test_a_folder_added_as_examples_keeps_its_testing_topic(tmp_path: Path) -> None:
    """A tutorial tree added with kind examples (typer's docs_src) has a `testing/` topic
    of examples; only a source whose kinds are detected or mixed leaves tests out."""
    from ctxhub.ingest.refresh.plan import plan_units
    from ctxhub.sources.local import snapshot_dir

    script = 'import acme\n\nif __name__ == "__main__":\n    acme.run()\n'
    files = {
        "options/tutorial001.py": script,
        "testing/app01/__init__.py": "",
        "testing/app01/main.py": script,
        "testing/app01/test_main.py": "from .main import app\n",
    }
    plan = plan_units(snapshot_dir(write_tree(tmp_path / "docs_src", files)), ["examples"])
    members = {f for u in plan.units if u.kind == "examples" for f in u.members}
    assert members == set(files)
    mixed = plan_units(snapshot_dir(write_tree(tmp_path / "repo", files)), ["examples", "docs"])
    assert {f for u in mixed.units for f in u.members} == {"options/tutorial001.py"}
