"""A progress seam so ingestion can report without knowing about terminals."""

from __future__ import annotations

from typing import Protocol


class Progress(Protocol):
    def start(self, label: str, total: int) -> None: ...

    def advance(self, n: int) -> None: ...

    def done(self) -> None: ...


class _Silent:
    def start(self, label: str, total: int) -> None:
        pass

    def advance(self, n: int) -> None:
        pass

    def done(self) -> None:
        pass


NO_PROGRESS: Progress = _Silent()
