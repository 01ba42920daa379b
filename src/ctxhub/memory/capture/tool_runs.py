"""What an agent's tool calls say: did a shell run fail and why (its key error lines, error
type, libraries, stack trace), which language it is about, what an edit changed. Which
later run re-runs a command, and what a command is, is `ctxhub.memory.capture.shell_commands`.

One reading for the live Claude Code hook (`ctxhub.memory.capture.hooks`, one call at a time) and
for session mining (`ctxhub.memory.capture.sessions`, whole transcripts afterwards), so that both
judge a run the same way and a fix captured live reads like the same fix mined later. The
hook imports this on every tool call before anything else is loaded: standard library only,
and no more work at import than compiling a few patterns.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from functools import cache

EDIT_TOOLS = frozenset({"Edit", "MultiEdit", "Write", "NotebookEdit"})
MAX_LINE = 300  # characters of one quoted error line or shown command
WRITE_LINES = 60  # lines of a written file shown in its diff

# --------------------------------------------------------------------------- failures

#: Output that shows a failure even when the exit status does not (`pytest 2>&1 | tail`).
FAILURE_MARKERS = re.compile(
    r"Traceback \(most recent call last\)"
    r"|^(?:E\s+)?(?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*)?(?:Error|Exception)(?: \[[\w-]+\])?:(?:\s|$)"
    r"|^[ \t]+Error:\s|^(?:npm ERR!|npm error)\s"
    r"|^error(?:\[[\w-]+\])?:\s|\berror\[E\d+\]|\berror TS\d+:"
    r"|^(?:FAILED|FAIL:?|--- FAIL:)(?:\s|$)|::\S+ FAILED\b|\b(?:BUILD|[Tt]ests?) FAILED\b"
    r"|^=+ .*\b[1-9]\d* (?:failed|errors?)\b|^Exit code [1-9]\d*\s*$"
    r"|^(?:panic|fatal):\s|panicked at |Segmentation fault|: command not found$"
    r"|^make(?:\[\d+\])?: \*\*\* ",
    re.MULTILINE,
)
#: A tool error that records the user's refusal or interruption, not a failing command.
_REFUSAL = r"(?i)doesn't want to proceed|tool use was rejected|\[Request interrupted by user"


@cache
def compiled(pattern: str) -> re.Pattern[str]:
    """`pattern` compiled on first use: the hook's common call (a passing command, nothing
    open) reads no error, so it should not pay for compiling the patterns that do."""
    return re.compile(pattern)


def shows_failure(output: str) -> bool:
    """Whether output says a run failed (a traceback, `FAILED`, `npm ERR!`, `error[E…]` ...)."""
    return FAILURE_MARKERS.search(output) is not None


def is_refusal(error: str) -> bool:
    """Whether a tool error is the user saying no, which says nothing about the command."""
    return compiled(_REFUSAL).search(error[:500]) is not None


# --------------------------------------------------------------------------- errors

# (priority, pattern) of lines that state the error; lower priority wins. These patterns
# are compiled on first use (`_re`).
_KEY_LINES = (
    (0, r"^E\s{2,}(?!\[\s*\d+%\]$)(\S.*)$"),
    (0, r"^\s*((?:[\w]+\.)*(?:[A-Z]\w*)?(?:Error|Exception|Exit|Interrupt)"
        r"(?: \[[\w-]+\])?(?::\s.*)?)$"),
    (1, r"^\s*(error(?:\[E\d+\])?: .+)$"),
    (1, r"^.*?(\berror TS\d+: .+)$"),
    (1, r"^(\S+:\d+(?::\d+)?: (?:fatal )?error: .+)$"),  # gcc, clang, mypy
    (2, r"^((?:FAILED|FAIL|ERROR|--- FAIL:) .+)$"),
    (3, r"^(?:npm ERR!|npm error) ((?!A complete log)(?!\s*$).+)$"),
    (4, r"^(.*(?:command not found|panicked at|Segmentation fault).*)$"),
    (4, r"^((?:panic|fatal): .+)$"),
    (5, r"^(.*(?:No such file or directory|[Cc]annot |[Uu]nable to ).*)$"),
    (9, r"^(Exit code \d+)\s*$"),
)  # fmt: skip
_NODE_CODE = r"\b(ERR_[A-Z0-9_]{3,})\b"
_COMPILER_CODE = r"\berror\[(E\d{4})\]|\berror (TS\d+):"
_NPM_CODE = r"(?m)^(?:npm ERR!|npm error) code (E[A-Z0-9]+)\s*$"
_EXCEPTION = r"\b((?:[A-Z]\w*)?(?:Error|Exception)|[A-Z]\w*(?:Exit|Interrupt))\b"
_LIBRARIES = (
    r"No module named '([\w-]+)",
    r"Cannot find (?:module|package) '((?:@[\w.-]+/)?[\w.-]+)",
    r"node_modules/((?:@[\w.-]+/)?[\w.-]+)/",
    r"can't find crate for `([\w-]+)`",
)
_TRACEBACK = "Traceback (most recent call last)"
_RAISED = r"(?m)^(?:[\w]+\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt)\b.*$"


def key_error_lines(output: str, limit: int = 3) -> list[str]:
    """The lines that state the error: the raised exception first, pytest's `E` lines,
    compiler errors, FAILED summaries, npm's messages. When nothing says more than
    `Exit code N`, the last lines of the output follow it (they are all there is)."""
    found: list[tuple[int, int, str]] = []
    patterns = [(priority, compiled(pattern)) for priority, pattern in _KEY_LINES]
    for position, line in enumerate(output.splitlines()):
        for priority, pattern in patterns:
            match = pattern.match(line)
            if match:
                text = " ".join(match.group(1).split())[:MAX_LINE]
                # The last exception of a traceback is the one raised: rank later ones first.
                found.append((priority, -position if priority == 0 else position, text))
                break
    lines: list[str] = []
    for _, _, text in sorted(found):
        if not any(text in seen for seen in lines):
            lines.append(text)
        if len(lines) == limit:
            break
    if any(not line.startswith("Exit code ") for line in lines):
        return [line for line in lines if not line.startswith("Exit code ")]
    rest = [" ".join(s.split())[:MAX_LINE] for s in output.splitlines() if s.strip()]
    tail = [s for s in rest if not s.startswith("Exit code ")][-(limit - len(lines)) :]
    return (lines + tail)[:limit] if len(lines) < limit else lines


def error_type_of(output: str, lines: list[str]) -> str | None:
    """The error's name or code: ERR_REQUIRE_ESM, E0463, TS2307, KeyError, ERESOLVE ...
    A named exception beats npm's code (`ELIFECYCLE` only says a script failed), and a
    bare `Error` comes last."""
    for pattern in (_NODE_CODE, _COMPILER_CODE):
        match = compiled(pattern).search(output)
        if match:
            return next(g for g in match.groups() if g)[:200]
    raised = [
        m.group(0).split(":")[0].rsplit(".", 1)[-1] for m in compiled(_RAISED).finditer(output)
    ]
    names = [m.group(1) for line in lines for m in compiled(_EXCEPTION).finditer(line)]
    names += raised[::-1]  # the last one raised first
    specific = [n for n in names if n not in ("Error", "Exception")]
    npm = compiled(_NPM_CODE).search(output)
    best = specific[0] if specific else (npm.group(1) if npm else names[0] if names else None)
    if best is None and "command not found" in output:
        return "command not found"
    return best[:200] if best else None


def libraries_of(output: str) -> list[str]:
    """Packages an error names as missing or failing (`No module named 'yaml'`)."""
    names: list[str] = []
    for pattern in _LIBRARIES:
        for match in compiled(pattern).finditer(output):
            name = match.group(1)
            if name not in names and not name.startswith("."):
                names.append(name)
    return names[:5]


def stack_trace(output: str) -> str | None:
    """The last Python traceback through the exception it raised, or else the whole output:
    a compiler's or a test runner's report is the trace there is. Callers clip it."""
    start = output.rfind(_TRACEBACK)
    if start < 0:
        return output.strip() or None
    block = output[start:]
    raised = compiled(_RAISED).search(block)
    return (block[: raised.end()] if raised else block).strip() or None


def problem_text(shown: str, lines: list[str]) -> str:
    """`cmd` failed: the first key line, then the others, one a line."""
    head = f"`{shown}` failed" + (f": {lines[0]}" if lines else "")
    return "\n".join([head, *lines[1:]])


# --------------------------------------------------------------------------- languages

#: Code, by extension; labels are search filters, so "cpp" and "csharp", not "c++", "c#".
CODE_LANGUAGES = {
    ".py": "python", ".pyi": "python", ".ipynb": "python", ".js": "javascript",
    ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript", ".ts": "typescript",
    ".tsx": "typescript", ".mts": "typescript", ".rs": "rust", ".go": "go", ".java": "java",
    ".kt": "kotlin", ".kts": "kotlin", ".scala": "scala", ".rb": "ruby", ".php": "php",
    ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp",
    ".cs": "csharp", ".swift": "swift", ".m": "objective-c", ".sh": "shell", ".bash": "shell",
    ".zsh": "shell", ".ps1": "powershell", ".lua": "lua", ".r": "r", ".jl": "julia",
    ".dart": "dart", ".ex": "elixir", ".exs": "elixir", ".erl": "erlang", ".hs": "haskell",
    ".ml": "ocaml", ".clj": "clojure", ".sql": "sql", ".html": "html", ".css": "css",
    ".scss": "scss", ".vue": "vue", ".svelte": "svelte", ".tf": "terraform", ".zig": "zig",
    ".nim": "nim",
}  # fmt: skip
#: Config and data files: the program's language says more (`package.json` -> javascript).
CONFIG_LANGUAGES = {".toml": "toml", ".yaml": "yaml", ".yml": "yaml", ".json": "json"}
PROGRAM_LANGUAGES = {
    "python": "python", "pytest": "python", "pip": "python", "uv": "python", "mypy": "python",
    "ruff": "python", "tox": "python", "nox": "python", "poetry": "python", "pdm": "python",
    "cargo": "rust", "rustc": "rust", "go": "go", "node": "javascript", "npm": "javascript",
    "yarn": "javascript", "pnpm": "javascript", "bun": "javascript", "jest": "javascript",
    "vitest": "javascript", "mocha": "javascript", "tsc": "typescript", "deno": "typescript",
    "mvn": "java", "gradle": "java", "javac": "java", "ruby": "ruby", "bundle": "ruby",
    "rake": "ruby", "rspec": "ruby", "dotnet": "csharp", "swift": "swift", "mix": "elixir",
    "php": "php", "composer": "php",
}  # fmt: skip


def language_of(paths: list[str], program: str) -> str | None:
    """The language of a fix: the first edited code file's, else the failing program's,
    else the first edited config file's."""
    extensions = [os.path.splitext(p)[1].lower() for p in paths]
    code = [CODE_LANGUAGES[e] for e in extensions if e in CODE_LANGUAGES]
    config = [CONFIG_LANGUAGES[e] for e in extensions if e in CONFIG_LANGUAGES]
    if code:
        return code[0]
    return PROGRAM_LANGUAGES.get(program) or (config[0] if config else None)


# --------------------------------------------------------------------------- edits


def relative_path(path: str, cwd: str | None) -> str:
    """`path` relative to the session's working directory when it lies inside it, with `/`."""
    if cwd:
        root = cwd.rstrip("/\\")
        for sep in ("/", "\\"):
            if path.startswith(root + sep):
                return path[len(root) + 1 :].replace("\\", "/")
    return path


def edited_path(tool: str, tool_input: Mapping[str, object]) -> str | None:
    """The file an edit tool call names (`notebook_path` for NotebookEdit)."""
    value = tool_input.get("notebook_path" if tool == "NotebookEdit" else "file_path")
    return value if isinstance(value, str) and value else None


def edit_pairs(tool: str, tool_input: Mapping[str, object]) -> list[tuple[str, str]]:
    """(old, new) texts of an edit tool call; a Write or a notebook cell has no old text.
    Values that are not strings count as empty."""

    def text(value: object) -> str:
        return value if isinstance(value, str) else ""

    if tool in ("Write", "NotebookEdit"):
        if tool == "NotebookEdit" and tool_input.get("edit_mode") == "delete":
            return []
        return [("", text(tool_input.get("content" if tool == "Write" else "new_source")))]
    edits = tool_input.get("edits") if tool == "MultiEdit" else [tool_input]
    return [
        (text(e.get("old_string")), text(e.get("new_string")))
        for e in (edits if isinstance(edits, list) else [])
        if isinstance(e, dict)
    ]


def edit_diff(path: str, pairs: list[tuple[str, str]], *, written: bool = False) -> str:
    """A unified-style diff of one edit call: one file header, then its hunks. Hunks carry
    no line numbers (the edit tools see snippets, not files); a written file shows its
    first lines as added."""
    import difflib  # only when a record is built

    if written:
        body = pairs[0][1] if pairs else ""
        shown = body.splitlines()
        more = ["+[...]"] if len(shown) > WRITE_LINES else []
        return "\n".join(
            [f"+++ b/{path} (written)", *(f"+{x}" for x in shown[:WRITE_LINES]), *more]
        )
    out: list[str] = []
    for old, new in pairs:
        diff = difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="")
        lines = [compiled(r"^@@ .* @@$").sub("@@", line) for line in diff][2:]
        out.extend([f"--- a/{path}", f"+++ b/{path}", *lines] if lines and not out else lines)
    return "\n".join(out)


def join_diffs(diffs: list[str], limit: int) -> str:
    """The diffs of a fix within `limit` characters: whole diffs, the latest kept (the ones
    right before the passing run) and the number of earlier ones left out said."""
    chunks = [d for d in diffs if d]
    kept = len(chunks)
    while kept and sum(len(d) + 1 for d in chunks[-kept:]) > limit - (
        60 if kept < len(chunks) else 0
    ):
        kept -= 1
    if not kept:
        return chunks[-1][: limit - 20] + "\n[... diff cut ...]" if chunks else ""
    left_out = (
        [f"[... {len(chunks) - kept} earlier edits left out ...]"] if kept < len(chunks) else []
    )
    return "\n".join(left_out + chunks[-kept:])
