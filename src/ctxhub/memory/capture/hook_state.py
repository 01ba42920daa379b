"""The hook's files: per-session state, the lock around it, and the pending records.

Part of the hook path (`ctxhub.memory.capture.hooks`), so standard library only. State lives in
`<home>/hooks/sessions/<session>.json`, one small file per session, pruned by age and
count; every file is written atomically (a temporary file, then a rename), so a reader
never sees half of one.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
import zlib
from typing import Any

SESSION_TTL = 2 * 24 * 3600  # session state older than this is pruned
MAX_SESSIONS = 200
LOCK_WAIT = 1.0  # seconds to wait for the state lock before skipping the event


def session_state_path(home: str, session: str) -> str:
    """The state file of a session; an id that is no safe file name gets a checksum."""
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", session)[:80]
    if safe != session:
        safe += f"-{crc(session)}"
    return os.path.join(home, "hooks", "sessions", safe + ".json")


def crc(text: str) -> str:
    """A short checksum of `text`, for file names."""
    return f"{zlib.crc32(text.encode('utf-8', 'replace')):08x}"


def load_state(path: str) -> dict[str, Any]:
    """A session's state; an empty one if the file is missing, unreadable or malformed."""
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


def save_state(path: str, state: dict[str, Any]) -> None:
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
        remove_file(tmp)


def remove_file(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def prune_sessions(folder: str, *, keep: str) -> None:
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
            remove_file(entry.path)
        elif entry.name.endswith(".json"):
            live.append((mtime, entry.path))
    live.sort()
    for _, path in live[: max(0, len(live) - (MAX_SESSIONS - 1))]:
        remove_file(path)


class StateLock:
    """An exclusive lock on `<home>/hooks/.lock`, so parallel hook calls (Claude Code runs
    tool calls in parallel) don't lose each other's state updates. Held for a millisecond
    or so; after LOCK_WAIT seconds it raises TimeoutError and the event is skipped (and
    logged). Without fcntl (Windows) there is no lock."""

    def __init__(self, home: str) -> None:
        self.path = os.path.join(home, "hooks", ".lock")
        self.fd: int | None = None

    def __enter__(self) -> StateLock:
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


def write_pending(home: str, record: dict[str, Any]) -> str:
    """Queue `record` as `<home>/pending/<uuid>.json`; returns that path."""
    import uuid

    folder = os.path.join(home, "pending")  # must match ctxhub.config.Settings.pending_dir
    os.makedirs(folder, exist_ok=True)
    name = f"{uuid.uuid4()}.json"
    path = os.path.join(folder, name)
    _atomic_write(path, json.dumps(record, ensure_ascii=False, indent=1))
    return path
