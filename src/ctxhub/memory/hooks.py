"""Claude Code hook capture: an error followed by its fix becomes a pending record.

`ctxhub hook post-tool-use` runs after every matching tool call (PostToolUse and
PostToolUseFailure). It reads the hook input on stdin, keeps a little state per session
and, when a command that failed passes again after edits, writes a pending record to
`<home>/pending/<uuid>.json`. Nothing is embedded here: `serve` or the next memory
command drains the queue (`ctxhub.memory.pending`).

The state machine, per session:

- a failing Bash command (PostToolUseFailure, or PostToolUse with a non-zero exit code or
  error markers in its output) opens a *failure* (command, key error text, time);
- Edit / Write / MultiEdit calls, and other state-changing Bash commands (`pip install`),
  made while a failure is open are remembered as *steps*;
- a later successful run of the same or a similar command closes the failure: with steps
  since it, they become one pending record (problem: the failing command and its error;
  solution: the steps); without, the failure is dropped (it was flaky).

This module is the whole hook path, so it imports the standard library only and does the
least work it can: a call with nothing to do reads stdin, stats one file and returns.
`run` never raises, never writes to stdout or stderr and always returns 0; what goes
wrong is logged to `<home>/hooks/hook.log` (kept to a few KB).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import time
import zlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import IO

AGENT = "claude-code"
CONFIDENCE = 0.55  # below an agent's own log: nobody said this was the fix
EDIT_TOOLS = frozenset({"Edit", "Write", "MultiEdit"})
FAILURE_EVENT = "PostToolUseFailure"
EVENT_ALIASES = {"post-tool-use": "PostToolUse", "post-tool-use-failure": FAILURE_EVENT}

MAX_STDIN = 16 * 1024 * 1024  # bytes read from stdin; a larger input is ignored
MAX_ERROR = 6_000  # characters of error output kept per failure (head and tail)
MAX_EDIT_TEXT = 4_000  # characters per old/new string of an edit
MAX_COMMAND = 1_000
MAX_FAILURES = 5  # open failures per session
MAX_STEPS = 40  # steps kept per session
MAX_DIFF = 8_000
MAX_PROBLEM_LINES = 12
SESSION_TTL = 2 * 24 * 3600  # session state older than this is pruned
MAX_SESSIONS = 200
LOG_MAX = 8_192
LOCK_WAIT = 1.0  # seconds to wait for the state lock before skipping the event

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
#: A line worth quoting in the problem: the error itself, not the noise around it.
KEY_LINE = re.compile(
    r"(?:Error|Exception|ERR!|FAILED|FAIL\b|error\b|panic:|fatal:|failed\b|"
    r"not found|No such file|[Cc]annot |[Uu]nable to )"
)
_EXC_NAME = re.compile(
    r"^(?:E\s+)?(?:[A-Za-z_][\w]*\.)*([A-Z][\w]*(?:Error|Exception|Exit|Interrupt|Warning))"
    r"(?::|$)",
    re.MULTILINE,
)
_RUST_CODE = re.compile(r"\berror\[(E\d{4})\]")
_TS_CODE = re.compile(r"\berror (TS\d+):")
_NPM_CODE = re.compile(r"^npm ERR! code (\S+)", re.MULTILINE)
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
_LANGUAGES = {
    ".py": "python", ".pyi": "python", ".ipynb": "python", ".js": "javascript",
    ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript", ".ts": "typescript",
    ".tsx": "typescript", ".mts": "typescript", ".rs": "rust", ".go": "go", ".java": "java",
    ".kt": "kotlin", ".kts": "kotlin", ".scala": "scala", ".rb": "ruby", ".php": "php",
    ".c": "c", ".h": "c", ".cc": "c++", ".cpp": "c++", ".cxx": "c++", ".hpp": "c++",
    ".cs": "c#", ".swift": "swift", ".m": "objective-c", ".sh": "shell", ".bash": "shell",
    ".zsh": "shell", ".ps1": "powershell", ".lua": "lua", ".r": "r", ".jl": "julia",
    ".dart": "dart", ".ex": "elixir", ".exs": "elixir", ".erl": "erlang", ".hs": "haskell",
    ".ml": "ocaml", ".clj": "clojure", ".sql": "sql", ".html": "html", ".css": "css",
    ".scss": "scss", ".vue": "vue", ".svelte": "svelte", ".toml": "toml", ".yaml": "yaml",
    ".yml": "yaml", ".json": "json", ".tf": "terraform", ".zig": "zig", ".nim": "nim",
}  # fmt: skip
_PROGRAM_LANGUAGES = {
    "python": "python", "python3": "python", "pytest": "python", "py.test": "python",
    "mypy": "python", "ruff": "python", "pip": "python", "pip3": "python", "tox": "python",
    "nox": "python", "cargo": "rust", "rustc": "rust", "go": "go", "node": "javascript",
    "npm": "javascript", "npx": "javascript", "yarn": "javascript", "pnpm": "javascript",
    "jest": "javascript", "vitest": "javascript", "tsc": "typescript", "deno": "typescript",
    "bun": "javascript", "mvn": "java", "gradle": "java", "ruby": "ruby", "bundle": "ruby",
    "rake": "ruby", "rspec": "ruby", "dotnet": "c#", "swift": "swift", "mix": "elixir",
}  # fmt: skip
_OS_NAMES = {"linux": "linux", "darwin": "macos", "win32": "windows", "cygwin": "windows"}


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
    session = _text(payload.get("session_id")) or ""
    cwd = _text(payload.get("cwd")) or ""
    state_path = _state_path(home, session or f"anonymous-{_crc(cwd)}")
    if tool == "Bash":
        command = _text(tool_input.get("command"))
        if not command or not command.strip():
            return None
        command = command.strip()[:MAX_COMMAND]
        failed, error = _bash_outcome(event, payload, command)
        if failed is None:  # interrupted, or a command that only looks at things
            return None
        if not failed and not os.path.exists(state_path):
            return None  # the common case: a passing command, nothing open
        with _Lock(home):
            return _on_bash(state_path, home, session, cwd, command, failed, error)
    if event == FAILURE_EVENT or not os.path.exists(state_path):
        return None  # a failed edit changed nothing; with no open failure there's no fix
    step = _edit_step(str(tool), tool_input, cwd)
    if step is None:
        return None
    with _Lock(home):
        state = _load_state(state_path)
        if state["failures"]:
            _add_step(state, step)
            _save_state(state_path, state)
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
    existed = os.path.exists(state_path)
    state = _load_state(state_path)
    failures: list[dict[str, Any]] = state["failures"]
    now = time.time()
    match = _similar_failure(failures, command)
    if failed:
        if match is not None:
            match["attempts"] = int(match.get("attempts", 1)) + 1
            match["last_error"] = _redact(_clip(error, MAX_ERROR))
            match["time_last"] = now
        else:
            failures.append(
                {
                    "tool": "Bash",
                    "command": _redact(command),
                    "error": _redact(_clip(error, MAX_ERROR)),
                    "time": now,
                    "seq": state["seq"],
                    "attempts": 1,
                    "cwd": cwd,
                }
            )
            del failures[:-MAX_FAILURES]
        state["session_id"] = session
        _save_state(state_path, state)
        if not existed:
            _prune_sessions(os.path.dirname(state_path), keep=state_path)
        return None
    if match is None:
        if failures and not _inspects(command):
            _add_step(state, {"kind": "bash", "command": _redact(command), "time": now})
            _save_state(state_path, state)
        return None
    failures.remove(match)
    steps = [s for s in state["steps"] if int(s.get("seq", 0)) > int(match.get("seq", 0))]
    written = None
    if steps:
        record = build_record(match, steps, command, session=session, cwd=cwd, now=now)
        written = _write_pending(home, record)
    if failures:
        low = min(int(f.get("seq", 0)) for f in failures)
        state["steps"] = [s for s in state["steps"] if int(s.get("seq", 0)) > low]
        _save_state(state_path, state)
    else:
        _remove(state_path)  # nothing open: clear the state
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


def _bash_outcome(event: str, payload: dict[str, Any], command: str) -> tuple[bool | None, str]:
    """(failed, error text); failed is None for an event that means nothing here."""
    if _inspects(command):
        return None, ""
    response = payload.get("tool_response", payload.get("tool_result"))
    parts: list[str] = []
    interrupted = payload.get("is_interrupt") is True
    exit_code: object = None
    if isinstance(response, dict):
        interrupted = interrupted or response.get("interrupted") is True
        for key in ("stderr", "stdout", "output", "error"):
            value = _text(response.get(key))
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
            text = _text(value) if not isinstance(value, dict | list) else _dumps(value)
            if text:
                parts.insert(0, text)
        return True, "\n".join(parts)
    output = "\n".join(parts)
    if isinstance(exit_code, int) and not isinstance(exit_code, bool) and exit_code != 0:
        return True, output
    return bool(ERROR_MARKERS.search(output[:200_000])), output


# ---------------------------------------------------------------- commands


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


def _inspects(command: str) -> bool:
    program, args = command_signature(command)
    if program == "git":
        words = [w for w in command.split() if not w.startswith("-")]
        sub = words[words.index("git") + 1] if "git" in words[:-1] else ""
        return sub in _GIT_INSPECT or not args
    return program in _INSPECT


def _basename(token: str) -> str:
    return token.strip("'\"").replace("\\", "/").rsplit("/", 1)[-1]


# ---------------------------------------------------------------- edits


def _edit_step(tool: str, tool_input: dict[str, Any], cwd: str) -> dict[str, Any] | None:
    path = _text(tool_input.get("file_path"))
    if not path:
        return None
    step: dict[str, Any] = {"kind": tool.lower(), "file_path": _redact(_relative(path, cwd))}
    step["time"] = time.time()
    if tool == "Write":
        content = _text(tool_input.get("content")) or ""
        step["lines"] = content.count("\n") + (1 if content and not content.endswith("\n") else 0)
        step["new"] = _redact(content[:MAX_EDIT_TEXT])
        return step
    pairs: list[tuple[object, object]] = []
    if tool == "MultiEdit":
        edits = tool_input.get("edits")
        for edit in edits if isinstance(edits, list) else []:
            if isinstance(edit, dict):
                pairs.append((edit.get("old_string"), edit.get("new_string")))
    else:
        pairs.append((tool_input.get("old_string"), tool_input.get("new_string")))
    changes = [
        {
            "old": _redact(_clip(_text(old) or "", MAX_EDIT_TEXT)),
            "new": _redact(_clip(_text(new) or "", MAX_EDIT_TEXT)),
        }
        for old, new in pairs[:20]
    ]
    if not changes:
        return None
    step["changes"] = changes
    return step


def _relative(path: str, cwd: str) -> str:
    if cwd and os.path.isabs(path):
        try:
            rel = os.path.relpath(path, cwd)
        except ValueError:  # another drive on Windows
            return path
        if not rel.startswith(".."):
            return rel.replace(os.sep, "/")
    return path


# ---------------------------------------------------------------- the record


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
    key_lines = _key_lines(error)
    problem = f"`{_clip(command, 300)}` failed"
    if key_lines:
        problem += ":\n" + "\n".join(key_lines)
    edited = [s for s in steps if s.get("file_path")]
    file_path = str(edited[-1]["file_path"]) if edited else None
    solution_lines = [_describe_step(s) for s in steps]
    attempts = int(failure.get("attempts", 1))
    tail = f"After that `{_clip(passed_command, 300)}` passed"
    if attempts > 1:
        tail += f" (it had failed {attempts} times)"
    solution_lines.append(tail + ".")
    record: dict[str, Any] = {
        "problem": _clip(problem, 4_000),
        "solution": _clip("\n".join(solution_lines), 8_000),
        "error_type": _error_type(error),
        "stack_trace": _stack_trace(error),
        "code_diff": _diff(edited) or None,
        "file_path": file_path,
        "language": _language(file_path, command),
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
            record[key] = _redact(value)
    return record


def _key_lines(error: str) -> list[str]:
    lines = [line.rstrip() for line in error.splitlines() if line.strip()]
    picked: list[str] = []
    for line in lines:
        if KEY_LINE.search(line) and line.strip() not in picked:
            picked.append(_clip(line.strip(), 300))
    if len(picked) > MAX_PROBLEM_LINES:  # the first and the last say the most
        half = MAX_PROBLEM_LINES // 2
        picked = picked[:half] + picked[-half:]
    if not picked and lines:
        picked = [_clip(line.strip(), 300) for line in lines[-3:]]
    return picked


def _error_type(error: str) -> str | None:
    for pattern in (_EXC_NAME, _RUST_CODE, _TS_CODE, _NPM_CODE):
        found = pattern.findall(error)
        if found:
            return str(found[-1])[:200]
    return None


def _stack_trace(error: str) -> str | None:
    start = error.rfind("Traceback (most recent call last)")
    if start < 0:
        return None
    block = error[start:]
    found = _EXC_NAME.search(block)
    if found:
        end = block.find("\n", found.end())
        block = block if end < 0 else block[:end]
    return _clip(block.strip(), MAX_ERROR) or None


def _describe_step(step: dict[str, Any]) -> str:
    kind = step.get("kind")
    if kind == "bash":
        return f"Ran `{_clip(str(step.get('command', '')), 300)}`."
    path = step.get("file_path", "")
    if kind == "write":
        return f"Wrote {path} ({step.get('lines', 0)} lines)."
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


def _diff(steps: list[dict[str, Any]]) -> str:
    import difflib

    out: list[str] = []
    size = 0
    for step in steps:
        path = str(step.get("file_path", ""))
        if step.get("kind") == "write":
            pairs = [("", str(step.get("new", "")))]
        else:
            pairs = [(str(c.get("old", "")), str(c.get("new", ""))) for c in step["changes"]]
        for old, new in pairs:
            lines = list(
                difflib.unified_diff(
                    old.splitlines(), new.splitlines(), f"a/{path}", f"b/{path}", lineterm=""
                )
            )
            chunk = "\n".join(lines)
            if size + len(chunk) > MAX_DIFF:
                out.append("… (diff truncated)")
                return "\n".join(out)
            out.append(chunk)
            size += len(chunk) + 1
    return "\n".join(c for c in out if c)


def _language(file_path: str | None, command: str) -> str | None:
    if file_path:
        ext = os.path.splitext(file_path)[1].lower()
        if ext in _LANGUAGES:
            return _LANGUAGES[ext]
    return _PROGRAM_LANGUAGES.get(command_signature(command)[0])


def _write_pending(home: str, record: dict[str, Any]) -> str:
    import uuid

    folder = os.path.join(home, "pending")
    os.makedirs(folder, exist_ok=True)
    name = f"{uuid.uuid4()}.json"
    path = os.path.join(folder, name)
    _atomic_write(path, json.dumps(record, ensure_ascii=False, indent=1))
    return path


# ---------------------------------------------------------------- state files


def _home(environ: Mapping[str, str]) -> str:
    home = environ.get("CTXHUB_HOME") or os.path.join("~", ".ctxhub")
    return os.path.abspath(os.path.expanduser(home))


def _state_path(home: str, session: str) -> str:
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", session)[:80]
    if safe != session:
        safe += f"-{_crc(session)}"
    return os.path.join(home, "hooks", "sessions", safe + ".json")


def _crc(text: str) -> str:
    return f"{zlib.crc32(text.encode('utf-8', 'replace')):08x}"


def _load_state(path: str) -> dict[str, Any]:
    state: dict[str, Any] = {}
    try:
        with open(path, encoding="utf-8") as fh:
            loaded = json.load(fh)
        if isinstance(loaded, dict):
            state = loaded
    except (OSError, ValueError):
        pass
    for key in ("failures", "steps"):
        value = state.get(key)
        state[key] = [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []
    if not isinstance(state.get("seq"), int):
        state["seq"] = 0
    state["version"] = 1
    return state


def _save_state(path: str, state: dict[str, Any]) -> None:
    state["updated"] = time.time()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    _atomic_write(path, json.dumps(state, ensure_ascii=False))


def _atomic_write(path: str, text: str) -> None:
    folder, name = os.path.split(path)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    finally:
        _remove(tmp)


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def _prune_sessions(folder: str, *, keep: str) -> None:
    """Drop session state older than SESSION_TTL, and the oldest beyond MAX_SESSIONS."""
    try:
        entries = [e for e in os.scandir(folder) if e.is_file()]
    except OSError:
        return
    cutoff = time.time() - SESSION_TTL
    live: list[tuple[float, str]] = []
    for entry in entries:
        try:
            mtime = entry.stat().st_mtime
        except OSError:
            continue
        if entry.path == keep:
            continue
        if mtime < cutoff or (entry.name.endswith(".tmp") and mtime < time.time() - 3600):
            _remove(entry.path)
        elif entry.name.endswith(".json"):
            live.append((mtime, entry.path))
    live.sort()
    for _, path in live[: max(0, len(live) - (MAX_SESSIONS - 1))]:
        _remove(path)


class _Lock:
    """An exclusive lock on `<home>/hooks/.lock`, so parallel hook calls (Claude Code runs
    tool calls in parallel) don't lose each other's state updates. Held for a millisecond
    or so; after LOCK_WAIT seconds it raises TimeoutError and the event is skipped (and
    logged). Without fcntl (Windows) there is no lock."""

    def __init__(self, home: str) -> None:
        self.path = os.path.join(home, "hooks", ".lock")
        self.fd: int | None = None

    def __enter__(self) -> _Lock:
        try:
            import fcntl
        except ImportError:  # Windows: no locking
            return self
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return self
            except BlockingIOError:
                if time.monotonic() > deadline:
                    os.close(self.fd)
                    self.fd = None
                    raise TimeoutError("hook state is locked; event skipped") from None
                time.sleep(0.005)

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing releases the lock
            self.fd = None


# ---------------------------------------------------------------- input, text, logging


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


def _text(value: object) -> str | None:
    if isinstance(value, str):
        return value.replace("\x00", "")
    return None


def _dumps(value: object) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)[:MAX_ERROR]
    except (TypeError, ValueError, RecursionError):
        return ""


def _clip(text: str, limit: int) -> str:
    """At most `limit` characters: the head and the tail, where errors say the most."""
    if len(text) <= limit:
        return text
    head = limit // 4
    tail = limit - head - 12
    return text[:head] + "\n… (cut) …\n" + text[-tail:]


_REDACT: Callable[[str], str] | None = None


def _redact(text: str) -> str:
    global _REDACT
    if _REDACT is None:
        try:
            from ctxhub.memory.redact import redact
        except Exception:  # absent or broken: the built-in patterns below
            redact = _fallback_redact
        _REDACT = redact
    try:
        return _REDACT(text)
    except Exception:
        return _fallback_redact(text)


_SECRETS = re.compile(
    r"(?:AKIA|ASIA)[0-9A-Z]{16}"
    r"|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}"
    r"|sk-[A-Za-z0-9_-]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}"
    r"|-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----"
)
_ASSIGNED = re.compile(
    r"(?i)((?:password|passwd|secret|token|api[_-]?key|access[_-]?key|authorization)"
    r"[\"']?\s*[:=]\s*[\"']?(?:bearer\s+)?)[^\s\"',;]{4,}"
)


def _fallback_redact(text: str) -> str:
    text = _SECRETS.sub("[REDACTED]", text)
    return _ASSIGNED.sub(r"\1[REDACTED]", text)


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
