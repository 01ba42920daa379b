"""Claude Code hook payloads, and what the hook leaves on disk, for the test_hooks_*
files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ctxhub.memory.capture import hooks

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
