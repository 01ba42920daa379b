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
        "claude mcp add --scope user ctxhub --env CTXHUB_HOME=/data/hub -- /venv/bin/ctxhub serve"
    )


def test_claude_command_puts_the_name_before_the_variadic_env_option() -> None:
    """Claude Code's `--env <env...>` takes every value up to the next option: the name
    must come before it, and `--` ends it before the server command."""
    plan = plan_install(
        "claude-code", "user", command=CMD, env={"CTXHUB_DB": "/d/x.db", "CTXHUB_HOME": "/h"}
    )
    words = plan.claude_command().split()
    assert words[:6] == ["claude", "mcp", "add", "--scope", "user", "ctxhub"]
    after_name = words[6 : words.index("--")]
    assert after_name == ["--env", "CTXHUB_DB=/d/x.db", "--env", "CTXHUB_HOME=/h"]
    assert words[words.index("--") + 1 :] == ["/venv/bin/ctxhub", "serve"]


def test_project_files_get_a_portable_entry_and_say_what_was_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A project file is committed: no absolute venv path, no per-user CTXHUB_HOME."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CTXHUB_HOME", str(tmp_path / "hub"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))  # no ctxhub on PATH
    done = CliRunner().invoke(cli, ["install", "claude-code", "--project"])
    assert done.exit_code == 0, done.output
    entry = json.loads((tmp_path / ".mcp.json").read_text())["mcpServers"]["ctxhub"]
    assert entry == {"type": "stdio", "command": "ctxhub", "args": ["serve"], "env": {}}
    assert "CTXHUB_HOME not written" in done.output
    assert "not on PATH" in done.output
    user = plan_install("claude-code", "user")
    assert Path(user.command).is_absolute() and user.env == {"CTXHUB_HOME": str(tmp_path / "hub")}


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
    assert '"mcpServers"' in result.output and '"command": "ctxhub"' in result.output
    assert "# note: CTXHUB_HOME not written" in result.output  # a shared file: portable
    assert not (tmp_path / ".cursor").exists()
    every = CliRunner().invoke(cli, ["install", "--print"])
    assert every.exit_code == 0 and "claude mcp add --scope user" in every.output
    assert '"context_servers"' in every.output and '"servers"' in every.output
    wrote = CliRunner().invoke(cli, ["install", "vscode", "--project"])
    assert wrote.exit_code == 0, wrote.output
    assert "ctxhub" in json.loads((tmp_path / ".vscode" / "mcp.json").read_text())["servers"]
