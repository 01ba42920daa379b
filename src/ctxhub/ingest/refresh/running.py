"""Which process is refreshing a source, and whether it still runs.

A refresh marks its source `indexing` (with its pid, host and start time in the stats)
before it writes the first unit, and `ok`, `warning` (nothing indexed) or `failed` when it
ends. A source still marked
`indexing` whose process is gone was interrupted (kill -9, a crash, a full disk): its
chunks are searchable but incomplete, and status reports it as `partial`.
"""

from __future__ import annotations

import os
import socket
import time
from typing import Any

INDEXING = "indexing"
PARTIAL = "partial"
#: refreshed without error, and nothing indexed: the stats' `warning` says why
WARNING = "warning"
INTERRUPTED = "interrupted; run ctxhub refresh"


def owner() -> dict[str, Any]:
    """Stats entries naming this process as the one refreshing a source."""
    return {"pid": os.getpid(), "host": socket.gethostname(), "started": time.time()}


def without_owner(stats: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in stats.items() if k not in ("pid", "host", "started")}


def _linux_start_time(pid: int) -> float | None:
    """Unix time process `pid` started, from /proc (None where there is no /proc)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        with open("/proc/stat", encoding="ascii") as f:
            boot = next(float(line.split()[1]) for line in f if line.startswith("btime "))
        return boot + int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return None


def still_running(stats: dict[str, Any]) -> bool:
    """Is the process that marked a source `indexing` alive? A process on another host
    cannot be checked and counts as running; a pid reused by a process that started
    after the refresh did (Linux) does not."""
    pid, host, started = stats.get("pid"), stats.get("host"), stats.get("started")
    if not isinstance(pid, int) or pid <= 0:
        return False
    if host != socket.gethostname():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # it exists, run by someone else
    except OSError:
        return False
    began = _linux_start_time(pid)
    return not (began is not None and isinstance(started, (int, float)) and began > started + 2)


def label(status: str, error: str | None, stats: dict[str, Any]) -> tuple[str, str | None]:
    """(status, error) to report for a stored source state."""
    if status == INDEXING:
        return (INDEXING, None) if still_running(stats) else (PARTIAL, INTERRUPTED)
    if status == PARTIAL:
        return PARTIAL, error or INTERRUPTED
    if status == "ok" and stats.get("warning"):
        return WARNING, error  # stored as `ok` by an older ctxhub
    return status, error
