"""`ctxhub install`: each client's config entry, merged without clobbering other servers."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ctxhub.cli.main import cli
from ctxhub.clients.mcp_config import apply_install, plan_install, server_command, strip_jsonc
from ctxhub.core.errors import InstallError

CMD = ("/venv/bin/ctxhub", ["serve"])
ENV = {"CTXHUB_HOME": "/data/hub"}


def test_server_command_points_at_this_interpreter() -> None:
    exe, args = server_command()
    assert Path(exe).is_absolute() and args[-1] == "serve"
    assert Path(exe).parent == Path(sys.executable).parent or exe == sys.executable


@pytest.mark.parametrize(
    ("client", "relpath", "key", "extra"),
    [
        ("cursor", ".cursor/mcp.json", "mcpServers", {}),
        ("vscode", ".vscode/mcp.json", "servers", {"type": "stdio"}),
        ("zed", ".zed/settings.json", "context_servers", {"source": "custom"}),
        ("claude-code", ".mcp.json", "mcpServers", {"type": "stdio"}),
    ],
)
def test_project_config_merges_into_existing_file(
    tmp_path: Path, client: str, relpath: str, key: str, extra: dict[str, str]
) -> None:
    path = tmp_path / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({key: {"other": {"command": "x"}}, "theme": "dark"}))
    plan = plan_install(client, "project", project=tmp_path, command=CMD, env=ENV)  # type: ignore[arg-type]
    assert plan.path == path
    assert "added" in apply_install(plan)
    data = json.loads(path.read_text())
    assert data["theme"] == "dark" and data[key]["other"] == {"command": "x"}
    assert data[key]["ctxhub"] == {
        **extra,
        "command": "/venv/bin/ctxhub",
        "args": ["serve"],
        "env": ENV,
    }
    assert "updated" in apply_install(plan)  # idempotent: one entry, replaced
    assert list(json.loads(path.read_text())[key]) == ["other", "ctxhub"]


def test_user_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(sys, "platform", "linux")
    cursor = plan_install("cursor", home=tmp_path, command=CMD, env={})
    assert cursor.path == tmp_path / ".cursor" / "mcp.json"
    assert plan_install("zed", home=tmp_path, command=CMD, env={}).path == (
        tmp_path / "xdg" / "zed" / "settings.json"
    )
    assert plan_install("vscode", home=tmp_path, command=CMD, env={}).path == (
        tmp_path / "xdg" / "Code" / "User" / "mcp.json"
    )
    claude = plan_install("claude-code", "user", home=tmp_path, command=CMD, env=ENV)
    assert claude.path is None
    assert claude.claude_command() == (
        "claude mcp add --scope user --env CTXHUB_HOME=/data/hub ctxhub -- /venv/bin/ctxhub serve"
    )


def test_zed_settings_with_comments_are_kept_in_a_backup(tmp_path: Path) -> None:
    path = tmp_path / ".zed" / "settings.json"
    path.parent.mkdir()
    original = '{\n  // my font\n  "buffer_font_size": 15, /* big */\n  "url": "http://x//y",\n}\n'
    path.write_text(original)
    report = apply_install(plan_install("zed", "project", project=tmp_path, command=CMD, env={}))
    assert "comments could not be kept" in report
    assert (tmp_path / ".zed" / "settings.json.bak").read_text() == original
    data = json.loads(path.read_text())
    assert data["buffer_font_size"] == 15 and data["url"] == "http://x//y"
    assert "ctxhub" in data["context_servers"]


def test_strip_jsonc_and_broken_files(tmp_path: Path) -> None:
    assert json.loads(strip_jsonc('{"a": [1, 2,], /* c */ "b": "//not a comment",}')) == {
        "a": [1, 2],
        "b": "//not a comment",
    }
    path = tmp_path / ".cursor" / "mcp.json"
    path.parent.mkdir()
    path.write_text("{not json")
    with pytest.raises(InstallError, match="not valid JSON"):
        apply_install(plan_install("cursor", "project", project=tmp_path, command=CMD, env={}))
    assert path.read_text() == "{not json"  # never overwritten


def test_cli_print_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("CTXHUB_HOME", str(tmp_path / "hub"))
    result = CliRunner().invoke(cli, ["install", "cursor", "--project", "--print"])
    assert result.exit_code == 0, result.output
    assert '"mcpServers"' in result.output and str(tmp_path / "hub") in result.output
    assert not (tmp_path / ".cursor").exists()
    every = CliRunner().invoke(cli, ["install", "--print"])
    assert every.exit_code == 0 and "claude mcp add --scope user" in every.output
    assert '"context_servers"' in every.output and '"servers"' in every.output
    wrote = CliRunner().invoke(cli, ["install", "vscode", "--project"])
    assert wrote.exit_code == 0, wrote.output
    assert "ctxhub" in json.loads((tmp_path / ".vscode" / "mcp.json").read_text())["servers"]
