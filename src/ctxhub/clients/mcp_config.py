"""MCP client set-up: the configuration entry each client needs to start `ctxhub serve`,
and where it lives. Existing files are merged into, never replaced: other servers and
settings stay as they are.

Formats (checked against each client's documentation):
- Claude Code: `claude mcp add --scope user|project NAME [--env K=V ...] -- CMD ARGS`
  (the name before `--env`: that option takes every value up to the next option, so a
  name after it would be read as one more variable); project scope is `.mcp.json` at the
  project root, `{"mcpServers": {NAME: {"type": "stdio", ...}}}`.

Project-scope files are committed and shared, so their entry is portable: `ctxhub serve`
found on PATH, with no per-user settings (CTXHUB_HOME, CTXHUB_DB); user scope carries this
interpreter's absolute path and those settings.
- Cursor: `.cursor/mcp.json` or `~/.cursor/mcp.json`, `{"mcpServers": {NAME: {...}}}`.
- VS Code: `.vscode/mcp.json` or the user profile's `mcp.json`,
  `{"servers": {NAME: {"type": "stdio", ...}}}`.
- Zed: `.zed/settings.json` or `~/.config/zed/settings.json` (JSON with comments),
  `{"context_servers": {NAME: {"source": "custom", "command": ..., "args": [...]}}}`.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ctxhub.core.errors import InstallError

Client = Literal["claude-code", "cursor", "vscode", "zed"]
Scope = Literal["user", "project"]
CLIENTS: tuple[Client, ...] = ("claude-code", "cursor", "vscode", "zed")


@dataclass
class InstallPlan:
    client: Client
    scope: Scope
    name: str
    command: str
    args: list[str]
    env: dict[str, str] = field(default_factory=dict)
    path: Path | None = None  # the file to write; None: a command to run instead
    key: str = "mcpServers"  # the top-level object holding servers
    entry: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # what the user should know

    @property
    def fragment(self) -> dict[str, Any]:
        return {self.key: {self.name: self.entry}}

    def claude_command(self) -> str:
        parts = ["claude", "mcp", "add", "--scope", self.scope, self.name]
        for key, value in sorted(self.env.items()):
            parts += ["--env", f"{key}={value}"]
        parts += ["--", self.command, *self.args]
        return shlex.join(parts)


def server_command() -> tuple[str, list[str]]:
    """This interpreter's `ctxhub serve`: the console script beside it, else `-m ctxhub`."""
    bindir = Path(sys.executable).parent
    for name in ("ctxhub", "ctxhub.exe"):
        script = bindir / name
        if script.is_file() and os.access(script, os.X_OK):
            return str(script.absolute()), ["serve"]
    return str(Path(sys.executable).absolute()), ["-m", "ctxhub", "serve"]


#: What a committed, shared config file starts: the `ctxhub` each developer has on PATH.
PORTABLE_COMMAND: tuple[str, list[str]] = ("ctxhub", ["serve"])


def portable_notes(environ: dict[str, str] | None = None, on_path: bool | None = None) -> list[str]:
    """What a portable (project-scope) entry leaves to each developer."""
    env = server_env(environ)
    found = shutil.which("ctxhub") is not None if on_path is None else on_path
    notes = []
    if env:
        names = ", ".join(sorted(env))
        notes.append(
            f"{names} not written: a shared file holds no per-user settings (set them in "
            "the environment the client starts from, or use --user)"
        )
    if not found:
        notes.append(
            "`ctxhub` is not on PATH here, and the client runs it by that name: install it "
            "with pipx or `uv tool`, or use --user for an absolute path"
        )
    return notes


def server_env(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The ctxhub settings of this shell that the server must share (same index)."""
    environ = dict(os.environ) if environ is None else environ
    keep = ("CTXHUB_HOME", "CTXHUB_DB")
    return {k: str(Path(environ[k]).expanduser().absolute()) for k in keep if environ.get(k)}


def _config_home(home: Path) -> Path:
    xdg = os.environ.get("XDG_CONFIG_HOME")
    return Path(xdg) if xdg else home / ".config"


def _user_path(client: Client, home: Path) -> Path:
    if client == "cursor":
        return home / ".cursor" / "mcp.json"
    appdata = os.environ.get("APPDATA")
    if client == "vscode":
        if sys.platform == "darwin":
            return home / "Library" / "Application Support" / "Code" / "User" / "mcp.json"
        if sys.platform == "win32" and appdata:
            return Path(appdata) / "Code" / "User" / "mcp.json"
        return _config_home(home) / "Code" / "User" / "mcp.json"
    if client == "zed":
        if sys.platform == "win32" and appdata:
            return Path(appdata) / "Zed" / "settings.json"
        return _config_home(home) / "zed" / "settings.json"
    raise ValueError(f"{client} has no user-level config file ctxhub writes")


def plan_install(
    client: Client,
    scope: Scope = "user",
    *,
    name: str = "ctxhub",
    project: Path | None = None,
    home: Path | None = None,
    command: tuple[str, list[str]] | None = None,
    env: dict[str, str] | None = None,
) -> InstallPlan:
    notes: list[str] = []
    if scope == "project":  # a shared file: portable, no per-user settings
        if command is None and env is None:
            notes = portable_notes()
        exe, args = command or PORTABLE_COMMAND
        env = {} if env is None else env
    else:
        exe, args = command or server_command()
        env = server_env() if env is None else env
    project = (project or Path.cwd()).absolute()
    home = home or Path.home()
    plan = InstallPlan(client, scope, name, exe, list(args), dict(env), notes=notes)
    stdio: dict[str, Any] = {"command": exe, "args": list(args), "env": dict(env)}
    if client == "claude-code":
        # User scope lives in Claude Code's own state file: let `claude mcp add` edit it.
        plan.path = project / ".mcp.json" if scope == "project" else None
        plan.entry = {"type": "stdio", **stdio}
    elif client == "cursor":
        plan.path = project / ".cursor" / "mcp.json" if scope == "project" else None
        plan.entry = stdio
    elif client == "vscode":
        plan.path = project / ".vscode" / "mcp.json" if scope == "project" else None
        plan.key, plan.entry = "servers", {"type": "stdio", **stdio}
    elif client == "zed":
        plan.path = project / ".zed" / "settings.json" if scope == "project" else None
        # "source": "custom" is required by older Zed releases and ignored by newer ones.
        plan.key, plan.entry = "context_servers", {"source": "custom", **stdio}
    else:
        raise ValueError(f"unknown client {client!r}; one of {', '.join(CLIENTS)}")
    if plan.path is None and client != "claude-code":
        plan.path = _user_path(client, home)
    return plan


def strip_jsonc(text: str) -> str:
    """JSON with comments and trailing commas (Zed, VS Code) -> plain JSON."""
    out: list[str] = []
    i, n = 0, len(text)
    in_string = False
    while i < n:
        ch = text[i]
        if in_string:
            out.append(ch)
            if ch == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
            out.append(ch)
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        elif ch in "}]":
            # drop a trailing comma before a closing bracket
            j = len(out) - 1
            while j >= 0 and out[j].isspace():
                j -= 1
            if j >= 0 and out[j] == ",":
                del out[j]
            out.append(ch)
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def _read_config(path: Path) -> tuple[dict[str, Any], bool]:
    """The file's object, and whether it had comments (which rewriting drops)."""
    if not path.is_file():
        return {}, False
    text = path.read_text(encoding="utf-8")
    if not text.strip():
        return {}, False
    plain = strip_jsonc(text)
    try:
        data = json.loads(plain)
    except json.JSONDecodeError as exc:
        raise InstallError(f"{path} is not valid JSON ({exc}); fix it or add this by hand") from exc
    if not isinstance(data, dict):
        raise InstallError(f"{path} does not hold a JSON object")
    return data, plain != text


def apply_install(plan: InstallPlan) -> str:
    """Merge the plan's entry into its file; returns a one-line report."""
    if plan.path is None:
        raise InstallError(f"{plan.client} {plan.scope} scope is set up with a command")
    data, had_comments = _read_config(plan.path)
    servers = data.setdefault(plan.key, {})
    if not isinstance(servers, dict):
        raise InstallError(f"{plan.path}: {plan.key!r} is not an object")
    replaced = plan.name in servers
    servers[plan.name] = plan.entry
    plan.path.parent.mkdir(parents=True, exist_ok=True)
    note = ""
    if had_comments:
        backup = plan.path.with_name(plan.path.name + ".bak")
        shutil.copy2(plan.path, backup)
        note = f" (its comments could not be kept; the original is in {backup})"
    tmp = plan.path.with_name(plan.path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    tmp.replace(plan.path)
    verb = "updated" if replaced else "added"
    return f"{verb} MCP server {plan.name!r} in {plan.path}{note}"


def describe(plan: InstallPlan) -> str:
    """What `--print` shows: the file and the JSON to merge, or the command to run."""
    notes = [f"# note: {n}" for n in plan.notes]
    if plan.client == "claude-code":
        lines = [f"# Claude Code ({plan.scope} scope): run", plan.claude_command()]
        if plan.path is not None:
            lines += [f"# or merge into {plan.path}:", json.dumps(plan.fragment, indent=2)]
        return "\n".join([*lines, *notes])
    head = f"# {plan.client} ({plan.scope} scope): merge into {plan.path}"
    return "\n".join([head, json.dumps(plan.fragment, indent=2), *notes])
