"""The process's parent as it was when ctxhub started.

`serve` must end when the client that spawned it dies. Reading `os.getppid()` only when
serving starts is too late on a slow machine: imports can take longer than the client
lives, and by then the parent is init (1) or a subreaper, which looks like a daemon. So the
entry point records the parent first thing, and the watch compares against that.
"""

from __future__ import annotations

import os

_AT_START: int | None = None


def remember() -> None:
    """Record the current parent; the first call wins (entry points call it first)."""
    global _AT_START
    if _AT_START is None:
        _AT_START = os.getppid()


def at_start() -> int:
    """The parent pid recorded at start (recorded now if no entry point did)."""
    remember()
    assert _AT_START is not None
    return _AT_START


def is_gone() -> bool:
    """True once the process has been re-parented: the parent it started with is gone."""
    started = at_start()
    return started > 1 and os.getppid() != started
