"""Claude Code hook capture: an error followed by its fix becomes a pending record.

`ctxhub hook post-tool-use` runs after every matching tool call (PostToolUse and
PostToolUseFailure). It reads the hook input on stdin, keeps a little state per session
and, when a command that failed passes again after edits, writes a pending record to
`<home>/pending/<uuid>.json`. Nothing is embedded here: `serve` or the next memory
command drains the queue (`ctxhub.memory.records.pending`).

The state machine, per session:

- a failing Bash command (PostToolUseFailure, or PostToolUse with a non-zero exit code or
  error markers in its output) opens a *failure* (command, key error text, time);
- Edit / Write / MultiEdit / NotebookEdit calls, and other state-changing Bash commands
  (`pip install`), made while a failure is open are remembered as *steps*;
- a later successful run of the same or a similar command closes the failure: with steps
  since it, they become one pending record (problem: the failing command and its error;
  solution: the steps); without, the failure is dropped (it was flaky).

This module and the six it uses are the whole hook path, so they import the standard
library only and do the least work they can: a call with nothing to do reads stdin, stats
one file and returns. `run` never raises, never writes to stdout or stderr and always
returns 0; what goes wrong is logged to `<home>/hooks/hook.log` (kept to a few KB).

Here: reading the input, the state machine and the log. Shared with session mining:
`shell_commands` (is a command a re-run, read-only or an install) and `tool_runs` (what a
failure looks like, the error lines and type, the language, diffs). The hook's own:
`hook_commands` (did a Bash call fail, from the hook input), `hook_capture` (edit steps,
the pending record), `hook_state` (state files, the lock, pending files), `hook_text`
(clipping, redaction).
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import TYPE_CHECKING, Any

from ctxhub.memory.capture.hook_capture import build_record, edit_step
from ctxhub.memory.capture.hook_commands import FAILURE_EVENT, bash_outcome
from ctxhub.memory.capture.hook_state import (
    SESSION_TTL,
    StateLock,
    crc,
    load_state,
    prune_sessions,
    remove_file,
    save_state,
    session_state_path,
    write_pending,
)
from ctxhub.memory.capture.hook_text import MAX_ERROR, as_text, clip, safe_redact
from ctxhub.memory.capture.shell_commands import only_inspects, similar_commands
from ctxhub.memory.capture.tool_runs import EDIT_TOOLS

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import IO

#: What callers import from here; `build_record`, `SESSION_TTL` and `EDIT_TOOLS` (the edit
#: tools session mining counts too; the installed matcher, `server.hooks_install.MATCHER`,
#: names them all, with Bash) live in the modules above and are re-exported.
__all__ = [
    "EDIT_TOOLS",
    "LOG_MAX",
    "MAX_FAILURES",
    "MAX_STEPS",
    "SESSION_TTL",
    "build_record",
    "handle",
    "run",
]

EVENT_ALIASES = {"post-tool-use": "PostToolUse", "post-tool-use-failure": FAILURE_EVENT}

MAX_STDIN = 16 * 1024 * 1024  # bytes read from stdin; a larger input is ignored
MAX_COMMAND = 1_000
MAX_FAILURES = 5  # open failures per session
MAX_STEPS = 40  # steps kept per session
LOG_MAX = 8_192


def run(
    argv: Sequence[str] | None = None,
    stdin: IO[str] | IO[bytes] | str | bytes | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    """Handle one hook call. Always returns 0; never raises, never prints."""
    home = ""
    try:
        environ = os.environ if environ is None else environ
        home = _home(environ)
        payload = _read_payload(sys.stdin if stdin is None else stdin)
        if payload is not None:
            handle(payload, home, event=_event_from_argv(argv))
    except BaseException as exc:  # the agent must never see a hook fail
        if home:
            _log(home, f"{type(exc).__name__}: {exc}")
    return 0


def handle(payload: dict[str, Any], home: str, *, event: str | None = None) -> str | None:
    """Apply one hook input to its session's state; returns the pending file written."""
    tool = payload.get("tool_name")
    if tool != "Bash" and tool not in EDIT_TOOLS:
        return None
    name = payload.get("hook_event_name")
    event = name if isinstance(name, str) and name else (event or "PostToolUse")
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        return None
    session = as_text(payload.get("session_id")) or ""
    cwd = as_text(payload.get("cwd")) or ""
    state_path = session_state_path(home, session or f"anonymous-{crc(cwd)}")
    if tool == "Bash":
        command = as_text(tool_input.get("command"))
        if not command or not command.strip():
            return None
        command = command.strip()[:MAX_COMMAND]
        failed, error = bash_outcome(event, payload, command)
        if failed is None:  # interrupted, or a command that only looks at things
            return None
        if not failed and not os.path.exists(state_path):
            return None  # the common case: a passing command, nothing open
        with StateLock(home):
            return _on_bash(state_path, home, session, cwd, command, failed, error)
    if event == FAILURE_EVENT or not os.path.exists(state_path):
        return None  # a failed edit changed nothing; with no open failure there's no fix
    step = edit_step(str(tool), tool_input, cwd)
    if step is None:
        return None
    with StateLock(home):
        state = load_state(state_path)
        if state["failures"]:
            _add_step(state, step)
            save_state(state_path, state)
    return None


# ---------------------------------------------------------------- the state machine


def _on_bash(
    state_path: str,
    home: str,
    session: str,
    cwd: str,
    command: str,
    failed: bool,
    error: str,
) -> str | None:
    """One Bash call, under the lock: open (or count) a failure, note a step, or close a
    failure, writing its pending record when steps came after it."""
    existed = os.path.exists(state_path)
    state = load_state(state_path)
    failures: list[dict[str, Any]] = state["failures"]
    now = time.time()
    match = _similar_failure(failures, command)
    if failed:
        if match is not None:
            match["attempts"] = int(match.get("attempts", 1)) + 1
            match["last_error"] = safe_redact(clip(error, MAX_ERROR))
            match["time_last"] = now
        else:
            failures.append(
                {
                    "tool": "Bash",
                    "command": safe_redact(command),
                    "error": safe_redact(clip(error, MAX_ERROR)),
                    "time": now,
                    "seq": state["seq"],
                    "attempts": 1,
                    "cwd": cwd,
                }
            )
            del failures[:-MAX_FAILURES]
        state["session_id"] = session
        save_state(state_path, state)
        if not existed:
            prune_sessions(os.path.dirname(state_path), keep=state_path)
        return None
    if match is None:
        if failures and not only_inspects(command):
            _add_step(state, {"kind": "bash", "command": safe_redact(command), "time": now})
            save_state(state_path, state)
        return None
    failures.remove(match)
    steps = [s for s in state["steps"] if int(s.get("seq", 0)) > int(match.get("seq", 0))]
    written = None
    if steps:
        record = build_record(match, steps, command, session=session, cwd=cwd, now=now)
        written = write_pending(home, record)
    if failures:
        low = min(int(f.get("seq", 0)) for f in failures)
        state["steps"] = [s for s in state["steps"] if int(s.get("seq", 0)) > low]
        save_state(state_path, state)
    else:
        remove_file(state_path)  # nothing open: clear the state
    return written


def _similar_failure(failures: list[dict[str, Any]], command: str) -> dict[str, Any] | None:
    for failure in failures[::-1]:
        if similar_commands(str(failure.get("command", "")), command):
            return failure
    return None


def _add_step(state: dict[str, Any], step: dict[str, Any]) -> None:
    state["seq"] = int(state.get("seq", 0)) + 1
    step["seq"] = state["seq"]
    steps: list[dict[str, Any]] = state["steps"]
    steps.append(step)
    del steps[:-MAX_STEPS]


# ---------------------------------------------------------------- input and logging


def _read_payload(stdin: IO[str] | IO[bytes] | str | bytes) -> dict[str, Any] | None:
    raw: str | bytes
    if isinstance(stdin, str | bytes):
        raw = stdin
    else:
        isatty = getattr(stdin, "isatty", None)
        if callable(isatty) and isatty():
            return None  # run by hand at a terminal: nothing is piped in, don't wait
        buffer = getattr(stdin, "buffer", None)
        raw = buffer.read(MAX_STDIN + 1) if buffer is not None else stdin.read(MAX_STDIN + 1)
    if len(raw) > MAX_STDIN:
        return None
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    if not text.strip():
        return None
    try:
        payload = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return payload if isinstance(payload, dict) else None


def _event_from_argv(argv: Sequence[str] | None) -> str | None:
    for arg in argv or ():
        if isinstance(arg, str) and arg in EVENT_ALIASES:
            return EVENT_ALIASES[arg]
    return None


def _home(environ: Mapping[str, str]) -> str:
    home = environ.get("CTXHUB_HOME") or os.path.join("~", ".ctxhub")
    return os.path.abspath(os.path.expanduser(home))


def _log(home: str, message: str) -> None:
    """One line in `<home>/hooks/hook.log`, which is kept under LOG_MAX bytes."""
    try:
        path = os.path.join(home, "hooks", "hook.log")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        try:
            if os.path.getsize(path) > LOG_MAX:
                with open(path, "rb") as fh:
                    fh.seek(-LOG_MAX // 2, os.SEEK_END)
                    kept = fh.read()
                kept = kept[kept.find(b"\n") + 1 :]
                with open(path, "wb") as fh:
                    fh.write(kept)
        except OSError:
            pass
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
        line = " ".join(message.split())[:400]
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(f"{stamp} {line}\n")
    except BaseException:
        pass
