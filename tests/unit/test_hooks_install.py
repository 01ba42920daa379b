"""`ctxhub install claude-code --hooks`: merged into Claude Code's settings, idempotent,
and `--remove` takes out only ours."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ctxhub.cli.main import cli
from ctxhub.clients.claude_hooks import (
    EVENTS,
    MATCHER,
    apply_hooks,
    has_hook,
    hook_command,
    is_ours,
    plan_hooks,
    remove_hooks,
    settings_path,
)
from ctxhub.core.errors import InstallError
from ctxhub.memory.capture import hooks

COMMAND = "/venv/bin/ctxhub hook post-tool-use"
OTHER = {"matcher": "Bash", "hooks": [{"type": "command", "command": "./lint-hook.sh"}]}


def ours_in(data: dict[str, Any], event: str) -> list[dict[str, Any]]:
    return [
        h
        for group in data.get("hooks", {}).get(event, [])
        for h in group.get("hooks", [])
        if is_ours(h.get("command"))
    ]


def test_hook_command_points_at_this_interpreter_and_carries_the_home() -> None:
    command = hook_command(environ={"CTXHUB_HOME": "/data/my hub"})
    parts = shlex.split(command)
    assert parts[0] == "CTXHUB_HOME=/data/my hub"
    assert parts[-2:] == ["hook", "post-tool-use"]
    assert Path(parts[1]).is_absolute()
    assert Path(parts[1]).parent == Path(sys.executable).parent or parts[1] == sys.executable
    assert is_ours(command)
    assert "CTXHUB_HOME" not in hook_command(environ={})
    fallback = hook_command(("/usr/bin/python3", ["-m", "ctxhub", "serve"]), environ={})
    assert fallback == "/usr/bin/python3 -m ctxhub hook post-tool-use" and is_ours(fallback)


@pytest.mark.parametrize(
    ("command", "ours"),
    [
        ("/home/u/.venv/bin/ctxhub hook post-tool-use", True),
        ("CTXHUB_HOME=/x '/a b/ctxhub' hook post-tool-use", True),
        ("ctxhub hook post-tool-use", True),
        ("python -m ctxhub hook post-tool-use", True),
        ("C:\\venv\\Scripts\\ctxhub.exe hook post-tool-use", True),
        ("ctxhub hook status", False),
        ("./my-ctxhub-wrapper.sh", False),
        ("notctxhub hook post-tool-use", False),
        (None, False),
    ],
)
def test_is_ours(command: object, ours: bool) -> None:
    assert is_ours(command) is ours


def test_paths_user_project_and_claude_config_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    assert settings_path("project", project=tmp_path) == tmp_path / ".claude" / "settings.json"
    assert settings_path("user", home=tmp_path) == tmp_path / ".claude" / "settings.json"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert settings_path("user") == Path.home() / ".claude" / "settings.json"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cc"))
    assert settings_path("user") == tmp_path / "cc" / "settings.json"
    plan = plan_hooks("project", project=tmp_path, command=COMMAND)
    assert plan.path == tmp_path / ".claude" / "settings.json" and plan.command == COMMAND


def test_install_creates_settings_with_both_events(tmp_path: Path) -> None:
    plan = plan_hooks("user", home=tmp_path, command=COMMAND)
    action, report = apply_hooks(plan)
    assert action == "added" and str(plan.path) in report
    data = json.loads(plan.path.read_text())
    assert set(data["hooks"]) == set(EVENTS)
    for event in EVENTS:
        assert data["hooks"][event] == [
            {"matcher": MATCHER, "hooks": [{"type": "command", "command": COMMAND, "timeout": 10}]}
        ]


def test_install_is_idempotent_and_keeps_everything_else(tmp_path: Path) -> None:
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir()
    stop = [{"hooks": [{"type": "command", "command": "x"}]}]
    settings: dict[str, Any] = {
        "model": "opus",
        "permissions": {"allow": ["Bash(npm test)"]},
        "hooks": {
            "PostToolUse": [OTHER],
            "Stop": stop,
        },
    }
    path.write_text(json.dumps(settings))
    plan = plan_hooks("project", project=tmp_path, command=COMMAND)
    assert apply_hooks(plan)[0] == "added"
    first = path.read_text()
    assert apply_hooks(plan)[0] == "unchanged"
    assert path.read_text() == first  # not even rewritten
    data = json.loads(first)
    assert data["model"] == "opus" and data["permissions"] == settings["permissions"]
    assert data["hooks"]["Stop"] == stop
    assert data["hooks"]["PostToolUse"][0] == OTHER  # other hooks first, untouched
    for event in EVENTS:
        assert len(ours_in(data, event)) == 1


def test_reinstall_from_another_environment_replaces_in_place(tmp_path: Path) -> None:
    old = plan_hooks("project", project=tmp_path, command="/old/venv/bin/ctxhub hook post-tool-use")
    apply_hooks(old)
    data = json.loads(old.path.read_text())
    data["hooks"]["PostToolUse"].append(OTHER)
    old.path.write_text(json.dumps(data))
    new = plan_hooks("project", project=tmp_path, command=COMMAND)
    assert apply_hooks(new)[0] == "updated"
    data = json.loads(new.path.read_text())
    assert data["hooks"]["PostToolUse"][1] == OTHER  # ours stays where it was
    for event in EVENTS:
        assert [h["command"] for h in ours_in(data, event)] == [COMMAND]


def test_the_matcher_names_every_edit_tool_the_hook_and_mining_know() -> None:
    tools = set(MATCHER.split("|"))
    assert "NotebookEdit" in tools
    assert tools == {"Bash", *hooks.EDIT_TOOLS}


def test_reinstall_updates_an_old_matcher_in_place(tmp_path: Path) -> None:
    plan = plan_hooks("project", project=tmp_path, command=COMMAND)
    old_group = {
        "matcher": "Bash|Edit|Write|MultiEdit",
        "hooks": [{"type": "command", "command": COMMAND, "timeout": 10}],
    }
    plan.path.parent.mkdir()
    before = {"hooks": {event: [OTHER, old_group, OTHER] for event in EVENTS}}
    plan.path.write_text(json.dumps(before))
    action, report = apply_hooks(plan)
    assert action == "updated" and "updated" in report
    data = json.loads(plan.path.read_text())
    for event in EVENTS:
        assert data["hooks"][event] == [OTHER, plan.group, OTHER]  # same place, one entry
        assert data["hooks"][event][1]["matcher"] == MATCHER
        assert len(ours_in(data, event)) == 1
    assert apply_hooks(plan)[0] == "unchanged"


def test_has_hook(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    assert not has_hook(path)  # no file
    for content in ("", "{broken", "[1]", '{"hooks": []}', '{"hooks": {"PostToolUse": {}}}'):
        path.write_text(content)
        assert not has_hook(path), content
    path.write_text(json.dumps({"hooks": {"PostToolUse": [OTHER, "junk", {"hooks": 3}]}}))
    assert not has_hook(path)
    plan = plan_hooks("user", home=tmp_path, command=COMMAND)
    apply_hooks(plan)
    assert has_hook(plan.path) and has_hook(plan.path, ["PostToolUseFailure"])
    assert not has_hook(plan.path, ["Stop"])
    # a settings file with comments (Claude Code reads them) still counts
    text = plan.path.read_text()
    plan.path.write_text("// mine\n" + text)
    assert has_hook(plan.path)
    remove_hooks(plan)
    assert not has_hook(plan.path)


def test_remove_takes_out_only_ours(tmp_path: Path) -> None:
    plan = plan_hooks("project", project=tmp_path, command=COMMAND)
    mixed = {
        "matcher": "Bash",
        "hooks": [
            {"type": "command", "command": COMMAND},
            {"type": "command", "command": "./b.sh"},
        ],
    }
    plan.path.parent.mkdir()
    plan.path.write_text(json.dumps({"env": {"A": "1"}, "hooks": {"PostToolUse": [OTHER, mixed]}}))
    apply_hooks(plan)
    action, report = remove_hooks(plan)
    assert action == "removed" and "removed" in report
    data = json.loads(plan.path.read_text())
    assert data["env"] == {"A": "1"}
    assert data["hooks"] == {
        "PostToolUse": [
            OTHER,
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./b.sh"}]},
        ]
    }
    assert remove_hooks(plan)[0] == "absent"


def test_remove_drops_the_hooks_key_it_emptied(tmp_path: Path) -> None:
    plan = plan_hooks("user", home=tmp_path, command=COMMAND)
    assert remove_hooks(plan)[0] == "absent"  # no file yet
    assert not plan.path.exists()
    plan.path.parent.mkdir()
    plan.path.write_text(json.dumps({"theme": "dark"}))
    apply_hooks(plan)
    remove_hooks(plan)
    assert json.loads(plan.path.read_text()) == {"theme": "dark"}


@pytest.mark.parametrize(
    "content",
    [
        "{ this is not json",
        "[1, 2]",
        json.dumps({"hooks": ["PostToolUse"]}),
        json.dumps({"hooks": {"PostToolUse": {"matcher": "Bash"}}}),
    ],
)
def test_malformed_settings_raise_and_stay_untouched(tmp_path: Path, content: str) -> None:
    plan = plan_hooks("project", project=tmp_path, command=COMMAND)
    plan.path.parent.mkdir()
    plan.path.write_text(content)
    with pytest.raises(InstallError) as excinfo:
        apply_hooks(plan)
    assert str(plan.path) in str(excinfo.value)
    assert plan.path.read_text() == content
    assert [p.name for p in plan.path.parent.iterdir()] == ["settings.json"]


def test_settings_with_comments_are_backed_up(tmp_path: Path) -> None:
    plan = plan_hooks("project", project=tmp_path, command=COMMAND)
    plan.path.parent.mkdir()
    original = '{\n  // my settings\n  "model": "opus",\n}\n'
    plan.path.write_text(original)
    action, report = apply_hooks(plan)
    assert action == "added" and "comments could not be kept" in report
    assert plan.path.with_name("settings.json.bak").read_text() == original
    assert json.loads(plan.path.read_text())["model"] == "opus"


def test_cli_install_and_remove(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CTXHUB_HOME", str(tmp_path / "hub"))
    runner = CliRunner()
    path = tmp_path / ".claude" / "settings.json"

    shown = runner.invoke(cli, ["install", "claude-code", "--hooks", "--project", "--print"])
    assert shown.exit_code == 0 and '"PostToolUseFailure"' in shown.output
    assert not path.exists()

    for _ in range(2):
        done = runner.invoke(cli, ["install", "claude-code", "--hooks", "--project"])
        assert done.exit_code == 0, done.output
    data = json.loads(path.read_text())
    [hook] = ours_in(data, "PostToolUse")
    assert hook["command"] == "ctxhub hook post-tool-use"  # committed: portable
    assert f"CTXHUB_HOME={tmp_path / 'hub'}" in plan_hooks("user", home=tmp_path).command
    assert not (tmp_path / ".mcp.json").exists()  # --hooks writes the hook only

    done = runner.invoke(cli, ["install", "claude-code", "--hooks", "--remove", "--project"])
    assert done.exit_code == 0 and json.loads(path.read_text()) == {}


def test_cli_rejects_hooks_misuse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(cli, ["install", "cursor", "--hooks"]).exit_code == 2
    assert runner.invoke(cli, ["install", "--hooks"]).exit_code == 2
    assert runner.invoke(cli, ["install", "claude-code", "--remove"]).exit_code == 2
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text("{broken")
    done = runner.invoke(cli, ["install", "claude-code", "--hooks", "--project"])
    assert done.exit_code == 1 and "not valid JSON" in done.output
    assert path.read_text() == "{broken"


def test_hook_status_reports_queue_sessions_and_installs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.setenv("CTXHUB_HOME", str(tmp_path / "hub"))
    (tmp_path / "hub" / "pending").mkdir(parents=True)
    (tmp_path / "hub" / "pending" / "a.json").write_text("{}")
    runner = CliRunner()
    runner.invoke(cli, ["install", "claude-code", "--hooks", "--project"])
    done = runner.invoke(cli, ["hook", "status", "--json"])
    assert done.exit_code == 0, done.output
    report = json.loads(done.output)
    assert report["pending"] == 1 and report["sessions"] == 0
    assert report["installed"]["project"] == str(tmp_path / ".claude" / "settings.json")
    assert report["installed"]["user"] is None
    assert runner.invoke(cli, ["hook", "--help"]).exit_code == 0
    assert "post-tool-use" in runner.invoke(cli, ["hook", "--help"]).output
