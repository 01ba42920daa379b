"""The Claude Code hook: the fail -> edit -> pass state machine, and that it never fails,
never prints and never blocks, whatever it is fed."""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from ctxhub.cli.entry import is_hook_call
from ctxhub.core.records import RecordInput
from ctxhub.memory.capture import hook_text, hooks

SESSION = "3f2c1d9e-aaaa-bbbb-cccc-1234567890ab"
CWD = "/work/proj"
TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
TRACEBACK = (
    "Exit code 1\n"
    "============================= test session starts ==============================\n"
    "collected 3 items\n\n"
    "tests/test_app.py F..\n\n"
    "Traceback (most recent call last):\n"
    '  File "/work/proj/src/app.py", line 12, in load\n'
    "    return json.loads(raw)['items']\n"
    "KeyError: 'items'\n"
    f"GITHUB_TOKEN={TOKEN}\n"
    "FAILED tests/test_app.py::test_load - KeyError: 'items'\n"
    "========================= 1 failed, 2 passed in 0.12s ==========================\n"
)


def bash(command: str, *, failed: bool = False, error: str = "", **response: Any) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "session_id": SESSION,
        "transcript_path": "/home/u/.claude/projects/x/t.jsonl",
        "cwd": CWD,
        "hook_event_name": "PostToolUseFailure" if failed else "PostToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "run it"},
        "tool_use_id": "toolu_01",
    }
    if failed:
        payload["error"] = error
    else:
        payload["tool_response"] = {
            "stdout": "",
            "stderr": "",
            "interrupted": False,
            "isImage": False,
            **response,
        }
    return payload


def edit(path: str, old: str, new: str, tool: str = "Edit") -> dict[str, Any]:
    tool_input: dict[str, Any] = {"file_path": path, "old_string": old, "new_string": new}
    if tool == "MultiEdit":
        tool_input = {"file_path": path, "edits": [{"old_string": old, "new_string": new}] * 2}
    elif tool == "Write":
        tool_input = {"file_path": path, "content": new}
    return {
        "session_id": SESSION,
        "cwd": CWD,
        "hook_event_name": "PostToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_response": {"filePath": path, "success": True},
    }


def notebook_edit(
    path: str, source: str, mode: str | None = None, cell: str | None = None
) -> dict[str, Any]:
    tool_input: dict[str, Any] = {"notebook_path": path, "new_source": source}
    if cell is not None:
        tool_input["cell_id"] = cell
    if mode is not None:
        tool_input["edit_mode"] = mode
    return {
        "session_id": SESSION,
        "cwd": CWD,
        "hook_event_name": "PostToolUse",
        "tool_name": "NotebookEdit",
        "tool_input": tool_input,
        "tool_response": {"success": True},
    }


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "hub"


def call(home: Path, payload: object, capsys: pytest.CaptureFixture[str] | None = None) -> None:
    text = payload if isinstance(payload, str | bytes) else json.dumps(payload)
    assert hooks.run(["post-tool-use"], text, {"CTXHUB_HOME": str(home)}) == 0
    if capsys is not None:
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err == ""


def pending(home: Path) -> list[dict[str, Any]]:
    folder = home / "pending"
    return (
        [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]
        if folder.is_dir()
        else []
    )


def sessions(home: Path) -> list[Path]:
    folder = home / "hooks" / "sessions"
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


# ---------------------------------------------------------------- the state machine


def test_fail_edit_pass_writes_one_redacted_pending_record(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    call(
        home,
        bash(
            "cd /work/proj && python -m pytest tests/test_app.py -q", failed=True, error=TRACEBACK
        ),
        capsys,
    )
    assert pending(home) == [] and len(sessions(home)) == 1
    call(
        home,
        edit(f"{CWD}/src/app.py", "json.loads(raw)['items']", "json.loads(raw).get('items', [])"),
        capsys,
    )
    call(home, edit(f"{CWD}/src/app.py", "API_KEY = ''", f"API_KEY = '{TOKEN}'"), capsys)
    call(home, bash("python -m pytest tests/test_app.py -q", stdout="3 passed in 0.10s"), capsys)

    records = pending(home)
    assert len(records) == 1
    record = RecordInput.model_validate(records[0])  # the drain's own validation
    assert record.source == "hook" and record.agent == "claude-code"
    assert record.confidence == pytest.approx(0.55)
    assert record.session_id == SESSION
    assert record.error_type == "KeyError"
    assert "python -m pytest tests/test_app.py -q" in record.problem
    assert "KeyError: 'items'" in record.problem
    assert record.stack_trace is not None and record.stack_trace.startswith("Traceback")
    assert record.stack_trace.rstrip().endswith("KeyError: 'items'")
    assert "Edited src/app.py" in record.solution and "passed" in record.solution
    assert record.code_diff is not None
    assert "-json.loads(raw)['items']" in record.code_diff
    assert "+json.loads(raw).get('items', [])" in record.code_diff
    assert record.file_path == "src/app.py"  # relative to the session's cwd
    assert record.language == "python"
    assert record.created_at is not None and record.last_seen is not None
    assert record.created_at <= record.last_seen
    blob = json.dumps(records[0])
    assert TOKEN not in blob and "REDACTED" in blob
    assert sessions(home) == []  # closed: the state is cleared
    # the session state on disk never held the token either
    assert not list((home / "hooks").rglob("*.tmp"))


def test_pass_without_failure_writes_nothing(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    call(home, bash("pytest -q", stdout="5 passed"), capsys)
    call(home, edit(f"{CWD}/a.py", "x", "y"), capsys)
    call(home, bash("pytest -q", stdout="5 passed"), capsys)
    assert not home.exists()  # the common path touches nothing


def test_a_different_command_does_not_close_the_loop(home: Path) -> None:
    call(home, bash("pytest tests/test_app.py", failed=True, error=TRACEBACK))
    call(home, edit(f"{CWD}/src/app.py", "a", "b"))
    call(home, bash("python scripts/build_docs.py", stdout="built"))
    call(home, bash("npm run lint", stdout="ok"))
    assert pending(home) == [] and len(sessions(home)) == 1
    # a narrower re-run of the same test file is similar: it closes the loop
    call(home, bash("pytest tests/test_app.py::test_load -x", stdout="1 passed"))
    records = pending(home)
    assert len(records) == 1
    # the unrelated commands that ran in between are steps of the fix
    assert "Ran `python scripts/build_docs.py`" in records[0]["solution"]


def test_pass_without_edits_drops_the_failure(home: Path) -> None:
    call(home, bash("pytest", failed=True, error="FAILED tests/test_x.py::test_flaky"))
    call(home, bash("pytest", stdout="10 passed"))  # flaky: nothing was fixed
    assert pending(home) == [] and sessions(home) == []


def test_inspection_commands_are_neither_failures_nor_steps(home: Path) -> None:
    call(home, bash("grep -rn TODO src", failed=True, error="Exit code 1"))  # no match
    assert not home.exists()
    call(home, bash("make test", failed=True, error="Error: 1 test failed"))
    call(home, bash("cat src/app.py | head -50", stdout="Error: in a file"))
    call(home, bash("git diff", stdout="+x"))
    call(home, bash("pip install requests", stdout="Successfully installed requests"))
    call(home, bash("make test", stdout="ok"))
    [record] = pending(home)
    assert record["solution"].splitlines()[0] == "Ran `pip install requests`."
    assert "cat src" not in record["solution"] and "git diff" not in record["solution"]


def test_post_tool_use_with_exit_code_or_markers_counts_as_failure(home: Path) -> None:
    call(home, bash("cargo build", stderr="error[E0308]: mismatched types\n --> src/main.rs:4:5"))
    call(home, edit(f"{CWD}/src/main.rs", 'let x: i32 = "1";', "let x: i32 = 1;"))
    call(home, bash("cargo build", stderr="Finished dev"))
    [record] = pending(home)
    assert record["error_type"] == "E0308" and record["language"] == "rust"
    assert record["stack_trace"].startswith("error[E0308]")  # the compiler's report
    assert record["problem"] == "`cargo build` failed: error[E0308]: mismatched types"

    call(home, bash("./run.sh", stdout="boom", exit_code=2))
    call(home, edit(f"{CWD}/run.sh", "boom", "ok"))
    call(home, bash("./run.sh", stdout="ok", exit_code=0))
    assert len(pending(home)) == 2


def test_refused_and_quiet_failures_open_nothing(home: Path) -> None:
    refused = "The user doesn't want to proceed with this tool use. The tool use was rejected"
    call(home, bash("docker compose up -d", failed=True, error=refused))
    call(home, bash("rm build/app.o", failed=True, error="rm: cannot remove 'build/app.o'"))
    assert not home.exists()
    call(home, bash("ls -la; make", failed=True, error="make: *** [all] Error 1"))  # a build
    assert len(sessions(home)) == 1


def test_interrupted_commands_are_ignored(home: Path) -> None:
    payload = bash("pytest", failed=True, error="Interrupted by user")
    payload["is_interrupt"] = True
    call(home, payload)
    call(home, bash("npm test", stderr="npm ERR! code ELIFECYCLE", interrupted=True))
    assert not home.exists()


def test_repeated_failure_keeps_the_first_error_and_counts_attempts(home: Path) -> None:
    call(
        home,
        bash("npm test", failed=True, error="npm ERR! code ELIFECYCLE\nTypeError: x is undefined"),
    )
    call(home, edit(f"{CWD}/src/index.ts", "x.y", "x?.y"))
    call(home, bash("npm test", failed=True, error="error TS2532: Object is possibly 'undefined'."))
    call(home, edit(f"{CWD}/src/index.ts", "x?.y", "x!.y", tool="MultiEdit"))
    call(home, edit(f"{CWD}/src/helper.ts", "", "export const h = 1;\n", tool="Write"))
    call(home, bash("npm test", stdout="Tests: 4 passed"))
    [record] = pending(home)
    assert "TypeError: x is undefined" in record["problem"]
    assert "failed 2 times" in record["solution"]
    assert "Edited src/index.ts" in record["solution"]
    assert "Wrote src/helper.ts (1 lines)" in record["solution"]
    assert record["file_path"] == "src/helper.ts" and record["language"] == "typescript"
    assert "+export const h = 1;" in record["code_diff"]


def test_notebook_edits_are_steps_of_the_fix(home: Path) -> None:
    nb = f"{CWD}/notebooks/analysis.ipynb"
    call(home, bash("python -m pytest --nbmake notebooks", failed=True, error=TRACEBACK))
    call(home, notebook_edit(nb, "df = load()\nitems = df.get('items', [])", cell="c7"))
    call(home, notebook_edit(nb, f"API_KEY = '{TOKEN}'", mode="insert", cell="c7"))
    call(home, notebook_edit(nb, "", mode="delete", cell="c9"))
    call(home, notebook_edit(nb, "import pandas as pd", mode="insert"))
    call(home, bash("python -m pytest --nbmake notebooks", stdout="1 passed"))
    [record] = pending(home)
    RecordInput.model_validate(record)
    lines = record["solution"].splitlines()
    assert lines[0] == (
        "Replaced cell c7 of notebooks/analysis.ipynb with"
        " `df = load() items = df.get('items', [])`."
    )
    assert lines[1].startswith("Inserted a cell after cell c7 of notebooks/analysis.ipynb")
    assert lines[2] == "Deleted cell c9 of notebooks/analysis.ipynb."
    assert lines[3] == (
        "Inserted a cell at the start of notebooks/analysis.ipynb with `import pandas as pd`."
    )
    assert record["file_path"] == "notebooks/analysis.ipynb"
    assert record["language"] == "python"
    assert "+items = df.get('items', [])" in record["code_diff"]
    assert "+import pandas as pd" in record["code_diff"]
    assert TOKEN not in json.dumps(record) and "REDACTED" in record["code_diff"]


def test_notebook_edits_without_a_path_or_with_odd_input_are_ignored(home: Path) -> None:
    call(home, bash("pytest", failed=True, error="AssertionError"))
    call(home, {**notebook_edit("", "x"), "tool_input": {"file_path": f"{CWD}/a.ipynb"}})
    odd = notebook_edit(f"{CWD}/a.ipynb", "x", mode="explode", cell="c1")
    odd["tool_input"]["new_source"] = ["not", "a", "string"]
    call(home, odd)
    state = json.loads(sessions(home)[0].read_text())
    [step] = state["steps"]  # only the second: the first named no notebook
    assert step["kind"] == "notebookedit" and step["edit_mode"] == "replace"
    assert step["new"] == "" and step["cell_id"] == "c1"


def test_edits_failing_and_unknown_tools_are_ignored(home: Path) -> None:
    call(home, bash("pytest", failed=True, error="AssertionError"))
    failed_edit = edit(f"{CWD}/a.py", "nope", "x")
    failed_edit["hook_event_name"] = "PostToolUseFailure"
    call(home, failed_edit)
    call(home, {**edit(f"{CWD}/a.py", "a", "b"), "tool_name": "Read"})
    state = json.loads(sessions(home)[0].read_text())
    assert state["steps"] == [] and len(state["failures"]) == 1


def test_sessions_are_kept_apart(home: Path) -> None:
    call(home, bash("pytest", failed=True, error="AssertionError"))
    other = edit(f"{CWD}/a.py", "a", "b")
    other["session_id"] = "../../etc/passwd"  # also: a session id is never a path
    call(home, other)
    call(home, bash("pytest", stdout="ok"))
    assert pending(home) == []  # the edit was another session's
    assert all(p.parent == home / "hooks" / "sessions" for p in sessions(home))


def test_open_failures_are_bounded(home: Path) -> None:
    for i in range(hooks.MAX_FAILURES + 5):
        call(home, bash(f"python job_{i}.py", failed=True, error="ValueError: bad"))
    for i in range(hooks.MAX_STEPS + 10):
        call(home, edit(f"{CWD}/f{i}.py", "a", "b"))
    state = json.loads(sessions(home)[0].read_text())
    assert len(state["failures"]) == hooks.MAX_FAILURES
    assert len(state["steps"]) == hooks.MAX_STEPS


def test_old_sessions_are_pruned(home: Path) -> None:
    folder = home / "hooks" / "sessions"
    folder.mkdir(parents=True)
    old = folder / "old.json"
    old.write_text("{}")
    stale = time.time() - hooks.SESSION_TTL - 60
    os.utime(old, (stale, stale))
    fresh = folder / "fresh.json"
    fresh.write_text("{}")
    call(home, bash("pytest", failed=True, error="AssertionError"))
    names = {p.name for p in sessions(home)}
    assert "old.json" not in names and "fresh.json" in names and len(names) == 2


def test_parallel_hook_calls_lose_no_state(home: Path) -> None:
    call(home, bash("pytest", failed=True, error="AssertionError"))
    threads = [
        threading.Thread(target=call, args=(home, edit(f"{CWD}/f{i}.py", "a", "b")))
        for i in range(20)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    state = json.loads(sessions(home)[0].read_text())
    assert len(state["steps"]) == 20


# ---------------------------------------------------------------- never fails, never prints


def _random_payloads(rng: random.Random) -> list[object]:
    valid = [
        bash("pytest", failed=True, error=TRACEBACK),
        edit(f"{CWD}/a.py", "a", "b"),
        bash("pytest", stdout="ok"),
        edit(f"{CWD}/a.py", "a", "b", tool="MultiEdit"),
        edit(f"{CWD}/a.py", "a", "b", tool="Write"),
        notebook_edit(f"{CWD}/a.ipynb", "b", mode="insert", cell="c1"),
    ]
    junk: list[object] = [
        "",
        " \n",
        "null",
        "[]",
        "[1, 2, 3]",
        '"a string"',
        "42",
        "{",
        '{"tool_name": ',
        "[" * 50_000 + "]" * 50_000,  # deeper than the JSON parser recurses
        b"\xff\xfe\x00\x01garbage",
        b'{"tool_name": "Bash", "tool_input": {"command": "\xff\xfe"}}',
        "\x00" * 1000,
        {"tool_name": "Bash"},
        {"tool_name": "Bash", "tool_input": "pytest"},
        {"tool_name": "Bash", "tool_input": {"command": 12}},
        {
            "tool_name": "Bash",
            "tool_input": {"command": ""},
            "hook_event_name": "PostToolUseFailure",
        },
        {"tool_name": "Bash", "tool_input": {"command": "pytest"}, "tool_response": [1, 2]},
        {
            "tool_name": "Bash",
            "tool_input": {"command": "x"},
            "hook_event_name": 7,
            "error": {"a": 1},
        },
        {"tool_name": "Edit", "tool_input": {"file_path": ["x"], "old_string": 1}},
        {"tool_name": "MultiEdit", "tool_input": {"file_path": "a", "edits": "nope"}},
        {"tool_name": "MultiEdit", "tool_input": {"file_path": "a", "edits": [1, None, {}]}},
        {"tool_name": "NotebookEdit", "tool_input": {"notebook_path": 3, "new_source": 4}},
        {"tool_name": "NotebookEdit", "tool_input": {"notebook_path": "a", "cell_id": {}}},
        {"tool_name": ["Bash"], "tool_input": {}},
        {"session_id": {"x": 1}, "tool_name": "Bash", "tool_input": {"command": "pytest"}},
        {
            "session_id": "s" * 100_000,
            "tool_name": "Bash",
            "tool_input": {"command": "pytest"},
            "hook_event_name": "PostToolUseFailure",
            "error": "E" * 2_000_000,
        },
    ]
    out: list[object] = list(junk)
    keys = [
        "session_id",
        "cwd",
        "hook_event_name",
        "tool_name",
        "tool_input",
        "tool_response",
        "error",
    ]
    values: list[object] = [
        None,
        0,
        -1,
        1.5,
        True,
        "",
        "x" * 5000,
        [],
        {},
        [{}],
        {"a": []},
        "\ud800",
    ]
    for _ in range(300):
        payload = json.loads(json.dumps(rng.choice(valid)))
        for _ in range(rng.randint(1, 3)):
            key = rng.choice(keys)
            action = rng.random()
            if action < 0.3:
                payload.pop(key, None)
            elif action < 0.8:
                payload[key] = rng.choice(values)
            elif isinstance(payload.get("tool_input"), dict):
                payload["tool_input"][
                    rng.choice(
                        ["command", "file_path", "old_string", "edits", "new_source", "edit_mode"]
                    )
                ] = rng.choice(values)
        out.append(payload)
    for _ in range(100):
        out.append(bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 300))))
    return out


def test_fuzz_every_input_returns_zero_and_prints_nothing(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(20240607)
    payloads = _random_payloads(rng)
    assert len(payloads) > 400
    for payload in payloads:
        if isinstance(payload, str | bytes):
            assert hooks.run(["post-tool-use"], payload, {"CTXHUB_HOME": str(home)}) == 0
        else:
            try:
                text = json.dumps(payload)
            except UnicodeEncodeError:  # pragma: no cover
                continue
            assert hooks.run(["post-tool-use"], text, {"CTXHUB_HOME": str(home)}) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""
    for record in pending(home):  # whatever was captured is a valid record
        RecordInput.model_validate(record)
    log = home / "hooks" / "hook.log"
    assert not log.exists() or log.stat().st_size <= hooks.LOG_MAX + 600


def test_stdin_streams_and_argv_event(home: Path) -> None:
    payload = bash("pytest", failed=True, error="AssertionError")
    del payload["hook_event_name"]  # the event then comes from the command line
    stream = io.TextIOWrapper(io.BytesIO(json.dumps(payload).encode()), encoding="utf-8")
    assert hooks.run(["post-tool-use-failure"], stream, {"CTXHUB_HOME": str(home)}) == 0
    assert len(sessions(home)) == 1
    assert hooks.run(["post-tool-use"], io.StringIO("not json"), {"CTXHUB_HOME": str(home)}) == 0


def test_unwritable_home_still_returns_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    for home in (blocker, blocker / "below"):
        call(home, bash("pytest", failed=True, error=TRACEBACK), capsys)
    assert blocker.read_text() == "not a directory"


def test_the_log_stays_small(home: Path) -> None:
    for i in range(500):
        hooks._log(str(home), f"problem {i} " + "x" * 100)
    assert (home / "hooks" / "hook.log").stat().st_size <= hooks.LOG_MAX + 600


def test_redaction_falls_back_when_the_redactor_breaks(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(text: str) -> str:
        raise RuntimeError("boom")

    monkeypatch.setattr(hook_text, "_REDACT", broken)
    assert TOKEN not in hook_text.safe_redact(f"token {TOKEN}")
    assert "hunter22" not in hook_text.fallback_redact("password=hunter22")


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
