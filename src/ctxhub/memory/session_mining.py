"""What a transcript's tool calls mean: which shell runs failed and how, which commands are
"the same run again", what an edit changed.

A failing run is a Bash tool result with `is_error` (a non-zero exit), or output that shows a
failure (a traceback, `FAILED`, `npm ERR!`, `error[E0463]`, `Exit code 1` ...). Two runs are the
same when their `command_key` matches: the program and its sub-command once `cd x &&`,
`VAR=1`, `timeout 60`, `uv run`, `npx` and `python -m` are peeled off (`pytest -x tests/a.py`
and `python -m pytest` are both `("pytest",)`; `npm run test` and `npm test` are
`("npm", "test")`). `sessions.py` strings these into error -> fix -> pass sequences.
"""

from __future__ import annotations

import difflib
import re
import shlex
from pathlib import Path
from typing import Literal

from ctxhub.memory.session_reader import ToolCall

RUN_TOOLS = frozenset({"Bash"})
EDIT_TOOLS = frozenset({"Edit", "MultiEdit", "Write", "NotebookEdit"})

_FAILURE = re.compile(
    r"Traceback \(most recent call last\)"
    r"|^(?:npm ERR!|npm error) "
    r"|^error(?:\[E\d+\])?: "
    r"|\berror TS\d+: "
    r"|^FAILED |^FAIL |^--- FAIL: "
    r"|^=+ .*\b\d+ (?:failed|errors?)\b"
    r"|^Exit code [1-9]\d*\s*$"
    r"|^(?:[A-Z]\w*)?(?:Error|Exception)(?: \[[\w-]+\])?: "
    r"|panicked at |Segmentation fault|: command not found$|^make(?:\[\d+\])?: \*\*\* ",
    re.MULTILINE,
)
# A Claude Code tool result that records the user's refusal, not a failure of the command.
_REJECTED = re.compile(
    r"doesn't want to proceed|tool use was rejected|\[Request interrupted by user", re.I
)
# (priority, pattern) of lines that state the error; lower priority wins.
_KEY_LINES: tuple[tuple[int, re.Pattern[str]], ...] = (
    (0, re.compile(r"^E\s{2,}(?!\[\s*\d+%\]$)(\S.*)$")),
    (
        0,
        re.compile(
            r"^\s*((?:[\w]+\.)*(?:[A-Z]\w*)?(?:Error|Exception|Exit|Interrupt)"
            r"(?: \[[\w-]+\])?(?::\s.*)?)$"
        ),
    ),
    (1, re.compile(r"^\s*(error(?:\[E\d+\])?: .+)$")),
    (1, re.compile(r"^.*?(\berror TS\d+: .+)$")),
    (2, re.compile(r"^((?:FAILED|FAIL|ERROR|--- FAIL:) .+)$")),
    (3, re.compile(r"^(?:npm ERR!|npm error) ((?!A complete log)(?!\s*$).+)$")),
    (4, re.compile(r"^(.*(?:command not found|panicked at|Segmentation fault).*)$")),
    (9, re.compile(r"^(Exit code \d+)\s*$")),
)
_NODE_CODE = re.compile(r"\b(ERR_[A-Z0-9_]{3,})\b")
_COMPILER_CODE = re.compile(r"\berror\[(E\d{4})\]|\berror (TS\d+):")
_NPM_CODE = re.compile(r"^(?:npm ERR!|npm error) code (E[A-Z0-9]+)\s*$", re.M)
_EXCEPTION = re.compile(r"\b((?:[A-Z]\w*)?(?:Error|Exception))\b")
_LIBRARY_PATTERNS = (
    re.compile(r"No module named '([\w-]+)"),
    re.compile(r"Cannot find (?:module|package) '((?:@[\w.-]+/)?[\w.-]+)"),
    re.compile(r"node_modules/((?:@[\w.-]+/)?[\w.-]+)/"),
    re.compile(r"can't find crate for `([\w-]+)`"),
)
_HUNK_HEADER = re.compile(r"^@@ .* @@$", re.M)

EXTENSION_LANGUAGES = {
    ".py": "python",
    ".pyi": "python",
    ".ipynb": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".tsx": "typescript",
    ".mts": "typescript",
    ".rs": "rust",
    ".go": "go",
    ".java": "java",
    ".kt": "kotlin",
    ".rb": "ruby",
    ".php": "php",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".hpp": "cpp",
    ".cs": "csharp",
    ".swift": "swift",
    ".scala": "scala",
    ".sh": "shell",
    ".bash": "shell",
}
PROGRAM_LANGUAGES = {
    "python": "python",
    "pytest": "python",
    "pip": "python",
    "uv": "python",
    "mypy": "python",
    "ruff": "python",
    "node": "javascript",
    "npm": "javascript",
    "yarn": "javascript",
    "pnpm": "javascript",
    "bun": "javascript",
    "jest": "javascript",
    "vitest": "javascript",
    "tsc": "typescript",
    "deno": "typescript",
    "cargo": "rust",
    "rustc": "rust",
    "go": "go",
    "mvn": "java",
    "gradle": "java",
    "ruby": "ruby",
    "bundle": "ruby",
    "rake": "ruby",
}


def run_outcome(call: ToolCall) -> Literal["failed", "passed"] | None:
    """How a shell run went: "failed" (exit status or output shows it), "passed", or None
    (not a run worth judging, no result, or a call the user refused)."""
    if call.name not in RUN_TOOLS or call.result is None or not command_key(call.command):
        return None
    output = call.result.output
    if call.result.is_error:
        return None if _REJECTED.search(output[:500]) else "failed"
    return "failed" if _FAILURE.search(output) else "passed"


def is_failure(call: ToolCall) -> bool:
    return run_outcome(call) == "failed"


def key_error_lines(output: str, limit: int = 3) -> list[str]:
    """The lines that state the error: the raised exception, pytest's `E` lines, compiler
    errors, FAILED summaries, npm's messages; `Exit code N` only when nothing else."""
    found: list[tuple[int, int, str]] = []
    for position, line in enumerate(output.splitlines()):
        for priority, pattern in _KEY_LINES:
            match = pattern.match(line)
            if match:
                text = " ".join(match.group(1).split())[:300]
                # The last exception of a traceback is the one raised: rank later ones first.
                order = -position if priority == 0 else position
                found.append((priority, order, text))
                break
    lines: list[str] = []
    for _, _, text in sorted(found):
        if text not in lines and not any(text in seen for seen in lines):
            lines.append(text)
        if len(lines) == limit:
            break
    if len(lines) > 1:
        lines = [line for line in lines if not line.startswith("Exit code ")]
    return lines


def error_type_of(output: str, lines: list[str]) -> str | None:
    """An error name or code: ERR_REQUIRE_ESM, E0463, TS2307, ERESOLVE, TypeError ..."""
    for pattern in (_NODE_CODE, _COMPILER_CODE, _NPM_CODE):
        match = pattern.search(output)
        if match:
            return next(g for g in match.groups() if g) if match.groups() else match.group(0)
    for line in lines:
        match = _EXCEPTION.search(line)
        if match:
            return match.group(1)
    if "command not found" in output:
        return "command not found"
    return None


def libraries_of(output: str) -> list[str]:
    names: list[str] = []
    for pattern in _LIBRARY_PATTERNS:
        for match in pattern.finditer(output):
            name = match.group(1)
            if name not in names and not name.startswith("."):
                names.append(name)
    return names[:5]


def relative_path(path: str, cwd: str | None) -> str:
    """`path` relative to the session's working directory when it lies inside it."""
    if cwd:
        root = cwd.rstrip("/\\")
        for sep in ("/", "\\"):
            if path.startswith(root + sep):
                return path[len(root) + 1 :]
    return path


def path_of(call: ToolCall) -> str | None:
    for key in ("file_path", "notebook_path", "path"):
        value = call.input.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def _diff(old: str, new: str, rel: str, header: bool) -> list[str]:
    lines = list(
        difflib.unified_diff(
            old.splitlines(), new.splitlines(), f"a/{rel}", f"b/{rel}", lineterm="", n=3
        )
    )
    if not header:
        lines = lines[2:]
    # The Edit tool sees snippets, not whole files: hunk line numbers would mislead.
    return [_HUNK_HEADER.sub("@@", line) for line in lines]


def edit_diff(call: ToolCall, cwd: str | None) -> str:
    """A unified-style diff of one edit (or the head of a written file)."""
    path = path_of(call) or "unknown"
    rel = relative_path(path, cwd)
    data = call.input
    if call.name == "Write":
        content = data.get("content")
        body = content if isinstance(content, str) else ""
        shown = body.splitlines()[:60]
        more = ["+[...]"] if len(body.splitlines()) > 60 else []
        return "\n".join([f"+++ b/{rel} (written)", *(f"+{line}" for line in shown), *more])
    pairs: list[tuple[str, str]] = []
    if call.name == "MultiEdit" and isinstance(data.get("edits"), list):
        for edit in data["edits"]:
            if isinstance(edit, dict):
                pairs.append((str(edit.get("old_string", "")), str(edit.get("new_string", ""))))
    elif call.name == "NotebookEdit":
        pairs.append(("", str(data.get("new_source", ""))))
    else:
        pairs.append((str(data.get("old_string", "")), str(data.get("new_string", ""))))
    out: list[str] = []
    for old, new in pairs:
        out.extend(_diff(old, new, rel, header=not out))
    return "\n".join(out)


def language_of(edited: list[str], program: str) -> str | None:
    for path in edited:
        language = EXTENSION_LANGUAGES.get(Path(path).suffix.lower())
        if language:
            return language
    return PROGRAM_LANGUAGES.get(program)


# --- commands ---------------------------------------------------------------------------

_OPERATORS = frozenset({"&&", "||", ";", "|", "&", ";;", "|&", "(", ")"})
_SETUP = frozenset(
    {"cd", "pushd", "popd", "source", ".", "export", "set", "unset", "echo", "clear", "true"}
)
_WRAPPERS = frozenset({"sudo", "time", "env", "nice", "nohup", "exec", "command", "stdbuf"})
_RUN_WRAPPERS = frozenset({"uv", "poetry", "pipenv", "pdm", "hatch", "rye", "conda"})
_EXEC_WRAPPERS = frozenset({"npx", "bunx", "pnpx"})
_PACKAGE_MANAGERS = frozenset({"npm", "yarn", "pnpm", "bun"})
#: Commands whose failure says nothing worth remembering (a grep without a match ...).
IGNORED_PROGRAMS = frozenset(
    """
    grep egrep fgrep rg ag ack find fd ls cat head tail less wc which type whereis printf
    pwd test [ diff cmp file stat du df sleep false kill pkill ps tree mkdir rm cp mv touch
    chmod sed awk jq curl wget sort uniq xargs
    """.split()
)
_REDIRECT = re.compile(r"(?<!\S)\d*(?:&>>?|>>?|<)(?:&\d+|[ \t]*[^\s&|;]+)")
_ENV_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*")
_PYTHON = re.compile(r"python(?:\d+(?:\.\d+)*)?(?:\.exe)?")
_INSTALL = re.compile(
    r"\b(?:pip3?|uv pip|python3? -m pip) install\b|\b(?:uv|poetry|pdm|yarn|pnpm|bun|cargo) add\b"
    r"|\bnpm (?:i|install|ci|add)\b|\b(?:pnpm|yarn|bundle|go mod) (?:install|tidy)\b"
    r"|\bgo get\b|\b(?:apt(?:-get)?|brew|gem|conda|dnf|yum|apk) (?:install|add)\b"
)


def _tokens(command: str) -> list[str]:
    command = _REDIRECT.sub(" ", command.replace("\n", " ; "))
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        return list(lexer)
    except ValueError:  # unbalanced quotes
        return command.split()


def _segments(command: str) -> list[list[str]]:
    segments: list[list[str]] = [[]]
    for token in _tokens(command):
        if token in _OPERATORS:
            segments.append([])
        elif not set(token) <= set("<>&|;()"):
            segments[-1].append(token)
    return [s for s in segments if s]


def _peel(tokens: list[str]) -> list[str]:
    """Drop `VAR=1` and wrappers (`sudo`, `timeout 60`, `uv run`, `npx`)."""
    i = 0
    while i < len(tokens):
        token = tokens[i]
        name = program_name(token)
        if _ENV_ASSIGNMENT.fullmatch(token) or name in _WRAPPERS:
            i += 1
        elif name == "timeout":
            i += 1
            while i < len(tokens) and tokens[i].startswith("-"):
                i += 1
            i += 1  # the duration
        elif name in _RUN_WRAPPERS and i + 1 < len(tokens) and tokens[i + 1] == "run":
            i += 2
            while i < len(tokens) and tokens[i].startswith("-"):
                i += 1
        elif name in _EXEC_WRAPPERS or (
            name in ("pnpm", "yarn", "bun") and i + 1 < len(tokens) and tokens[i + 1] == "exec"
        ):
            i += 1 if name in _EXEC_WRAPPERS else 2
            while i < len(tokens) and tokens[i].startswith("-"):
                i += 1
        else:
            break
    return tokens[i:]


def program_name(token: str) -> str:
    """`/usr/bin/python3.11` -> `python`, `./node_modules/.bin/jest` -> `jest`."""
    name = token.replace("\\", "/").rsplit("/", 1)[-1]
    if _PYTHON.fullmatch(name):
        return "python"
    return name.removesuffix(".exe")


def command_key(command: str) -> tuple[str, ...]:
    """What makes two shell runs "the same run": program and sub-command, or () when the
    command runs nothing worth remembering."""
    for segment in _segments(command):
        tokens = _peel(segment)
        if not tokens:
            continue
        program = program_name(tokens[0])
        if program in _SETUP or tokens[0].endswith("/activate"):
            continue
        if program in IGNORED_PROGRAMS:
            continue
        args = tokens[1:]
        if program == "python" and len(args) >= 2 and args[0] == "-m":
            program, args = program_name(args[1]), args[2:]
        if program in ("pytest", "py.test"):
            return ("pytest",)
        positional = [a for a in args if not a.startswith("-")]
        if program in _PACKAGE_MANAGERS and positional[:1] in (["run"], ["run-script"]):
            positional = positional[1:]
        if program == "python" and args[:1] == ["-c"]:
            return ("python", "-c", " ".join(args[1:]))
        return (program, positional[0]) if positional else (program,)
    return ()


def is_install(command: str) -> bool:
    """Whether a command installs packages (a fix that is not an edit)."""
    return bool(_INSTALL.search(" ".join(command.split())))


def one_line(command: str, limit: int = 300) -> str:
    text = " ".join(command.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
