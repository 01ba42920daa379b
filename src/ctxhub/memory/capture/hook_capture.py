"""What the hook keeps: a fix step from an edit, and the pending record from a failure
and the steps that fixed it.

Part of the hook path (`ctxhub.memory.capture.hooks`), so standard library only. Every text kept
is redacted; the record's fields are those of `RecordInput`, validated when the pending
queue is drained (`ctxhub.memory.records.pending`). Reading the error (key lines, error type,
trace, libraries), the language and the diff are shared with session mining
(`ctxhub.memory.capture.tool_runs`).
"""

from __future__ import annotations

import sys
import time
from typing import Any

from ctxhub.memory.capture.hook_text import MAX_ERROR, as_text, clip, safe_redact
from ctxhub.memory.capture.shell_commands import command_signature, shown_command
from ctxhub.memory.capture.tool_runs import (
    edit_diff,
    edit_pairs,
    edited_path,
    error_type_of,
    join_diffs,
    key_error_lines,
    language_of,
    libraries_of,
    problem_text,
    relative_path,
    stack_trace,
)

AGENT = "claude-code"
CONFIDENCE = 0.55  # below an agent's own log: nobody said this was the fix
MAX_EDIT_TEXT = 4_000  # characters per old/new string of an edit
MAX_DIFF = 8_000
_OS_NAMES = {"linux": "linux", "darwin": "macos", "win32": "windows", "cygwin": "windows"}


NOTEBOOK_MODES = ("replace", "insert", "delete")


def edit_step(tool: str, tool_input: dict[str, Any], cwd: str) -> dict[str, Any] | None:
    """The step an Edit, Write, MultiEdit or NotebookEdit call made; None without a path
    or a change."""
    path = edited_path(tool, tool_input)
    if not path:
        return None
    step: dict[str, Any] = {
        "kind": tool.lower(),
        "file_path": safe_redact(relative_path(path.replace("\x00", ""), cwd)),
        "time": time.time(),
    }
    if tool == "NotebookEdit":
        # {notebook_path, new_source, cell_id?, cell_type?, edit_mode?}: the cell's old
        # source is not in the input, so the step holds the new one only.
        mode = as_text(tool_input.get("edit_mode")) or "replace"
        step["edit_mode"] = mode if mode in NOTEBOOK_MODES else "replace"
        cell = as_text(tool_input.get("cell_id"))
        step["cell_id"] = safe_redact(cell[:100]) if cell else None
        pairs = edit_pairs(tool, {**tool_input, "edit_mode": step["edit_mode"]})
        step["new"] = safe_redact(clip(_clean(pairs[0][1]) if pairs else "", MAX_EDIT_TEXT))
        return step
    pairs = edit_pairs(tool, tool_input)
    if tool == "Write":
        content = _clean(pairs[0][1])
        step["lines"] = content.count("\n") + (1 if content and not content.endswith("\n") else 0)
        step["new"] = safe_redact(content[:MAX_EDIT_TEXT])
        return step
    changes = [
        {
            "old": safe_redact(clip(_clean(old), MAX_EDIT_TEXT)),
            "new": safe_redact(clip(_clean(new), MAX_EDIT_TEXT)),
        }
        for old, new in pairs[:20]
    ]
    if not changes:
        return None
    step["changes"] = changes
    return step


def _clean(text: str) -> str:
    return text.replace("\x00", "")  # JSON state can't hold NUL characters


def build_record(
    failure: dict[str, Any],
    steps: list[dict[str, Any]],
    passed_command: str,
    *,
    session: str = "",
    cwd: str = "",
    now: float | None = None,
) -> dict[str, Any]:
    """The pending record (RecordInput fields) for a failure and the steps that fixed it."""
    now = time.time() if now is None else now
    command = str(failure.get("command", ""))
    error = str(failure.get("error", ""))
    cwd = str(failure.get("cwd") or cwd)
    lines = key_error_lines(error)
    edited = [s for s in steps if s.get("file_path")]
    paths = [str(s["file_path"]) for s in reversed(edited)]  # the latest edit first
    solution_lines = [_describe_step(s, cwd) for s in steps]
    attempts = int(failure.get("attempts", 1))
    tail = f"After that `{shown_command(passed_command, cwd)}` passed"
    if attempts > 1:
        tail += f" (it had failed {attempts} times)"
    solution_lines.append(tail + ".")
    trace = stack_trace(error)
    program = command_signature(command).program
    record: dict[str, Any] = {
        "problem": clip(problem_text(shown_command(command, cwd), lines), 4_000),
        "solution": clip("\n".join(solution_lines), 8_000),
        "error_type": error_type_of(error, lines),
        "stack_trace": clip(trace, MAX_ERROR) if trace else None,
        "code_diff": join_diffs([_diff(s) for s in edited], MAX_DIFF) or None,
        "file_path": paths[0] if paths else None,
        "language": language_of(paths, program),
        "tags": [program] if program else [],  # as mining tags its records
        "libraries": libraries_of(error),
        "os": _OS_NAMES.get(sys.platform, sys.platform),
        "source": "hook",
        "session_id": session[:200] or None,
        "agent": AGENT,
        "confidence": CONFIDENCE,
        "resolved": True,
        "created_at": float(failure.get("time", now)),
        "last_seen": now,
    }
    for key, value in record.items():
        if isinstance(value, str):
            record[key] = safe_redact(value)
    record["libraries"] = [safe_redact(name) for name in record["libraries"]]
    return record


def _describe_step(step: dict[str, Any], cwd: str) -> str:
    kind = step.get("kind")
    if kind == "bash":
        return f"Ran `{shown_command(str(step.get('command', '')), cwd)}`."
    path = step.get("file_path", "")
    if kind == "write":
        return f"Wrote {path} ({step.get('lines', 0)} lines)."
    if kind == "notebookedit":
        cell = f"cell {step['cell_id']}" if step.get("cell_id") else "a cell"
        mode = step.get("edit_mode")
        if mode == "delete":
            return f"Deleted {cell} of {path}."
        done = f"Inserted a cell after {cell} of" if mode == "insert" else f"Replaced {cell} of"
        if mode == "insert" and not step.get("cell_id"):
            done = "Inserted a cell at the start of"
        return f"{done} {path} with `{_preview(str(step.get('new', '')))}`."
    changes = step.get("changes") or []
    described = [
        f"replaced `{_preview(str(c.get('old', '')))}` with `{_preview(str(c.get('new', '')))}`"
        for c in changes[:3]
    ]
    more = f" and {len(changes) - 3} more" if len(changes) > 3 else ""
    return f"Edited {path}: " + "; ".join(described) + more + "."


def _preview(text: str, limit: int = 100) -> str:
    flat = " ".join(text.split()).replace("`", "'")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _diff(step: dict[str, Any]) -> str:
    """The diff of one edit step, from what the step kept of it."""
    path = str(step.get("file_path", ""))
    if step.get("kind") in ("write", "notebookedit"):
        new = str(step.get("new", ""))
        return edit_diff(path, [("", new)] if new else [], written=step.get("kind") == "write")
    pairs = [(str(c.get("old", "")), str(c.get("new", ""))) for c in step.get("changes") or []]
    return edit_diff(path, pairs)
