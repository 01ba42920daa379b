"""What a transcript's tool calls mean: which shell runs failed, what an edit changed.

A failing run is a Bash tool result with `is_error` (a non-zero exit) that the user did
not refuse, or output that shows a failure (a traceback, `FAILED`, `npm ERR!`,
`error[E0463]`, `Exit code 1` ...). The judging itself, and which later run re-runs a
command (`similar_commands`: `pytest -x tests/a.py` and `python -m pytest` are the same
run, `npm test` and `npm run build` are not), are shared with the live hook in
`tool_runs` and `shell_commands` (this package); this module applies them to the
reader's `ToolCall`s.
`sessions.py` strings these into error -> fix -> pass sequences.
"""

from __future__ import annotations

from typing import Literal

from ctxhub.memory.capture.session_reader import ToolCall
from ctxhub.memory.capture.shell_commands import failure_worth_keeping, only_inspects
from ctxhub.memory.capture.tool_runs import (
    EDIT_TOOLS,
    edit_diff,
    edit_pairs,
    edited_path,
    is_refusal,
    relative_path,
    shows_failure,
)

__all__ = ["EDIT_TOOLS", "RUN_TOOLS", "call_diff", "is_failure", "path_of", "run_outcome"]

RUN_TOOLS = frozenset({"Bash"})


def run_outcome(call: ToolCall) -> Literal["failed", "passed"] | None:
    """How a shell run went: "failed" (exit status or output shows it), "passed", or None
    (not a run worth judging: no result, a command that only looks at things, a call the
    user refused, or a failure that is no problem worth remembering)."""
    if call.name not in RUN_TOOLS or call.result is None or only_inspects(call.command):
        return None
    output = call.result.output
    if call.result.is_error and is_refusal(output):
        return None
    if call.result.is_error or shows_failure(output):
        return "failed" if failure_worth_keeping(call.command) else None
    return "passed"


def is_failure(call: ToolCall) -> bool:
    return run_outcome(call) == "failed"


def path_of(call: ToolCall) -> str | None:
    """The file an edit call names."""
    return edited_path(call.name, call.input)


def call_diff(call: ToolCall, cwd: str | None) -> str:
    """A unified-style diff of one edit call (or the head of a written file)."""
    rel = relative_path(path_of(call) or "unknown", cwd)
    return edit_diff(rel, edit_pairs(call.name, call.input), written=call.name == "Write")
