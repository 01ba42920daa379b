"""How tool calls run: off the event loop, one Hub (store connection) per call, errors as
plain messages, every response inside its token budget. Plus process lifecycle helpers:
warming the embedder in the background and noticing when the parent process is gone."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn, TypeVar

import anyio.to_thread
from mcp_types import CallToolResult, TextContent
from pydantic import BaseModel, ValidationError

from ctxhub import parent
from ctxhub.config import Settings
from ctxhub.core.budget import estimate_tokens, trim
from ctxhub.core.errors import (
    EmbedderError,
    InputError,
    NotFoundError,
    SourceError,
    StoreError,
    shown,
)
from ctxhub.core.knowledge import SearchRequest, SearchResponse
from ctxhub.session import Hub, default_embedder
from ctxhub.tools.memory_tools import store_pending

log = logging.getLogger("ctxhub.server")

DEFAULT_TOKENS = 8000
MAX_TOKENS = 25000
#: Keys whose string values a last-resort budget pass may shorten (never ids or paths).
TEXT_KEYS = frozenset({"snippet", "content", "code", "summary", "note", "description"})
#: What a hit's metadata keeps when even trimmed text does not fit the budget.
CORE_METADATA = frozenset({"chunk_type", "signature", "deprecated", "example", "tags"})

M = TypeVar("M", bound=BaseModel)


def describe_validation(exc: ValidationError) -> str:
    """One line per bad field: `limit: Input should be less than or equal to 50 (got 500)`."""
    parts: list[str] = []
    for err in exc.errors(include_url=False):
        loc = ".".join(str(p) for p in err["loc"]) or "arguments"
        msg = str(err["msg"])
        if err["type"] != "missing" and "input" in err:
            msg += f" (got {shown(err['input'], 60)})"
        parts.append(f"{loc}: {msg}")
    return "; ".join(dict.fromkeys(parts))


#: No error message is longer than this, whatever a tool put in it.
MAX_ERROR_CHARS = 2000


def error_result(message: str) -> CallToolResult:
    if len(message) > MAX_ERROR_CHARS:
        message = f"{message[:MAX_ERROR_CHARS]}... ({len(message):,} characters)"
    return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)


def _text_leaves(node: Any, out: list[tuple[Any, Any, int]]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(value, str) and key in TEXT_KEYS and len(value) > 80:
                out.append((node, key, len(value)))
            else:
                _text_leaves(value, out)
    elif isinstance(node, list):
        for item in node:
            _text_leaves(item, out)


def enforce_budget(data: dict[str, Any], max_tokens: int) -> bool:
    """Last resort: shorten the longest text fields until `data` fits. True if it cut.

    Each tool budgets its own output; this only catches what their estimates missed
    (long metadata, many small hits), so the contract holds for every response."""
    over = estimate_tokens(json.dumps(data)) - max_tokens
    if over <= 0:
        return False
    leaves: list[tuple[Any, Any, int]] = []
    _text_leaves(data, leaves)
    excess = over * 3 + 200
    for container, key, length in sorted(leaves, key=lambda leaf: -leaf[2]):
        if excess <= 0:
            break
        keep = max(40, length - excess)
        container[key], _ = trim(container[key], keep)
        excess -= length - len(container[key])
    if estimate_tokens(json.dumps(data)) > max_tokens:
        _slim_metadata(data)
    if "truncated" in data:
        data["truncated"] = True
    return True


def _slim_metadata(node: Any) -> None:
    """Reduce every `metadata` object to the keys that identify the definition."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "metadata" and isinstance(value, dict):
                kept = {k: v for k, v in value.items() if k in CORE_METADATA}
                value.clear()
                value.update(kept, trimmed=True)
            else:
                _slim_metadata(value)
    elif isinstance(node, list):
        for item in node:
            _slim_metadata(item)


def fit_search(
    call: Callable[[int], SearchResponse], limit: int, max_tokens: int
) -> SearchResponse:
    """Run a search, asking for fewer hits while the response exceeds the budget.

    Snippets are trimmed by the retriever; this handles lists whose citations alone do not
    fit (many hits with long metadata). A cursor stays consistent: it counts the hits
    actually returned."""
    response = call(limit)
    while limit > 1:
        tokens = estimate_tokens(response.model_dump_json())
        if tokens <= max_tokens:
            break
        limit = max(1, min(limit - 1, limit * max_tokens // tokens))
        response = call(limit)
        response.truncated = True
    return response


class HubPool:
    """Idle Hubs for tool calls to check out: a call owns its Hub (and store connection)
    exclusively while it runs, but a reused connection keeps SQLite's page cache warm,
    which a fresh connection per call would pay for on every search (~20 ms on a 12k-chunk
    index). Every statement already sees the latest commit (autocommit reads under WAL);
    a Hub is still dropped once the store's generation has moved, so nothing it cached
    (model binding, query vectors) outlives a refresh, and after an unexpected error."""

    def __init__(self, settings: Settings, size: int = 8) -> None:
        self.settings = settings
        self.size = size
        self._idle: list[tuple[Hub, int]] = []
        self._lock = threading.Lock()

    @contextmanager
    def hub(self) -> Iterator[Hub]:
        hub: Hub | None = None
        with self._lock:
            if self._idle:
                hub, generation = self._idle.pop()
        if hub is not None and hub.store.generation() != generation:
            hub.close()
            hub = None
        if hub is None:
            hub = Hub(self.settings)
        generation = hub.store.generation()
        try:
            yield hub
        except (InputError, NotFoundError, ValidationError):
            self._release(hub, generation)  # the caller's mistake; the Hub is fine
            raise
        except BaseException:
            hub.close()
            raise
        self._release(hub, generation)

    def _release(self, hub: Hub, generation: int) -> None:
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
    """Runs one tool call on a worker thread with a Hub of its own."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pool = HubPool(settings)

    async def run(
        self,
        tool: str,
        work: Callable[[Hub], M],
        render: Callable[[M], str],
        max_tokens: int = DEFAULT_TOKENS,
    ) -> CallToolResult:
        return await anyio.to_thread.run_sync(self.run_sync, tool, work, render, max_tokens)

    def run_sync(
        self, tool: str, work: Callable[[Hub], M], render: Callable[[M], str], max_tokens: int
    ) -> CallToolResult:
        started = time.perf_counter()
        try:
            with self.pool.hub() as hub:
                output = work(hub)
        except InputError as exc:
            return error_result(f"invalid arguments for {tool}: {exc}")
        except ValidationError as exc:
            return error_result(f"invalid arguments for {tool}: {describe_validation(exc)}")
        except NotFoundError as exc:
            return error_result(f"not found: {exc}")
        except (StoreError, EmbedderError, SourceError) as exc:
            log.warning("%s failed: %s", tool, exc)
            return error_result(f"{tool} failed: {exc}")
        except Exception:
            log.exception("%s raised an unexpected error", tool)
            return error_result(f"{tool} failed with an internal error; the server log has details")
        data = output.model_dump(mode="json")
        if enforce_budget(data, max_tokens):
            output = type(output).model_validate(data)
        text = render(output)
        if estimate_tokens(text) > max_tokens:
            text, _ = trim(text, max_tokens * 3)
        log.debug("%s answered in %.1f ms", tool, (time.perf_counter() - started) * 1000)
        return CallToolResult(
            content=[TextContent(type="text", text=text)], structured_content=data
        )


def warm_up(settings: Settings, pool: HubPool | None = None) -> threading.Thread:
    """Load the embedder, the vector matrix and a store connection's cache in the
    background, so the first search does not pay for them (tools/list never waits), and
    store the records hooks captured while no server ran."""

    def work() -> None:
        started = time.perf_counter()
        try:
            embedder = default_embedder(settings.home)
            embedder.embed(["warm up"])
            with pool.hub() if pool is not None else Hub(settings) as hub:
                hub.retriever.search(SearchRequest(query="warm up", limit=1))
                stored = store_pending(hub)  # what hooks captured while no server ran
                if stored:
                    log.info("stored %d records captured by hooks", stored)
        except Exception as exc:  # the tools report a broken model or store themselves
            log.warning("warm-up failed: %s", exc)
            return
        log.info("model and index warm in %.2f s", time.perf_counter() - started)

    thread = threading.Thread(target=work, name="ctxhub-warm-up", daemon=True)
    thread.start()
    return thread


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
