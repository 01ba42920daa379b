"""What the hook keeps: a fix step from an edit, and the pending record from a failure
and the steps that fixed it.

Part of the hook path (`ctxhub.memory.hooks`), so standard library only. Every text kept
is redacted; the record's fields are those of `RecordInput`, validated when the pending
queue is drained (`ctxhub.memory.pending`).
"""

from __future__ import annotations

import os
import re
import sys
import time
from typing import Any

from ctxhub.memory.hook_commands import command_signature
from ctxhub.memory.hook_text import MAX_ERROR, as_text, clip, safe_redact

AGENT = "claude-code"
CONFIDENCE = 0.55  # below an agent's own log: nobody said this was the fix
MAX_EDIT_TEXT = 4_000  # characters per old/new string of an edit
MAX_DIFF = 8_000
MAX_PROBLEM_LINES = 12

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


NOTEBOOK_MODES = ("replace", "insert", "delete")


def edit_step(tool: str, tool_input: dict[str, Any], cwd: str) -> dict[str, Any] | None:
    """The step an Edit, Write, MultiEdit or NotebookEdit call made; None without a path
    or a change."""
    notebook = tool == "NotebookEdit"
    path = as_text(tool_input.get("notebook_path" if notebook else "file_path"))
    if not path:
        return None
    step: dict[str, Any] = {"kind": tool.lower(), "file_path": safe_redact(_relative(path, cwd))}
    step["time"] = time.time()
    if notebook:
        # {notebook_path, new_source, cell_id?, cell_type?, edit_mode?}: the cell's old
        # source is not in the input, so the step holds the new one only.
        mode = as_text(tool_input.get("edit_mode")) or "replace"
        step["edit_mode"] = mode if mode in NOTEBOOK_MODES else "replace"
        cell = as_text(tool_input.get("cell_id"))
        step["cell_id"] = safe_redact(cell[:100]) if cell else None
        source = "" if step["edit_mode"] == "delete" else as_text(tool_input.get("new_source"))
        step["new"] = safe_redact(clip(source or "", MAX_EDIT_TEXT))
        return step
    if tool == "Write":
        content = as_text(tool_input.get("content")) or ""
        step["lines"] = content.count("\n") + (1 if content and not content.endswith("\n") else 0)
        step["new"] = safe_redact(content[:MAX_EDIT_TEXT])
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
            "old": safe_redact(clip(as_text(old) or "", MAX_EDIT_TEXT)),
            "new": safe_redact(clip(as_text(new) or "", MAX_EDIT_TEXT)),
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
    problem = f"`{clip(command, 300)}` failed"
    if key_lines:
        problem += ":\n" + "\n".join(key_lines)
    edited = [s for s in steps if s.get("file_path")]
    file_path = str(edited[-1]["file_path"]) if edited else None
    solution_lines = [_describe_step(s) for s in steps]
    attempts = int(failure.get("attempts", 1))
    tail = f"After that `{clip(passed_command, 300)}` passed"
    if attempts > 1:
        tail += f" (it had failed {attempts} times)"
    solution_lines.append(tail + ".")
    record: dict[str, Any] = {
        "problem": clip(problem, 4_000),
        "solution": clip("\n".join(solution_lines), 8_000),
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
            record[key] = safe_redact(value)
    return record


def _key_lines(error: str) -> list[str]:
    lines = [line.rstrip() for line in error.splitlines() if line.strip()]
    picked: list[str] = []
    for line in lines:
        if KEY_LINE.search(line) and line.strip() not in picked:
            picked.append(clip(line.strip(), 300))
    if len(picked) > MAX_PROBLEM_LINES:  # the first and the last say the most
        half = MAX_PROBLEM_LINES // 2
        picked = picked[:half] + picked[-half:]
    if not picked and lines:
        picked = [clip(line.strip(), 300) for line in lines[-3:]]
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
    return clip(block.strip(), MAX_ERROR) or None


def _describe_step(step: dict[str, Any]) -> str:
    kind = step.get("kind")
    if kind == "bash":
        return f"Ran `{clip(str(step.get('command', '')), 300)}`."
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


def _diff(steps: list[dict[str, Any]]) -> str:
    import difflib

    out: list[str] = []
    size = 0
    for step in steps:
        path = str(step.get("file_path", ""))
        if step.get("kind") in ("write", "notebookedit"):
            pairs = [("", str(step.get("new", "")))]
        else:
            changes = step.get("changes") or []
            pairs = [(str(c.get("old", "")), str(c.get("new", ""))) for c in changes]
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
