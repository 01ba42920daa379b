"""The pending queue: records the Claude Code hook captured, stored (embedded) later.

The hook (`ctxhub.memory.capture.hooks`) must return in milliseconds, so it only writes
`<home>/pending/<uuid>.json` (`Settings.pending_dir`), one RecordInput per file.
`drain_pending` stores them through `log_solution` (embedding, dedup, merging) from
`serve` start-up and from the memory commands.

- A stored file is deleted. A file that is not a valid RecordInput moves to
  `pending/rejected/` with a `.reason.txt` beside it. A file whose store fails (the
  embedder cannot load, the database is locked) stays for the next drain.
- Two processes may drain at once: each claims a file by renaming it to
  `<name>.claimed-<pid>` first; a rename that loses the race skips the file. A claim left
  behind by a process that died is returned to the queue after CLAIM_STALE seconds.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from ctxhub.core.records import LogResult, RecordInput

if TYPE_CHECKING:
    from ctxhub.config import Settings
    from ctxhub.session import HubSession

log = logging.getLogger(__name__)

CLAIM_MARK = ".claimed-"
CLAIM_STALE = 600.0  # seconds before another process's claim is presumed dead
MAX_FILE = 1_000_000  # bytes; a bigger pending file is rejected unread
MAX_STORE_FAILURES = 3  # consecutive store failures that end a drain (the store is down)

LogFn = Callable[["HubSession", RecordInput], LogResult]


@dataclass
class DrainSummary:
    """What one drain did. `failed` files stay queued; `skipped` were another process's."""

    stored: int = 0
    rejected: int = 0
    failed: int = 0
    skipped: int = 0
    remaining: int = 0  # files still queued after the drain
    results: list[LogResult] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def seen(self) -> int:
        return self.stored + self.rejected + self.failed + self.skipped

    def message(self) -> str:
        parts = [f"{self.stored} stored"]
        if self.rejected:
            parts.append(f"{self.rejected} rejected")
        if self.failed:
            parts.append(f"{self.failed} left queued after errors")
        if self.remaining:
            parts.append(f"{self.remaining} still pending")
        return "pending records: " + ", ".join(parts)


def pending_files(settings: Settings) -> list[Path]:
    """Queued files in `settings.pending_dir`, oldest first (claimed and rejected ones
    excluded)."""
    return _queued(settings.pending_dir)


def pending_count(settings: Settings) -> int:
    return len(pending_files(settings))


def rejected_count(settings: Settings) -> int:
    folder = settings.pending_dir / "rejected"
    return len(list(folder.glob("*.json"))) if folder.is_dir() else 0


def _queued(folder: Path) -> list[Path]:
    try:
        files = [p for p in folder.glob("*.json") if p.is_file()]
    except OSError:
        return []
    return sorted(files, key=_mtime)


def drain_pending(
    hub: HubSession, limit: int = 200, *, log_fn: LogFn | None = None
) -> DrainSummary:
    """Store up to `limit` queued records; never raises for a bad file or a failing store.

    `log_fn` replaces `ctxhub.memory.records.log_solution` (tests)."""
    summary = DrainSummary()
    folder = hub.settings.pending_dir
    if not folder.is_dir():
        return summary
    _release_stale_claims(folder)
    if log_fn is None:
        from ctxhub.memory.records.log import log_solution

        log_fn = log_solution
    consecutive_failures = 0
    for path in _queued(folder)[: max(0, limit)]:
        claimed = path.with_name(f"{path.name}{CLAIM_MARK}{os.getpid()}")
        try:
            os.rename(path, claimed)
        except OSError:  # another drain took it (or it vanished)
            summary.skipped += 1
            continue
        with contextlib.suppress(OSError):
            os.utime(claimed)  # the claim's age, for _release_stale_claims
        record, reason = _load(claimed)
        if record is None:
            _reject(claimed, path.name, reason, summary)
            continue
        try:
            result = log_fn(hub, record)
        except Exception as exc:
            _unclaim(claimed, path)
            summary.failed += 1
            summary.errors.append(f"{path.name}: {type(exc).__name__}: {exc}")
            log.warning("pending record %s not stored (kept for later): %s", path.name, exc)
            consecutive_failures += 1
            if consecutive_failures >= MAX_STORE_FAILURES:
                break
            continue
        consecutive_failures = 0
        summary.stored += 1
        summary.results.append(result)
        try:
            claimed.unlink()
        except OSError as exc:  # stored, but the file stays claimed; the dedup merges it
            log.warning("pending record %s stored but not removed: %s", path.name, exc)
    summary.remaining = len(_queued(folder))
    return summary


def _load(path: Path) -> tuple[RecordInput | None, str]:
    try:
        if path.stat().st_size > MAX_FILE:
            return None, f"file larger than {MAX_FILE} bytes"
        data = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8: {exc}"
    except (OSError, ValueError) as exc:
        return None, f"not JSON: {exc}"
    if not isinstance(data, dict):
        return None, "not a JSON object"
    try:
        return RecordInput.model_validate(data), ""
    except ValidationError as exc:
        return None, f"not a valid record: {exc}"


def _reject(claimed: Path, name: str, reason: str, summary: DrainSummary) -> None:
    summary.rejected += 1
    summary.errors.append(f"{name}: {reason.splitlines()[0] if reason else 'rejected'}")
    log.warning("pending record %s rejected: %s", name, reason)
    target_dir = claimed.parent / "rejected"
    try:
        target_dir.mkdir(exist_ok=True)
        target = target_dir / name
        os.replace(claimed, target)
        target.with_name(name + ".reason.txt").write_text(reason + "\n", encoding="utf-8")
    except OSError as exc:
        log.warning("could not move %s to %s: %s", name, target_dir, exc)


def _unclaim(claimed: Path, original: Path) -> None:
    try:
        os.replace(claimed, original)
    except OSError as exc:
        log.warning("could not return %s to the queue: %s", original.name, exc)


def _release_stale_claims(folder: Path) -> None:
    """Give back claims whose process is gone (or that are older than CLAIM_STALE)."""
    now = time.time()
    for claimed in folder.glob(f"*.json{CLAIM_MARK}*"):
        name, _, pid_text = claimed.name.rpartition(CLAIM_MARK)
        pid = int(pid_text) if pid_text.isdigit() else 0
        if pid == os.getpid():
            continue  # ours, from an earlier drain whose unlink failed: leave it
        if _alive(pid) and now - _mtime(claimed) < CLAIM_STALE:
            continue
        original = claimed.with_name(name)
        if not original.exists():
            _unclaim(claimed, original)


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    if os.name == "nt":  # no cheap liveness probe: trust the age check
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, owned by someone else
        return True
    return True


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
