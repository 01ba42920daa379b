"""Refreshes started from the page: one background thread each, running the same
`app.refresh.refresh_index` as `ctxhub refresh`, with progress the page polls."""

from __future__ import annotations

import itertools
import threading
import time
from typing import Any

from pydantic import BaseModel, Field

from ctxhub.app.refresh import refresh_index
from ctxhub.app.sources import known_sources
from ctxhub.config import Settings
from ctxhub.core.errors import CtxhubError
from ctxhub.store.factory import open_store

#: Lines of `say` output a job keeps (the page shows the last few).
MAX_LINES = 50
#: Finished jobs remembered (a long-running server forgets the oldest).
MAX_FINISHED = 20


class JobState(BaseModel):
    id: str
    source: str
    state: str = "running"  # running | ok | failed
    phase: str = ""  # the progress label now: a unit group, "embeddings", ...
    done: int = 0
    total: int = 0
    started: float = Field(default_factory=time.time)
    finished: float | None = None
    lines: list[str] = Field(default_factory=list)
    error: str | None = None
    summary: dict[str, Any] | None = None


class _JobProgress:
    """core.progress.Progress onto a JobState (the refresh thread writes, requests read
    whole values: a torn read shows one step old, never garbage)."""

    def __init__(self, job: JobState) -> None:
        self.job = job

    def start(self, label: str, total: int) -> None:
        self.job.phase, self.job.total, self.job.done = label, total, 0

    def advance(self, n: int) -> None:
        self.job.done += n

    def done(self) -> None:
        self.job.done = self.job.total


class Jobs:
    """The refreshes of this process, by id; one running job per source at a time."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._jobs: dict[str, JobState] = {}
        self._lock = threading.Lock()
        self._ids = itertools.count(1)

    def get(self, job_id: str) -> JobState | None:
        return self._jobs.get(job_id)

    def all(self) -> list[JobState]:
        return sorted(self._jobs.values(), key=lambda j: j.started, reverse=True)

    def running(self) -> list[JobState]:
        return [j for j in self._jobs.values() if j.state == "running"]

    def start(self, source: str) -> JobState:
        """Start refreshing `source`; LookupError for an unknown source, ValueError
        when it cannot be refreshed (no recorded entry, or already refreshing)."""
        with open_store(self.settings.store_location) as store:
            known = {k.name: k for k in known_sources(store, self.settings.home)}
        if source not in known:
            raise LookupError(f"no source named {source!r}; the overview lists them")
        spec = known[source].spec
        if spec is None:
            raise ValueError(
                f"{source}: indexed by an older ctxhub that did not record the entry; run "
                "`ctxhub refresh` once from the folder whose ctxhub.toml lists it"
            )
        with self._lock:
            if any(j.source == source for j in self.running()):
                raise ValueError(f"{source} is already refreshing")
            job = JobState(id=str(next(self._ids)), source=source)
            self._jobs[job.id] = job
            finished = [j for j in self.all() if j.state != "running"]
            for old in finished[MAX_FINISHED:]:
                del self._jobs[old.id]
        thread = threading.Thread(
            target=self._run, args=(job, spec), name=f"ctxhub-refresh-{source}", daemon=True
        )
        thread.start()
        return job

    def _run(self, job: JobState, spec: Any) -> None:
        def say(line: str) -> None:
            job.lines = [*job.lines, line][-MAX_LINES:]

        try:
            summary = refresh_index(self.settings, [spec], progress=_JobProgress(job), say=say)
        except CtxhubError as exc:
            job.error, job.state = str(exc), "failed"
        except Exception as exc:  # a bug: the page says so; the traceback goes to the log
            import logging

            logging.getLogger("ctxhub.dashboard").exception("refresh of %s failed", job.source)
            job.error, job.state = f"internal error: {type(exc).__name__}: {exc}", "failed"
        else:
            job.summary = summary.model_dump(mode="json")
            result = summary.sources[0] if summary.sources else None
            job.error = result.error if result is not None else None
            failed = result is None or result.status == "failed"
            job.state = "failed" if failed else "ok"  # a `warning` source says why itself
        job.finished = time.time()
