"""What a shell command is: its program, action and targets once wrappers, setup and
redirections are peeled off, whether a later command re-runs it, and whether it only looks
at things, installs something, or fails in a way worth remembering.

Shared by the live Claude Code hook and session mining (see `ctxhub.memory.capture.tool_runs`,
which reads their output). Standard library only: the hook imports this on every call.
"""

from __future__ import annotations

import re
import shlex
import zlib
from functools import lru_cache
from typing import NamedTuple

from ctxhub.memory.capture.tool_runs import MAX_LINE, compiled

_OPERATORS = frozenset({"&&", "||", ";", "|", "&", ";;", "|&", "(", ")"})
_SETUP = frozenset({"cd", "pushd", "popd", "source", ".", "export", "set", "unset", "alias"})
_WRAPPERS = frozenset("sudo time env nice nohup exec command stdbuf xargs".split())
_RUN_WRAPPERS = frozenset({"uv", "poetry", "pipenv", "pdm", "hatch", "rye", "conda"})
_EXEC_WRAPPERS = frozenset({"npx", "bunx", "pnpx"})
_EXEC_WORDS = {"pnpm": ("exec", "dlx"), "yarn": ("exec", "dlx"), "bun": ("x", "exec"),
               "npm": ("exec",), "bundle": ("exec",)}  # fmt: skip
#: Options of `uv run`, `conda run`, `npx` ... that take a value (`uv run --with x pytest`).
_VALUE_OPTIONS = frozenset(
    {"--with", "--python", "-p", "--project", "--directory", "--package", "--extra",
     "--group", "--env-file", "-n", "--name", "--prefix", "--from", "--index"}
)  # fmt: skip
_WRAPPER_VALUES = frozenset({"-n", "-u", "-s", "-k", "--signal", "--kill-after", "-o", "-e"})
_PACKAGE_MANAGERS = frozenset({"npm", "yarn", "pnpm", "bun"})
#: Programs whose arguments are all targets, so a narrower or wider run is the same run.
_TARGET_RUNNERS = frozenset(
    {"pytest", "jest", "vitest", "mocha", "mypy", "pyright", "tsc", "eslint", "flake8",
     "pylint", "rspec", "phpunit", "unittest", "nose2"}
)  # fmt: skip
#: Programs that only look at things: their "failures" (grep's exit 1) are no errors and
#: running them is no step towards a fix. `sed -i` and `find -delete` change files.
READ_ONLY = frozenset(
    """
    cat head tail less more grep egrep fgrep rg ag ack find fd ls tree echo printf wc which
    type whereis file stat pwd diff cmp jq man sort uniq awk sed test [ true false sleep
    date whoami printenv du df ps top history readlink realpath basename dirname clear exit
    """.split()
)
_GIT_READ_ONLY = frozenset(
    {"log", "show", "diff", "status", "grep", "blame", "branch", "remote", "rev-parse",
     "ls-files", "describe", "reflog", "shortlog", "config"}
)  # fmt: skip
#: Programs that change things but whose failure is no problem worth remembering
#: (`rm` of a missing file, `mkdir` of an existing one, a download that timed out).
QUIET_FAILURES = frozenset(
    "mkdir rm rmdir cp mv touch chmod chown ln kill pkill killall curl wget sed awk find".split()
)
_HEREDOC = re.compile(
    r"<<-?[ \t]*(['\"]?)([A-Za-z_][\w.-]*)\1([^\n]*)\n(.*?)(?:^[ \t]*\2[ \t]*$|\Z)",
    re.DOTALL | re.MULTILINE,
)
_REDIRECT = re.compile(r"(?<!\S)\d*(?:&>>?|>>?|<)(?:&\d+|[ \t]*[^\s&|;]+)")
_WRITE_OPERATORS = frozenset({">", ">>", "&>", "&>>", ">|"})
_ENV_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*")
_PYTHON = re.compile(r"python(?:\d+(?:\.\d+)*)?|py")
_PIP = re.compile(r"pip\d*(?:\.\d+)*")
_INSTALL = (
    r"\b(?:pip3?|uv pip|python3? -m pip) install\b|\b(?:uv|poetry|pdm|yarn|pnpm|bun|cargo) add\b"
    r"|\bnpm (?:i|install|ci|add)\b|\b(?:pnpm|yarn|bundle|go mod|poetry|pipenv|pdm) install\b"
    r"|\b(?:go mod tidy|go get|uv sync|pdm sync)\b"
    r"|\b(?:apt(?:-get)?|brew|gem|conda|mamba|dnf|yum|apk) (?:install|add)\b"
)


class Signature(NamedTuple):
    """What a command line runs: `program` ("" for setup and looking only), its `action`
    (the sub-command or script: `npm test`, `cargo build`, `python x.py`; "" for test
    runners, whose arguments are all targets) and its other non-option `args`."""

    program: str
    action: str
    args: frozenset[str]


def program_name(token: str) -> str:
    """`/usr/bin/python3.11` -> `python`, `./node_modules/.bin/jest` -> `jest`."""
    name = token.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".exe")
    if _PYTHON.fullmatch(name):
        return "python"
    if _PIP.fullmatch(name):
        return "pip"
    return "pytest" if name == "py.test" else name


def _heredoc(match: re.Match[str]) -> str:
    # The body is the script, not commands: keep a digest, so another script differs.
    return f"{match.group(3)} heredoc:{zlib.crc32(match.group(4).encode()):08x}"


def _tokens(text: str, *, redirects: bool = True) -> list[str]:
    """Shell words and operators (quotes honoured, heredoc bodies replaced by a digest)."""
    text = _HEREDOC.sub(_heredoc, text)
    text = (text if redirects else _REDIRECT.sub(" ", text)).replace("\n", " ; ")
    try:
        lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        return list(lexer)
    except ValueError:  # unbalanced quotes
        return text.split()


def _segments(command: str) -> list[list[str]]:
    """The simple commands of a command line, as words, redirections dropped."""
    segments: list[list[str]] = [[]]
    for token in _tokens(command, redirects=False):
        if token in _OPERATORS:
            segments.append([])
        elif not set(token) <= set("<>&|;()"):
            segments[-1].append(token)
    return [s for s in segments if s]


def _skip_options(tokens: list[str], i: int, values: frozenset[str] = _VALUE_OPTIONS) -> int:
    """The index after the options at `i` (and the values of those in `values`)."""
    while i < len(tokens) and tokens[i].startswith("-"):
        i += 2 if tokens[i] in values else 1
    return i


def _peel(tokens: list[str]) -> list[str]:
    """Drop `VAR=1` and wrappers: `sudo -E`, `nice -n 5`, `timeout -s KILL 60`, `uv run
    --with x`, `npx -y`, `pnpm exec`."""
    i = 0
    while i < len(tokens):
        name = program_name(tokens[i])
        following = tokens[i + 1] if i + 1 < len(tokens) else ""
        if _ENV_ASSIGNMENT.fullmatch(tokens[i]):
            i += 1
        elif name in _WRAPPERS:
            i = _skip_options(tokens, i + 1, _WRAPPER_VALUES)
        elif name == "timeout":  # timeout [-s SIG] [-k T] DURATION cmd
            i = _skip_options(tokens, i + 1, _WRAPPER_VALUES) + 1
        elif name in _RUN_WRAPPERS and following == "run":
            i = _skip_options(tokens, i + 2)
        elif name in _EXEC_WRAPPERS:
            i = _skip_options(tokens, i + 1)
        elif following in _EXEC_WORDS.get(name, ()):
            i = _skip_options(tokens, i + 2)
        else:
            break
    return tokens[i:]


def _read_only(program: str, args: list[str]) -> bool:
    if program == "git":  # git [-C dir] [-c k=v] SUBCOMMAND
        i = 0
        while i < len(args) and args[i].startswith("-"):
            i += 2 if args[i] in ("-C", "-c", "--git-dir", "--work-tree") else 1
        return i >= len(args) or args[i] in _GIT_READ_ONLY
    if program == "sed":
        return not any(re.match(r"-[A-Za-z]*i|--in-place", a) for a in args)
    if program == "find":
        return not {"-delete", "-exec", "-execdir", "-ok", "-okdir"} & set(args)
    return program in READ_ONLY


@lru_cache(maxsize=256)
def command_signature(command: str) -> Signature:
    """The signature of the first simple command that does something worth judging:
    setup (`cd x &&`, `source .venv/bin/activate`), looking (`ls;`, `| tail`) and quiet
    programs (`mkdir -p b &&`) are passed over, wrappers and `python -m` peeled off.

    `cd app && FOO=1 uv run python -m pytest tests/test_x.py::test_y -q 2>&1 | tail`
    -> ("pytest", "", {"tests/test_x.py"}).
    """
    quiet: Signature | None = None
    for segment in _segments(command):
        tokens = _peel(segment)
        if not tokens:
            continue
        program, args = program_name(tokens[0]), tokens[1:]
        if program in _SETUP or tokens[0].endswith("/activate") or _read_only(program, args):
            continue
        if program == "python" and len(args) >= 2 and args[0] == "-m":
            program, args = program_name(args[1]), args[2:]
        positional = [a.split("::", 1)[0].strip("'\"") for a in args if not a.startswith("-")]
        if program in _PACKAGE_MANAGERS and positional[:1] in (["run"], ["run-script"]):
            positional = positional[1:]
        if program in _TARGET_RUNNERS or not positional:
            signature = Signature(program, "", frozenset(positional))
        else:
            signature = Signature(program, positional[0], frozenset(positional[1:]))
        if program not in QUIET_FAILURES:
            return signature
        quiet = quiet or signature
    return quiet or Signature("", "", frozenset())


def similar_commands(a: str, b: str) -> bool:
    """Whether `b` re-runs `a`: the same program and action on the same, a narrower or a
    wider target (`pytest tests/a.py` and `pytest`), not another sub-command or script."""
    if " ".join(a.split()) == " ".join(b.split()):
        return True
    sig_a, sig_b = command_signature(a), command_signature(b)
    if not sig_a.program or (sig_a.program, sig_a.action) != (sig_b.program, sig_b.action):
        return False
    x, y = sig_a.args, sig_b.args
    return _covers(x, y) or _covers(y, x) or len(x & y) / len(x | y) >= 0.5


def _under(target: str, scope: str) -> bool:
    """Whether `target` lies in `scope`: the same, a file in that folder, or within Go's
    `./...` / `./pkg/...` patterns (`./x` and `x` are one path)."""
    target, scope = target.removeprefix("./"), scope.removeprefix("./")
    if scope in (".", "..."):
        return True
    base = scope.removesuffix("/...").rstrip("/")
    return target in (scope, base) or target.startswith(base + "/")


def _covers(wide: frozenset[str], narrow: frozenset[str]) -> bool:
    """Whether a run on `wide` includes a run on `narrow` (no targets: everything)."""
    return not wide or all(any(_under(t, s) for s in wide) for t in narrow)


def only_inspects(command: str) -> bool:
    """Whether a command only looks at things (`grep`, `git log`, `cd x && ls`): never a
    failure, never a step. Writing a file (`cat > f <<EOF`, `echo x >> .env`) is a step."""
    if command_signature(command).program:
        return False
    tokens = _tokens(command)
    return not any(
        token in _WRITE_OPERATORS and not following.startswith(("/dev/", "&"))
        for token, following in zip(tokens, [*tokens[1:], ""], strict=True)
    )


def failure_worth_keeping(command: str) -> bool:
    """Whether a failure of this command is a problem to remember (not `grep`, `rm`, `curl`)."""
    program = command_signature(command).program
    return bool(program) and program not in QUIET_FAILURES


def is_install(command: str) -> bool:
    """Whether a command installs packages (a fix that is not an edit)."""
    return bool(compiled(_INSTALL).search(" ".join(command.split())))


def one_line(command: str, limit: int = MAX_LINE) -> str:
    text = " ".join(command.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def shown_command(command: str, cwd: str | None) -> str:
    """The command on one line, without a leading `cd <session cwd> &&`."""
    text = one_line(command)
    if cwd:
        for prefix in (f"cd {cwd} && ", f'cd "{cwd}" && ', f"cd {cwd}; "):
            if text.startswith(prefix):
                return text[len(prefix) :]
    return text
