"""How tool calls run: off the event loop, one HubSession (store connection) per call, errors as
plain messages, every response inside its token budget. Plus process lifecycle helpers:
warming the embedder in the background and noticing when the parent process is gone."""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

import anyio.to_thread
from mcp_types import CallToolResult, TextContent
from pydantic import BaseModel, ValidationError

from ctxhub import parent
from ctxhub.config import Settings
from ctxhub.core.caller import Caller
from ctxhub.core.errors import InputError, NotFoundError
from ctxhub.core.knowledge import SearchRequest
from ctxhub.session import HubSession, default_embedder
from ctxhub.tools.memory_tools import store_pending
from ctxhub.tools.run import answer, failure
from ctxhub.tools.spec import ToolSpec

log = logging.getLogger("ctxhub.server")

#: No error message is longer than this, whatever a tool put in it.
MAX_ERROR_CHARS = 2000


def error_result(message: str) -> CallToolResult:
    if len(message) > MAX_ERROR_CHARS:
        message = f"{message[:MAX_ERROR_CHARS]}... ({len(message):,} characters)"
    return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)


class HubPool:
    """Idle sessions for tool calls to check out: a call owns its HubSession (and store
    connection) exclusively while it runs, but a reused connection keeps SQLite's page cache warm,
    which a fresh connection per call would pay for on every search (~20 ms on a 12k-chunk
    index). Every statement already sees the latest commit (autocommit reads under WAL);
    a HubSession is still dropped once the store's generation has moved, so nothing it cached
    (model binding, query vectors) outlives a refresh, and after an unexpected error."""

    def __init__(self, settings: Settings, size: int = 8) -> None:
        self.settings = settings
        self.size = size
        self._idle: list[tuple[HubSession, int]] = []
        self._lock = threading.Lock()

    @contextmanager
    def hub(self, caller: Caller | None = None) -> Iterator[HubSession]:
        """An idle session (or a new one) for one call, on behalf of `caller`."""
        hub: HubSession | None = None
        with self._lock:
            if self._idle:
                hub, generation = self._idle.pop()
        if hub is not None and hub.store.generation() != generation:
            hub.close()
            hub = None
        if hub is None:
            hub = HubSession(self.settings)
        generation = hub.store.generation()
        hub.caller = caller
        try:
            yield hub
        except (InputError, NotFoundError, ValidationError):
            self._release(hub, generation)  # the caller's mistake; the HubSession is fine
            raise
        except BaseException:
            hub.close()
            raise
        self._release(hub, generation)

    def _release(self, hub: HubSession, generation: int) -> None:
        hub.caller = None
        with self._lock:
            if len(self._idle) < self.size:
                self._idle.append((hub, generation))
                return
        hub.close()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for hub, _ in idle:
            hub.close()


class ToolRunner:
    """Runs one tool call on a worker thread with a HubSession of its own."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pool = HubPool(settings)

    async def run(
        self, spec: ToolSpec, args: BaseModel, caller: Caller | None = None
    ) -> CallToolResult:
        return await anyio.to_thread.run_sync(self.run_sync, spec, args, caller)

    def run_sync(
        self, spec: ToolSpec, args: BaseModel, caller: Caller | None = None
    ) -> CallToolResult:
        started = time.perf_counter()
        if spec.writes and caller is not None and caller.read_only:
            return error_result(read_only_refusal(spec, caller))
        try:
            with self.pool.hub(caller) as hub:
                result = answer(spec, hub, args)
        except Exception as exc:
            message = failure(spec, exc)
            if message is None:
                log.exception("%s raised an unexpected error", spec.name)
                return error_result(
                    f"{spec.name} failed with an internal error; the server log has details"
                )
            if not isinstance(exc, InputError | NotFoundError | ValidationError):
                log.warning("%s", message)
            return error_result(message)
        log.debug("%s answered in %.1f ms", spec.name, (time.perf_counter() - started) * 1000)
        return CallToolResult(
            content=[TextContent(type="text", text=result.text)], structured_content=result.data
        )


def read_only_refusal(spec: ToolSpec, caller: Caller) -> str:
    return (
        f"{spec.name} writes to the hub, and the token {caller.name or '(shared)'!r} is "
        "read-only: searches and get_* tools work with it; to write, use a token made "
        "without --read-only (`ctxhub token add NAME`)"
    )


#: How often the server looks for records hooks left in the pending folder.
DRAIN_INTERVAL_S = 5.0


def warm_up(settings: Settings, pool: HubPool | None = None) -> threading.Thread:
    """Load the embedder, the vector matrix and a store connection's cache in the
    background, so the first search does not pay for them (tools/list never waits); then
    keep storing the records hooks capture (the read tools never write them)."""

    def work() -> None:
        started = time.perf_counter()
        try:
            embedder = default_embedder(settings.home)
            embedder.embed(["warm up"])
            with pool.hub() if pool is not None else HubSession(settings) as hub:
                hub.retriever.search(SearchRequest(query="warm up", limit=1))
        except Exception as exc:  # the tools report a broken model or store themselves
            log.warning("warm-up failed: %s", exc)
            return
        log.info("model and index warm in %.2f s", time.perf_counter() - started)
        try:  # an upgraded or downgraded dependency: index what the agent now runs
            from ctxhub.app.refresh import refresh_distributions_due  # ingestion: only now

            refresh_distributions_due(settings, say=log.warning)
        except Exception as exc:  # the last good index stays searchable
            log.warning("refreshing changed distributions failed: %s", exc)
        drain_forever(settings, pool)

    thread = threading.Thread(target=work, name="ctxhub-warm-up", daemon=True)
    thread.start()
    return thread


def drain_forever(
    settings: Settings, pool: HubPool | None, interval: float = DRAIN_INTERVAL_S
) -> None:
    """Store what hooks captured, now and every `interval` seconds while serving. A
    look at an empty folder costs one listdir; a HubSession is taken only when there is work."""
    while True:
        try:
            if has_pending(settings.pending_dir):
                with pool.hub() if pool is not None else HubSession(settings) as hub:
                    stored = store_pending(hub)
                if stored:
                    log.info("stored %d records captured by hooks", stored)
        except Exception as exc:  # a broken store is reported by the tools themselves
            log.warning("could not store pending records: %s", exc)
        time.sleep(interval)


def has_pending(folder: Path) -> bool:
    try:
        return any(".json" in entry.name for entry in os.scandir(folder))  # claims too
    except OSError:
        return False


def leave(code: int = 0) -> NoReturn:
    """End the process now that serving is over. Background threads (the model loading
    inside onnxruntime, the warm-up) must not meet interpreter finalisation: a C++
    thread torn down under it aborts the process (SIGABRT). SQLite commits are durable
    and an open transaction rolls back, so skipping finalisation loses nothing."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


def watch_parent(on_orphaned: Callable[[], None], interval: float = 0.5) -> None:
    """Call `on_orphaned` once the parent process ctxhub started with is gone (at once if
    it already is), then make sure the process really ends: a thread blocked on a stdin
    nobody closes must not keep an orphan alive."""
    started = parent.at_start()
    if started <= 1:
        return  # started by init itself (daemonised): there is no client to outlive

    def loop() -> None:
        while not parent.is_gone():
            time.sleep(interval)
        log.warning("parent process %d is gone; shutting down", started)
        try:
            on_orphaned()
        except Exception:
            log.exception("clean shutdown failed")
        time.sleep(1.0)  # grace for a clean exit, then leave regardless
        os._exit(0)

    threading.Thread(target=loop, name="ctxhub-parent-watch", daemon=True).start()
