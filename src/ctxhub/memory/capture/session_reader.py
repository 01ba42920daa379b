"""Read Claude Code transcripts (`~/.claude/projects/<project>/<session>.jsonl`).

One JSON object per line: `type` ("user", "assistant", "summary", "system", ...),
`sessionId`, `uuid`, `timestamp`, `cwd`, `gitBranch` and a `message` whose `content` is a
string or a list of parts. Assistant parts are `text`, `thinking` and `tool_use`
(`id`, `name`, `input`); user lines carry `tool_result` parts (`tool_use_id`, `content`,
`is_error`) and sometimes a `toolUseResult` with the raw stdout/stderr.

The reader turns a file into an ordered list of events, assistant text and tool calls with
their results paired by id, and never raises on bad data: a line that is not a JSON object
is counted and skipped, unknown part types are ignored, a call without a result keeps
`result=None`, and huge outputs are cut to their head and tail.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

MAX_OUTPUT = 12_000  # characters of one tool result kept (head + tail)
MAX_PART_TEXT = 4_000  # characters of one text part kept
MAX_LINE = 50_000_000  # a line longer than this (bytes) is skipped unparsed


@dataclass
class ToolResult:
    output: str
    is_error: bool
    timestamp: float | None


@dataclass
class ToolCall:
    id: str
    name: str
    input: dict[str, Any]
    timestamp: float | None
    session_id: str
    cwd: str | None
    result: ToolResult | None = None

    @property
    def command(self) -> str:
        """The shell command of a Bash call ("" for other tools)."""
        value = self.input.get("command")
        return value if isinstance(value, str) else ""


@dataclass
class TextEvent:
    text: str
    role: str  # "assistant" | "user"
    timestamp: float | None


Event = ToolCall | TextEvent


@dataclass
class Transcript:
    path: Path
    project: str
    session_id: str
    cwd: str | None = None
    git_branch: str | None = None
    events: list[Event] = field(default_factory=list)
    lines: int = 0
    lines_skipped: int = 0
    orphan_results: int = 0  # tool results whose tool_use is not in the file

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [e for e in self.events if isinstance(e, ToolCall)]


def parse_timestamp(value: object) -> float | None:
    """Unix time from an ISO 8601 string ("2025-05-26T07:27:40.079Z"), or None."""
    if not isinstance(value, str) or not value:
        return None
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        return datetime.fromisoformat(text).timestamp()
    except ValueError:
        pass
    # Python 3.10 accepts only 3 or 6 fractional digits: normalise to 6.
    head, dot, rest = text.partition(".")
    if not dot:
        return None
    digits = "".join(ch for ch in rest if ch.isdigit())
    zone = rest[len(digits) :]
    try:
        return datetime.fromisoformat(f"{head}.{digits[:6].ljust(6, '0')}{zone}").timestamp()
    except ValueError:
        return None


def clip(text: str, limit: int = MAX_OUTPUT) -> str:
    """`text` cut to `limit` characters, keeping the head and the (more telling) tail."""
    if len(text) <= limit:
        return text
    head = limit // 4
    tail = limit - head
    omitted = len(text) - head - tail
    return f"{text[:head]}\n[... {omitted} characters omitted ...]\n{text[-tail:]}"


def _text_of(content: object) -> str:
    """The text of a tool_result's content: a string or a list of text parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = []
        for part in content:
            if isinstance(part, dict) and part.get("type") == "text":
                text = part.get("text")
                if isinstance(text, str):
                    texts.append(text)
            elif isinstance(part, str):
                texts.append(part)
        return "\n".join(texts)
    return ""


def _raw_result_text(raw: object) -> str:
    """Text from a line's `toolUseResult`: "Error: ..." or {"stdout": ..., "stderr": ...}."""
    if isinstance(raw, str):
        return raw
    if isinstance(raw, dict):
        parts = [raw.get("stdout"), raw.get("stderr")]
        return "\n".join(p for p in parts if isinstance(p, str) and p)
    return ""


class _Builder:
    def __init__(self, path: Path, project: str) -> None:
        self.transcript = Transcript(path=path, project=project, session_id=path.stem)
        self.calls: dict[str, ToolCall] = {}
        self.first_session_id: str | None = None

    def line(self, obj: dict[str, Any]) -> None:
        t = self.transcript
        session_id = obj.get("sessionId")
        if isinstance(session_id, str) and session_id:
            self.first_session_id = self.first_session_id or session_id
        else:
            session_id = self.first_session_id or t.session_id
        cwd = obj.get("cwd") if isinstance(obj.get("cwd"), str) else None
        if cwd and t.cwd is None:
            t.cwd = cwd
        branch = obj.get("gitBranch")
        if isinstance(branch, str) and branch and t.git_branch is None:
            t.git_branch = branch
        kind = obj.get("type")
        message = obj.get("message")
        if kind not in ("user", "assistant") or not isinstance(message, dict):
            return  # summary, system, file-history-snapshot, queue-operation ...
        timestamp = parse_timestamp(obj.get("timestamp"))
        content = message.get("content")
        role = message.get("role") if isinstance(message.get("role"), str) else kind
        if isinstance(content, str):
            if content.strip():
                t.events.append(TextEvent(content[:MAX_PART_TEXT], str(role), timestamp))
            return
        if not isinstance(content, list):
            return
        for part in content:
            if isinstance(part, dict):
                self.part(part, obj, str(role), timestamp, session_id, cwd)

    def part(
        self,
        part: dict[str, Any],
        obj: dict[str, Any],
        role: str,
        timestamp: float | None,
        session_id: str,
        cwd: str | None,
    ) -> None:
        t = self.transcript
        kind = part.get("type")
        if kind == "text":
            text = part.get("text")
            if isinstance(text, str) and text.strip():
                t.events.append(TextEvent(text[:MAX_PART_TEXT], role, timestamp))
        elif kind == "tool_use":
            call_id, name = part.get("id"), part.get("name")
            if not isinstance(call_id, str) or not isinstance(name, str):
                return
            if call_id in self.calls:
                return  # the same part repeated by a streamed or resumed session
            raw_input = part.get("input")
            call = ToolCall(
                id=call_id,
                name=name,
                input=raw_input if isinstance(raw_input, dict) else {},
                timestamp=timestamp,
                session_id=session_id,
                cwd=cwd or t.cwd,
            )
            self.calls[call_id] = call
            t.events.append(call)
        elif kind == "tool_result":
            call_id = part.get("tool_use_id")
            matched = self.calls.get(call_id) if isinstance(call_id, str) else None
            if matched is None:
                t.orphan_results += 1
                return
            if matched.result is not None:
                return
            output = _text_of(part.get("content")) or _raw_result_text(obj.get("toolUseResult"))
            matched.result = ToolResult(
                output=clip(output), is_error=part.get("is_error") is True, timestamp=timestamp
            )
        # thinking, image, redacted_thinking and unknown parts carry nothing to mine


def read_transcript(path: Path, project: str | None = None) -> Transcript:
    """Parse one transcript file; never raises on bad content (unreadable files do)."""
    builder = _Builder(path, project if project is not None else path.parent.name)
    t = builder.transcript
    with path.open("rb") as handle:
        for raw in handle:
            if not raw.strip():
                continue
            t.lines += 1
            if len(raw) > MAX_LINE:
                t.lines_skipped += 1
                continue
            try:
                obj = json.loads(raw.decode("utf-8", errors="replace"))
            except (ValueError, RecursionError):
                t.lines_skipped += 1
                continue
            if not isinstance(obj, dict):
                t.lines_skipped += 1
                continue
            try:
                builder.line(obj)
            except (TypeError, ValueError, AttributeError):
                t.lines_skipped += 1
    if builder.first_session_id:
        t.session_id = builder.first_session_id
    return t


def transcript_files(
    directory: Path, project: str | None = None, since: float | None = None
) -> list[tuple[str, Path]]:
    """(project, file) for every `*.jsonl` under `directory`, in path order.

    `directory` is the projects folder (`~/.claude/projects`), one project's folder or a
    single file. `project` keeps one project folder: its exact name, or the last part of
    the encoded path (`myapp` for `-home-me-code-myapp`). `since` (unix time) skips files
    not modified since then.
    """
    if directory.is_file():
        return [(directory.parent.name, directory)]
    found: list[tuple[str, Path]] = []
    for path in _walk(directory):
        rel = path.relative_to(directory)
        name = rel.parts[0] if len(rel.parts) > 1 else directory.name
        if project is not None and not project_matches(name, project):
            continue
        try:
            mtime = path.stat().st_mtime
        except OSError:
            continue
        if since is not None and mtime < since:
            continue
        found.append((name, path))
    return sorted(found, key=lambda item: str(item[1]))


def _walk(directory: Path) -> Iterable[Path]:
    try:
        yield from (p for p in directory.rglob("*.jsonl") if p.is_file())
    except OSError:
        return


def project_matches(folder: str, wanted: str) -> bool:
    if folder == wanted:
        return True
    encoded = wanted.strip("/").replace("/", "-").replace(".", "-")
    return folder.endswith("-" + encoded) or folder == "-" + encoded
