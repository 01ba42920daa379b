"""The reading of tool calls that the live hook and session mining share (`tool_runs`):
failures, error lines and types, languages, diffs. The commands themselves are read in
`shell_commands` (test_shell_commands.py); the hook's and the miner's own tests cover the
state machines built on both."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ctxhub.memory.capture.tool_runs import (
    edit_diff,
    edit_pairs,
    edited_path,
    error_type_of,
    is_refusal,
    join_diffs,
    key_error_lines,
    language_of,
    libraries_of,
    problem_text,
    relative_path,
    shows_failure,
    stack_trace,
)
from tests.unit.tool_samples import PYTEST_FAIL, TRACE

# ---------------------------------------------------------------- failures


@pytest.mark.parametrize(
    "output",
    [
        TRACE,
        PYTEST_FAIL,
        "E   KeyError: 'x'",
        "requests.exceptions.ConnectionError: refused",
        "Error [ERR_REQUIRE_ESM]: require() of ES Module",
        "  Error: boom",
        "npm ERR! code ELIFECYCLE",
        "npm error code E404",  # npm 10
        "error[E0308]: mismatched types",
        "error: could not compile `app`",
        "src/app.ts(3,22): error TS2307: Cannot find module 'zod'.",
        "FAILED (failures=1)",  # unittest
        "FAIL: test_x (mod.T)",
        "FAIL\tgithub.com/x/y\t0.01s",  # go test
        "--- FAIL: TestX (0.00s)",
        "tests/a.py::test_x FAILED   [ 50%]",  # pytest -v
        "BUILD FAILED in 3s",
        "===== 1 failed, 2 passed in 0.1s =====",
        "Exit code 1",
        "panic: runtime error: index out of range",
        "fatal: not a git repository",
        "thread 'main' panicked at src/main.rs:3:5",
        "bash: line 1: foo: command not found",
        "make: *** [Makefile:2: all] Error 1",
    ],
)
def test_output_that_shows_a_failure(output: str) -> None:
    assert shows_failure(f"some output\n{output}\nmore output")


@pytest.mark.parametrize(
    "output",
    [
        "2 passed in 0.1s",
        "Tests: 0 failed",
        "=========== 12 passed, 0 failed in 1.20s ===========",  # a pytest-style summary
        "status: FAILED job retried",  # a word in a log line, not a test result
        "test_retry_FAILED_jobs PASSED",
        "Error handling improved",
        "x = Error: y",
        "0 errors",
        "Exit code 0",
        "  /x.py:3: DeprecationWarning: old",
    ],
)
def test_output_that_shows_no_failure(output: str) -> None:
    assert not shows_failure(output)


def test_refusals_are_not_failures() -> None:
    assert is_refusal("The user doesn't want to proceed with this tool use.")
    assert is_refusal("[Request interrupted by user for tool use]")
    assert not is_refusal("Exit code 1\nTraceback (most recent call last):")


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("output", "error_type", "first_line"),
    [
        (TRACE, "ModuleNotFoundError", "ModuleNotFoundError: No module named 'yaml'"),
        (PYTEST_FAIL, "AssertionError", "AssertionError: assert 3 == 4"),
        (
            "error[E0463]: can't find crate for `serde`\n --> src/main.rs:1:1",
            "E0463",
            "error[E0463]: can't find crate for `serde`",
        ),
        (
            "src/app.ts(3,22): error TS2307: Cannot find module 'zod'.",
            "TS2307",
            "error TS2307: Cannot find module 'zod'.",
        ),
        (
            "npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree",
            "ERESOLVE",
            "code ERESOLVE",
        ),
        (
            "Error [ERR_REQUIRE_ESM]: require() of ES Module x not supported.",
            "ERR_REQUIRE_ESM",
            "Error [ERR_REQUIRE_ESM]: require() of ES Module x not supported.",
        ),
        # npm's ELIFECYCLE only says the script failed: the exception says why
        (
            "npm ERR! code ELIFECYCLE\nTypeError: x is undefined",
            "TypeError",
            "TypeError: x is undefined",
        ),
        (
            "Traceback (most recent call last):\n  File 'a.py'\nSystemExit: 2",
            "SystemExit",
            "SystemExit: 2",
        ),
        ("main.c:3:5: error: expected ';'", None, "main.c:3:5: error: expected ';'"),
        (
            "panic: runtime error: index out of range",
            None,
            "panic: runtime error: index out of range",
        ),
        (
            "bash: line 1: foo: command not found",
            "command not found",
            "bash: line 1: foo: command not found",
        ),
        ("Exit code 2\nsomething odd happened", None, "Exit code 2"),
    ],
)
def test_error_lines_and_types(output: str, error_type: str | None, first_line: str) -> None:
    lines = key_error_lines(output)
    assert lines[0] == first_line
    assert error_type_of(output, lines) == error_type


def test_the_raised_exception_comes_first_and_noise_is_left_out() -> None:
    chained = (
        "Traceback (most recent call last):\n  File 'a.py', line 2\nKeyError: 'x'\n\n"
        "During handling of the above exception, another exception occurred:\n\n"
        "Traceback (most recent call last):\n  File 'a.py', line 4\n"
        "requests.exceptions.ConnectionError: refused\n"
        "npm ERR! A complete log of this run can be found in: /x.log\nExit code 1"
    )
    lines = key_error_lines(chained)
    assert lines == ["requests.exceptions.ConnectionError: refused", "KeyError: 'x'"]
    assert error_type_of(chained, lines) == "ConnectionError"
    assert len(key_error_lines("\n".join(f"FAILED t.py::test_{i}" for i in range(9)))) == 3


def test_with_nothing_but_an_exit_code_the_last_lines_are_quoted() -> None:
    output = "Exit code 1\nstarting\nloading config\nno config file, giving up"
    assert key_error_lines(output) == ["Exit code 1", "loading config", "no config file, giving up"]
    assert key_error_lines("") == []


def test_libraries_named_by_an_error() -> None:
    assert libraries_of(TRACE) == ["yaml"]
    assert libraries_of("Error: Cannot find module '@scope/pkg'") == ["@scope/pkg"]
    assert libraries_of("at /app/node_modules/node-fetch/src/index.js:1") == ["node-fetch"]
    assert libraries_of("error[E0463]: can't find crate for `serde`") == ["serde"]
    assert libraries_of("ImportError: cannot import name 'x' from '.local'") == []


def test_stack_trace_is_the_python_traceback_or_the_whole_report() -> None:
    output = f"Exit code 1\ncollected 3 items\n{TRACE}\nFAILED tests/a.py::t - boom\n"
    trace = stack_trace(output)
    assert trace is not None and trace.startswith("Traceback")
    assert trace.endswith("ModuleNotFoundError: No module named 'yaml'")
    assert stack_trace(PYTEST_FAIL) == PYTEST_FAIL  # pytest's report is the trace
    assert stack_trace("  \n") is None


def test_problem_text() -> None:
    assert problem_text("pytest", ["KeyError: 'a'", "FAILED t.py"]) == (
        "`pytest` failed: KeyError: 'a'\nFAILED t.py"
    )
    assert problem_text("make", []) == "`make` failed"


# ---------------------------------------------------------------- languages


@pytest.mark.parametrize(
    ("paths", "program", "language"),
    [
        (["src/a.py"], "make", "python"),
        (["package.json", "src/client.js"], "node", "javascript"),  # the code, not the config
        (["pyproject.toml"], "pytest", "python"),  # the run says more than TOML
        (["config.yaml"], "make", "yaml"),  # nothing else to go by
        (["src/main.cpp", "src/x.cs"], "", "cpp"),  # labels search can filter on
        (["src/X.cs"], "", "csharp"),
        ([], "cargo", "rust"),
        (["README"], "make", None),
    ],
)
def test_language_of(paths: list[str], program: str, language: str | None) -> None:
    assert language_of(paths, program) == language


# ---------------------------------------------------------------- edits


def test_relative_path() -> None:
    assert relative_path("/work/app/src/a.py", "/work/app") == "src/a.py"
    assert relative_path("/work/app/src/a.py", "/work/app/") == "src/a.py"
    assert relative_path("/work/app2/x.py", "/work/app") == "/work/app2/x.py"
    assert relative_path("C:\\proj\\src\\a.py", "C:\\proj") == "src/a.py"
    assert relative_path("/work/app/a.py", None) == "/work/app/a.py"


def test_edit_inputs() -> None:
    assert edited_path("Edit", {"file_path": "/a.py"}) == "/a.py"
    assert edited_path("NotebookEdit", {"notebook_path": "/n.ipynb"}) == "/n.ipynb"
    assert edited_path("NotebookEdit", {"file_path": "/n.ipynb"}) is None  # not its field
    assert edited_path("Edit", {"file_path": ["x"]}) is None
    assert edit_pairs("Edit", {"old_string": "a", "new_string": 3}) == [("a", "")]
    multi = {"edits": [{"old_string": "a", "new_string": "b"}, 7, {"new_string": "c"}]}
    assert edit_pairs("MultiEdit", multi) == [("a", "b"), ("", "c")]
    assert edit_pairs("MultiEdit", {"edits": "nope"}) == []
    assert edit_pairs("Write", {"content": "x\n"}) == [("", "x\n")]
    assert edit_pairs("NotebookEdit", {"new_source": "y", "edit_mode": "insert"}) == [("", "y")]
    assert edit_pairs("NotebookEdit", {"new_source": "y", "edit_mode": "delete"}) == []


def test_edit_diff_has_one_header_and_no_line_numbers() -> None:
    diff = edit_diff("src/a.py", [("x = 1\n", "x = 2\n"), ("", "import os\n"), ("same", "same")])
    assert diff == "--- a/src/a.py\n+++ b/src/a.py\n@@\n-x = 1\n+x = 2\n@@\n+import os"
    assert edit_diff("a.py", [("same", "same")]) == ""
    written = edit_diff("b.txt", [("", "\n".join(f"l{i}" for i in range(100)))], written=True)
    lines = written.splitlines()
    assert lines[0] == "+++ b/b.txt (written)" and lines[1] == "+l0"
    assert len(lines) == 62 and lines[-1] == "+[...]"


def test_join_diffs_keeps_the_latest_whole_diffs_and_says_what_it_left_out() -> None:
    diffs = [f"--- a/f{i}.py\n+++ b/f{i}.py\n@@\n+" + "x" * 80 for i in range(10)]
    assert join_diffs(diffs[:2], 8_000) == diffs[0] + "\n" + diffs[1]
    joined = join_diffs(diffs, 500)
    assert len(joined) <= 500
    assert joined.startswith("[... ") and "earlier edits left out" in joined
    assert joined.endswith(diffs[-1]) and diffs[0] not in joined
    huge = join_diffs(["+" + "y" * 10_000], 1_000)
    assert len(huge) <= 1_000 and huge.endswith("[... diff cut ...]")
    assert join_diffs(["", ""], 100) == ""


# ---------------------------------------------------------------- the hook path


def test_the_hook_path_loads_the_standard_library_only() -> None:
    """A whole fail -> edit -> pass capture, in a fresh interpreter, imports nothing from
    outside the standard library (the hook runs on every tool call: no pydantic, click,
    numpy)."""
    steps = [
        {"tool_name": "Bash", "tool_input": {"command": "pytest"}, "session_id": "s",
         "hook_event_name": "PostToolUseFailure", "error": TRACE},
        {"tool_name": "Edit", "session_id": "s", "hook_event_name": "PostToolUse",
         "tool_input": {"file_path": "/p/a.py", "old_string": "a", "new_string": "b"}},
        {"tool_name": "Bash", "tool_input": {"command": "pytest"}, "session_id": "s",
         "hook_event_name": "PostToolUse", "tool_response": {"stdout": "1 passed"}},
    ]  # fmt: skip
    probe = (
        "import json, os, sys, tempfile\n"
        "before = set(sys.modules)\n"
        "from ctxhub.memory.capture import hooks\n"
        "home = tempfile.mkdtemp()\n"
        "for step in json.loads(sys.stdin.read()):\n"
        "    hooks.run(['post-tool-use'], json.dumps(step), {'CTXHUB_HOME': home})\n"
        "assert len(os.listdir(os.path.join(home, 'pending'))) == 1\n"
        "new = {m.split('.')[0] for m in set(sys.modules) - before}\n"
        "print(sorted(new - set(sys.stdlib_module_names) - {'ctxhub'}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        input=json.dumps(steps),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
