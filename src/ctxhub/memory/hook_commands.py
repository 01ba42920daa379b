"""Reading a Bash tool call: did it fail, what does it run, is it a re-run of another.

Part of the hook path (`ctxhub.memory.hooks`), so standard library only. A command is
reduced to its signature, the program it runs and its non-option arguments, so that
`cd app && uv run python -m pytest tests/a.py -q` re-runs `pytest tests/a.py`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ctxhub.memory.hook_text import MAX_ERROR, as_text

FAILURE_EVENT = "PostToolUseFailure"

#: Output that says a command failed even when no exit code came with it.
ERROR_MARKERS = re.compile(
    r"Traceback \(most recent call last\)"
    r"|^(?:E\s+)?[A-Za-z_][\w.]*(?:Error|Exception):"
    r"|^\s*Error:"
    r"|\bFAILED\b"
    r"|npm ERR!"
    r"|error\[E\d+\]"
    r"|^error(?:\[\w+\])?:"
    r"|\berror TS\d+:"
    r"|^panic:"
    r"|^fatal:",
    re.MULTILINE,
)
_EXIT_KEYS = ("exit_code", "exitCode", "returncode", "return_code", "returnCode", "code")
_SEGMENT_SPLIT = re.compile(r"\s*(?:&&|\|\||;|\n)\s*")
_SETUP = re.compile(r"^(?:cd|pushd|popd|export|source|set|\.)(?:\s|$)")
_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_REDIRECT = re.compile(r"^(?:\d?>>?|<|&>|2>&1|\d>&\d)")
_WRAPPERS = frozenset({"time", "env", "sudo", "nice", "nohup", "command", "exec", "xargs"})
_RUNNERS = {  # program -> the subcommand words that introduce the real program
    "uv": ("run",),
    "poetry": ("run",),
    "pipenv": ("run",),
    "pdm": ("run",),
    "hatch": ("run",),
    "pnpm": ("exec", "dlx"),
    "yarn": ("exec", "dlx"),
    "npm": ("exec",),
    "bundle": ("exec",),
}
#: Commands that only look at things: their "failures" (grep's exit 1) are not errors,
#: and running them is not a step towards a fix.
_INSPECT = frozenset(
    {
        "cat", "head", "tail", "less", "more", "grep", "egrep", "fgrep", "rg", "ag", "ack",
        "find", "fd", "ls", "tree", "echo", "printf", "wc", "which", "type", "whereis",
        "file", "stat", "pwd", "diff", "cmp", "jq", "man", "sort", "uniq", "awk", "sed",
        "test", "[", "true", "false", "sleep", "date", "whoami", "env", "printenv",
        "du", "df", "ps", "top", "history", "readlink", "realpath", "basename", "dirname",
        "cd", "pushd", "popd", "export", "source", "set", "unset", "alias", "clear", "exit",
    }
)  # fmt: skip
_GIT_INSPECT = frozenset(
    {"log", "show", "diff", "status", "grep", "blame", "branch", "remote", "rev-parse",
     "ls-files", "describe", "reflog", "shortlog", "config"}
)  # fmt: skip


def bash_outcome(event: str, payload: dict[str, Any], command: str) -> tuple[bool | None, str]:
    """(failed, error text); failed is None for an event that means nothing here."""
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
        return True, "\n".join(parts)
    output = "\n".join(parts)
    if isinstance(exit_code, int) and not isinstance(exit_code, bool) and exit_code != 0:
        return True, output
    return bool(ERROR_MARKERS.search(output[:200_000])), output


def command_signature(command: str) -> tuple[str, frozenset[str]]:
    """The program a command line runs and its non-option arguments.

    `cd app && FOO=1 uv run python -m pytest tests/test_x.py::test_y -q 2>&1 | tail`
    -> ("pytest", {"tests/test_x.py"}).
    """
    segments = [s for s in _SEGMENT_SPLIT.split(command.strip()) if s.strip()]
    main = next((s for s in segments if not _SETUP.match(s)), segments[0] if segments else "")
    tokens = main.split("|", 1)[0].split()
    while tokens and (_ASSIGN.match(tokens[0]) or tokens[0] in _WRAPPERS):
        tokens.pop(0)
    if tokens and tokens[0] == "timeout":  # timeout [-s SIG] DURATION cmd
        tokens.pop(0)
        while tokens and (tokens[0].startswith("-") or tokens[0][:1].isdigit()):
            tokens.pop(0)
    program = _basename(tokens[0]) if tokens else ""
    rest = tokens[1:]
    if program in _RUNNERS and rest and rest[0] in _RUNNERS[program]:
        rest = rest[1:]
        while rest and rest[0].startswith("-"):
            rest.pop(0)
        program, rest = (_basename(rest[0]), rest[1:]) if rest else (program, rest)
    if program in ("npx", "bunx"):
        while rest and rest[0].startswith("-"):
            rest.pop(0)
        program, rest = (_basename(rest[0]), rest[1:]) if rest else (program, rest)
    if re.fullmatch(r"python[\d.]*|py", program) and len(rest) >= 2 and rest[0] == "-m":
        program, rest = rest[1], rest[2:]
    args: set[str] = set()
    for token in rest:
        if token.startswith("-") or _REDIRECT.match(token):
            continue
        args.add(token.split("::", 1)[0].strip("'\""))
    return program, frozenset(args)


def similar_commands(a: str, b: str) -> bool:
    """Whether `b` re-runs `a`: the same program on the same, a narrower or a wider target
    (`pytest tests/a.py` and `pytest`), not another program or another script."""
    if " ".join(a.split()) == " ".join(b.split()):
        return True
    prog_a, args_a = command_signature(a)
    prog_b, args_b = command_signature(b)
    if not prog_a or prog_a != prog_b:
        return False
    if args_a <= args_b or args_b <= args_a:
        return True
    return len(args_a & args_b) / len(args_a | args_b) >= 0.5


def only_inspects(command: str) -> bool:
    """Whether a command only looks at things (`grep`, `git log`): never a failure or a step."""
    program, args = command_signature(command)
    if program == "git":
        words = [w for w in command.split() if not w.startswith("-")]
        sub = words[words.index("git") + 1] if "git" in words[:-1] else ""
        return sub in _GIT_INSPECT or not args
    return program in _INSPECT


def _basename(token: str) -> str:
    return token.strip("'\"").replace("\\", "/").rsplit("/", 1)[-1]


def _dumps(value: object) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)[:MAX_ERROR]
    except (TypeError, ValueError, RecursionError):
        return ""
