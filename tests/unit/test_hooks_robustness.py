"""The Claude Code hook never fails, never prints and never blocks, whatever it is fed:
fuzzed payloads, streams, an unwritable home, a bounded log, a broken redactor."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from ctxhub.core.records import RecordInput
from ctxhub.memory.capture import hook_text, hooks
from tests.unit.hook_payloads import (
    CWD,
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
