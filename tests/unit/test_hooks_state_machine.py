"""The Claude Code hook's fail -> edit -> pass state machine: what opens and closes a
loop, what counts as a step of the fix, what is ignored, and the session state it keeps."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest

from ctxhub.core.records import RecordInput
from ctxhub.memory.capture import hooks
from tests.unit.hook_payloads import (
    CWD,
    SESSION,
    TOKEN,
    TRACEBACK,
    bash,
    call,
    edit,
    notebook_edit,
    pending,
    sessions,
)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "hub"


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
