"""The Claude Code transcripts under tests/fixtures/sessions/ and a tiny transcript
writer for edge cases, shared by the test_session_* files."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from ctxhub.memory.capture.sessions import MineSummary, mine_sessions

FIXTURES = Path(__file__).parent.parent / "fixtures" / "sessions"
INVOICER = FIXTURES / "-home-dev-code-invoicer"
PYTEST_SESSION = INVOICER / "3f2a9c1e-5b7d-4e8a-9c0f-1d2e3f4a5b6c.jsonl"
NEVER_FIXED = INVOICER / "b7e9d3a4-0c1f-4a2b-8d6e-5f7a9b1c3d2e.jsonl"
NODE_SESSION = (
    FIXTURES / "-Users-sam-work-weather-bot" / "8c41d0b2-77e3-4f0e-a6b1-2c9d5e8f0a13.jsonl"
)
SECRETS_SESSION = FIXTURES / "-srv-apps-billing-api" / "e1d2c3b4-a596-4877-8899-aabbccddeeff.jsonl"
#: What the secrets fixture leaks in tool output, inputs and prose.
SECRETS = (
    "Wz8kLq2vRt",
    "sk_" + "live_51HxYzAbCdEfGhIjKlMnOpQr",
    "sk-" + "proj-Q9vX2mLk8RtYpW3nB7cJ4hD6fG1sA5eZ0uI",
    "AKIA" + "4EXAMPLEQ7ZT2VXW",
    "ghp_" + "k3J9sL2mQ8vX1cB7nR4tY6wE0pA5dF2gH9iU",
)


# --- a tiny transcript writer for edge cases ----------------------------------------------


class Transcript:
    def __init__(self, session_id: str = "sess-1", cwd: str = "/work/app") -> None:
        self.session_id, self.cwd = session_id, cwd
        self.lines: list[str] = []
        self.clock = 1_750_000_000.0
        self.n = 0

    def _line(self, kind: str, content: Any, **extra: Any) -> None:
        self.clock += 5
        self.n += 1
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(self.clock)) + ".250Z"
        line = {
            "type": kind,
            "sessionId": self.session_id,
            "uuid": f"u{self.n}",
            "parentUuid": f"u{self.n - 1}" if self.n > 1 else None,
            "timestamp": stamp,
            "cwd": self.cwd,
            "message": {"role": kind, "content": content},
            **extra,
        }
        self.lines.append(json.dumps(line))

    def say(self, text: str) -> None:
        self._line("assistant", [{"type": "text", "text": text}])

    def bash(self, tid: str, command: str, output: str, error: bool = False) -> None:
        self._line("assistant", [{"type": "tool_use", "id": tid, "name": "Bash",
                                  "input": {"command": command}}])  # fmt: skip
        self.result(tid, (f"Exit code 1\n{output}" if error else output), error)

    def edit(self, tid: str, path: str, old: str, new: str, error: bool = False) -> None:
        self._line("assistant", [{"type": "tool_use", "id": tid, "name": "Edit",
                                  "input": {"file_path": path, "old_string": old,
                                            "new_string": new}}])  # fmt: skip
        self.result(tid, "String to replace not found" if error else "updated", error)

    def result(self, tid: str, content: Any, error: bool = False) -> None:
        part: dict[str, Any] = {"type": "tool_result", "tool_use_id": tid, "content": content}
        if error:
            part["is_error"] = True
        self._line("user", [part])

    def write(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(self.lines) + "\n", encoding="utf-8")
        return path


def mine_one(t: Transcript, tmp_path: Path) -> MineSummary:
    return mine_sessions(t.write(tmp_path / "projects" / "-work-app" / f"{t.session_id}.jsonl"))
