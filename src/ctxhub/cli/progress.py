"""Rich progress bars for ingestion, shown only when stderr is a terminal."""

from __future__ import annotations

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.progress import Progress as RichProgress

from ctxhub.cli.output import err, interactive, real_console
from ctxhub.core.progress import NO_PROGRESS, Progress


class BarProgress:
    """One bar per stage (files of a source, embeddings)."""

    def __init__(self) -> None:
        self._bars = RichProgress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=real_console(err),
            transient=False,
        )
        self._task: TaskID | None = None
        self._bars.start()

    def start(self, label: str, total: int) -> None:
        self._task = self._bars.add_task(label, total=total)

    def advance(self, n: int) -> None:
        if self._task is not None:
            self._bars.advance(self._task, n)

    def done(self) -> None:
        self._task = None

    def close(self) -> None:
        self._bars.stop()


def make_progress() -> tuple[Progress, BarProgress | None]:
    """A progress reporter, and the object to close afterwards (None when silent)."""
    if not interactive():
        return NO_PROGRESS, None
    bars = BarProgress()
    return bars, bars
