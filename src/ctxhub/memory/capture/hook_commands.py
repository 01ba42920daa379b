"""Reading a Bash hook input: did the command fail, and with what output.

Part of the hook path (`ctxhub.memory.capture.hooks`), so standard library only. What a failure
looks like, which commands only look at things and which failures are worth keeping are
shared with session mining (`tool_runs`, `shell_commands`); this module only knows where
Claude Code puts the exit status and the output in a PostToolUse / PostToolUseFailure input.
"""

from __future__ import annotations

import json
from typing import Any

from ctxhub.memory.capture.hook_text import MAX_ERROR, as_text
from ctxhub.memory.capture.shell_commands import failure_worth_keeping, only_inspects
from ctxhub.memory.capture.tool_runs import is_refusal, shows_failure

FAILURE_EVENT = "PostToolUseFailure"
_EXIT_KEYS = ("exit_code", "exitCode", "returncode", "return_code", "returnCode", "code")


def bash_outcome(event: str, payload: dict[str, Any], command: str) -> tuple[bool | None, str]:
    """(failed, error text); failed is None for a call that means nothing here: an
    interrupted or refused one, a command that only looks at things, or a failure that
    is no problem worth remembering (`rm` of a missing file)."""
    if only_inspects(command):
        return None, ""
    response = payload.get("tool_response", payload.get("tool_result"))
    parts: list[str] = []
    interrupted = payload.get("is_interrupt") is True
    exit_code: object = None
    if isinstance(response, dict):
        interrupted = interrupted or response.get("interrupted") is True
        for key in ("stderr", "stdout", "output", "error"):
            value = as_text(response.get(key))
            if value:
                parts.append(value)
        exit_code = next((response[k] for k in _EXIT_KEYS if k in response), None)
    elif isinstance(response, str):
        parts.append(response)
    if interrupted:
        return None, ""
    if event == FAILURE_EVENT:
        for key in ("error", "error_message"):
            value = payload.get(key)
            text = as_text(value) if not isinstance(value, dict | list) else _dumps(value)
            if text:
                parts.insert(0, text)
        failed, output = True, "\n".join(parts)
        if is_refusal(output):
            return None, ""
    else:
        output = "\n".join(parts)
        failed = (
            isinstance(exit_code, int) and not isinstance(exit_code, bool) and exit_code != 0
        ) or shows_failure(output[:200_000])
    if failed and not failure_worth_keeping(command):
        return None, ""
    return failed, output


def _dumps(value: object) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)[:MAX_ERROR]
    except (TypeError, ValueError, RecursionError):
        return ""
