"""The hook's way in: the console script's fast path for hook events (no click, no
pydantic), exiting 0 silently whatever happens, and click's `hook` command running the
same handler."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ctxhub.cli.entry import is_hook_call
from ctxhub.memory.capture import hooks
from tests.unit.hook_payloads import CWD, TRACEBACK, bash, edit, pending, sessions


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "hub"


# ---------------------------------------------------------------- the console script


def test_fast_path_only_for_hook_events() -> None:
    assert is_hook_call(["hook", "post-tool-use"])
    assert is_hook_call(["hook", "post-tool-use-failure"])
    assert not is_hook_call(["hook", "post-tool-use", "--help"])
    assert not is_hook_call(["hook", "status"])
    assert not is_hook_call(["hook"])
    assert not is_hook_call(["search", "hook"])


def _console_script() -> str:
    script = Path(sys.executable).parent / "ctxhub"
    found = str(script) if script.is_file() else shutil.which("ctxhub")
    if found is None:
        pytest.skip("the ctxhub console script is not installed")
    return found


@pytest.mark.parametrize(
    "stdin",
    [
        b"",
        b"garbage \xff",
        json.dumps(bash("pytest", failed=True, error=TRACEBACK)).encode(),
        json.dumps(edit(f"{CWD}/src/app.py", "a", "b")).encode(),
        json.dumps(bash("pytest", stdout="ok")).encode(),
    ],
)
def test_console_script_exits_zero_silently(tmp_path: Path, stdin: bytes) -> None:
    env = {**os.environ, "CTXHUB_HOME": str(tmp_path / "hub")}
    done = subprocess.run(
        [_console_script(), "hook", "post-tool-use"],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0 and done.stdout == b"" and done.stderr == b""


def test_console_script_captures_a_fix(tmp_path: Path) -> None:
    env = {**os.environ, "CTXHUB_HOME": str(tmp_path / "hub")}
    steps = [
        bash("pytest tests/test_app.py", failed=True, error=TRACEBACK),
        edit(f"{CWD}/src/app.py", "['items']", ".get('items', [])"),
        bash("pytest tests/test_app.py", stdout="3 passed"),
    ]
    for step in steps:
        done = subprocess.run(
            [_console_script(), "hook", "post-tool-use"],
            input=json.dumps(step).encode(),
            capture_output=True,
            env=env,
            timeout=30,
            check=False,
        )
        assert done.returncode == 0 and done.stdout == b""
    assert len(pending(tmp_path / "hub")) == 1


def test_python_dash_m_uses_the_fast_path(tmp_path: Path) -> None:
    env = {**os.environ, "CTXHUB_HOME": str(tmp_path / "hub")}
    done = subprocess.run(
        [sys.executable, "-m", "ctxhub", "hook", "post-tool-use"],
        input=b"[not json",
        capture_output=True,
        env=env,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0 and done.stdout == b""
    probe = "import sys, runpy; sys.argv = ['ctxhub', 'hook', 'post-tool-use']; "
    probe += "import ctxhub.cli.entry as e\ntry:\n e.main()\nexcept SystemExit: pass\n"
    probe += "print('click' in sys.modules, 'pydantic' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", probe],
        input=b"{}",
        capture_output=True,
        env=env,
        timeout=30,
        check=False,
    )
    assert done.stdout.decode().split() == ["False", "False"]  # no click, no pydantic


def test_click_command_runs_the_same_handler(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from ctxhub.cli.main import cli

    monkeypatch.setenv("CTXHUB_HOME", str(home))
    runner = CliRunner()
    payload = json.dumps(bash("pytest", failed=True, error="AssertionError"))
    done = runner.invoke(cli, ["hook", "post-tool-use"], input=payload)
    assert done.exit_code == 0 and done.output == ""
    assert len(sessions(home)) == 1
    done = runner.invoke(cli, ["hook", "post-tool-use"], input="\x00not json")
    assert done.exit_code == 0 and done.output == ""
    assert "Claude Code" in runner.invoke(cli, ["hook", "post-tool-use", "--help"]).output


def test_entry_defers_everything_else_to_click(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from ctxhub import __version__
    from ctxhub.cli import entry

    monkeypatch.setattr(sys, "argv", ["ctxhub", "--version"])
    with pytest.raises(SystemExit) as excinfo:
        entry.main()
    assert excinfo.value.code == 0 and __version__ in capsys.readouterr().out


def test_entry_hook_path_exits_zero_even_if_the_handler_breaks(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from ctxhub.cli import entry

    def explode(*args: object) -> int:
        raise MemoryError

    monkeypatch.setattr(hooks, "run", explode)
    monkeypatch.setattr(sys, "argv", ["ctxhub", "hook", "post-tool-use"])
    with pytest.raises(SystemExit) as excinfo:
        entry.main()
    assert excinfo.value.code == 0 and capsys.readouterr().out == ""
