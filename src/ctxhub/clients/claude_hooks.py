"""Claude Code hook set-up: `ctxhub hook post-tool-use` on PostToolUse and
PostToolUseFailure, in the user's (`~/.claude/settings.json`) or the project's
(`.claude/settings.json`) settings.

The settings file is merged into, never replaced: other hooks and settings stay as they
are. Our entry is recognised by its command (`... ctxhub hook post-tool-use`, whatever
interpreter path or CTXHUB_HOME it carries), so installing twice leaves one entry,
re-installing from another environment replaces it, and removing takes out only ours.

Settings shape (Claude Code hooks reference):
`{"hooks": {"PostToolUse": [{"matcher": "Bash|Edit|Write|MultiEdit|NotebookEdit",
"hooks": [{"type": "command", "command": "...", "timeout": 10}]}]}}`.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shlex
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ctxhub.clients.mcp_config import (
    PORTABLE_COMMAND,
    Scope,
    _read_config,
    server_command,
    server_env,
)
from ctxhub.core.errors import InstallError

EVENTS: tuple[str, ...] = ("PostToolUse", "PostToolUseFailure")
#: Bash and every edit tool the hook takes a step from (`memory.hooks.EDIT_TOOLS`). An entry
#: of ours with an older matcher is rewritten by the next install.
MATCHER = "Bash|Edit|Write|MultiEdit|NotebookEdit"
TIMEOUT = 10  # seconds; the hook takes milliseconds, this only bounds a wedged one
#: `ctxhub hook post-tool-use` however it is spelled: a console script path, a quoted
#: path, `python -m ctxhub`, with or without an env prefix.
OURS = re.compile(r"(?:^|[\s/\\'\"])ctxhub(?:\.exe)?['\"]?\s+hook\s+post-tool-use(?:\s|$)")

Action = Literal["added", "updated", "unchanged", "removed", "absent"]


@dataclass
class HookPlan:
    scope: Scope
    path: Path
    command: str
    events: tuple[str, ...] = EVENTS
    matcher: str = MATCHER
    timeout: int = TIMEOUT

    @property
    def group(self) -> dict[str, Any]:
        """The matcher group for one event."""
        hook = {"type": "command", "command": self.command, "timeout": self.timeout}
        return {"matcher": self.matcher, "hooks": [hook]}

    @property
    def fragment(self) -> dict[str, Any]:
        return {"hooks": {event: [self.group] for event in self.events}}


def is_ours(command: object) -> bool:
    return isinstance(command, str) and bool(OURS.search(command))


def hook_command(
    command: tuple[str, list[str]] | None = None, environ: dict[str, str] | None = None
) -> str:
    """This interpreter's `ctxhub hook post-tool-use`, with CTXHUB_HOME when it is set
    (as an env prefix: Claude Code runs hook commands through a shell)."""
    exe, args = command or server_command()
    base = [a for a in args if a != "serve"]  # [] for the script, ["-m", "ctxhub"] else
    parts = [exe, *base, "hook", "post-tool-use"]
    env = server_env(dict(os.environ) if environ is None else environ)
    prefix = [f"CTXHUB_HOME={shlex.quote(env['CTXHUB_HOME'])}"] if "CTXHUB_HOME" in env else []
    return " ".join([*prefix, shlex.join(parts)])


def settings_path(scope: Scope, *, project: Path | None = None, home: Path | None = None) -> Path:
    if scope == "project":
        return (project or Path.cwd()).absolute() / ".claude" / "settings.json"
    config_dir = os.environ.get("CLAUDE_CONFIG_DIR")
    if config_dir and home is None:
        return Path(config_dir).expanduser() / "settings.json"
    return (home or Path.home()) / ".claude" / "settings.json"


def plan_hooks(
    scope: Scope = "user",
    *,
    project: Path | None = None,
    home: Path | None = None,
    command: str | None = None,
) -> HookPlan:
    path = settings_path(scope, project=project, home=home)
    if command is None and scope == "project":
        # .claude/settings.json is committed: the `ctxhub` on each developer's PATH, no
        # absolute path and no CTXHUB_HOME of this machine.
        command = shlex.join([PORTABLE_COMMAND[0], "hook", "post-tool-use"])
    return HookPlan(scope, path, command or hook_command())


def apply_hooks(plan: HookPlan) -> tuple[Action, str]:
    """Add (or update) our hook for every event of the plan; returns (action, report).

    A malformed settings file raises InstallError and is left as it is."""
    data, had_comments = _read_config(plan.path)
    merged = _placed(data, plan)
    if merged == data:
        return "unchanged", f"the ctxhub hook is already in {plan.path}"
    existed = _holds_ours(data, plan.events)
    note = _write(plan.path, merged, had_comments)
    action: Action = "updated" if existed else "added"
    events_text = " and ".join(plan.events)
    return action, f"{action} the ctxhub hook ({events_text}) in {plan.path}{note}"


def remove_hooks(plan: HookPlan) -> tuple[Action, str]:
    """Take out our hook entries (only ours) from every event of the plan."""
    if not plan.path.is_file():
        return "absent", f"no ctxhub hook to remove: {plan.path} does not exist"
    data, had_comments = _read_config(plan.path)
    events = data.get("hooks")
    if not isinstance(events, dict):
        return "absent", f"no ctxhub hook in {plan.path}"
    removed = 0
    for event in plan.events:
        groups = events.get(event)
        if not isinstance(groups, list):
            continue
        removed += _strip_ours(groups)
        if not groups:
            del events[event]
    if not removed:
        return "absent", f"no ctxhub hook in {plan.path}"
    if not events:
        del data["hooks"]
    note = _write(plan.path, data, had_comments)
    return "removed", f"removed the ctxhub hook from {plan.path}{note}"


def has_hook(path: Path, events: Sequence[str] | None = None) -> bool:
    """Whether the settings file at `path` holds our hook, under one of `events` (any
    event when None). A missing, unreadable or malformed file holds none."""
    try:
        data, _ = _read_config(path)
    except (OSError, ValueError, InstallError):
        return False
    return _holds_ours(data, events)


def describe_hooks(plan: HookPlan) -> str:
    return f"# Claude Code hooks ({plan.scope} scope): merge into {plan.path}\n" + json.dumps(
        plan.fragment, indent=2
    )


# ---------------------------------------------------------------- merging


def _hooks_object(data: dict[str, Any], path: Path) -> dict[str, Any]:
    events = data.setdefault("hooks", {})
    if not isinstance(events, dict):
        raise InstallError(f"{path}: 'hooks' is not an object; fix it or add the hook by hand")
    return events


def _event_list(events: dict[str, Any], event: str, path: Path) -> list[Any]:
    groups = events.setdefault(event, [])
    if not isinstance(groups, list):
        raise InstallError(f"{path}: hooks.{event} is not a list; fix it or add the hook by hand")
    return groups


def _placed(data: dict[str, Any], plan: HookPlan) -> dict[str, Any]:
    """`data` with our entry in each event: where the old one was, else appended."""
    data = copy.deepcopy(data)
    events = _hooks_object(data, plan.path)
    for event in plan.events:
        groups = _event_list(events, event, plan.path)
        index = _first_ours(groups)
        _strip_ours(groups)
        if index is None or index > len(groups):
            groups.append(plan.group)
        else:
            groups.insert(index, plan.group)
    return data


def _holds_ours(data: dict[str, Any], events: Sequence[str] | None) -> bool:
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return False
    names = list(hooks) if events is None else events
    return any(isinstance(hooks.get(e), list) and _first_ours(hooks[e]) is not None for e in names)


def _first_ours(groups: list[Any]) -> int | None:
    for i, group in enumerate(groups):
        if isinstance(group, dict) and any(_hook_is_ours(h) for h in _group_hooks(group)):
            return i
    return None


def _strip_ours(groups: list[Any]) -> int:
    """Remove our hooks from the groups (in place); a group left empty goes too."""
    removed = 0
    for group in list(groups):
        if not isinstance(group, dict):
            continue
        hooks = _group_hooks(group)
        kept = [h for h in hooks if not _hook_is_ours(h)]
        if len(kept) == len(hooks):
            continue
        removed += len(hooks) - len(kept)
        if kept:
            group["hooks"] = kept
        else:
            groups.remove(group)
    return removed


def _group_hooks(group: dict[str, Any]) -> list[Any]:
    hooks = group.get("hooks")
    return hooks if isinstance(hooks, list) else []


def _hook_is_ours(hook: object) -> bool:
    return isinstance(hook, dict) and is_ours(hook.get("command"))


def _write(path: Path, data: dict[str, Any], had_comments: bool) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    note = ""
    if had_comments:
        backup = path.with_name(path.name + ".bak")
        shutil.copy2(path, backup)
        note = f" (its comments could not be kept; the original is in {backup})"
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        if path.exists():
            shutil.copymode(path, tmp)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
    return note
