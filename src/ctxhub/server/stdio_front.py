"""The stdio transport's first fraction of a second: answer the handshake before the SDK loads.

Importing the MCP SDK takes ~0.8 s here (it builds hundreds of pydantic models) and the
tools' schemas another ~0.2 s, while a client sends `initialize` and `tools/list` at once
and waits. So `ctxhub serve` starts this stdlib-only front first; it

1. moves the protocol channel off fds 0/1 at once (stdin -> /dev/null, stdout -> stderr),
   so nothing printed during start-up can corrupt it;
2. reads the client's lines on a thread and answers `initialize` (for a protocol version
   it has seen before), `notifications/initialized` (nothing to say), `tools/list` and
   `ping` from a handshake cache, while the SDK loads on the main thread;
3. hands every line, answered or not, to the SDK in order, so its session sees the whole
   conversation (it initialises as usual), and drops the SDK's own replies to the
   requests already answered. Those replies are what the cache is learned from: the
   cache only ever holds answers the SDK gave, per protocol version.

The cache (`<home>/cache/handshake.json`) is keyed by everything that can change the
answers: ctxhub's version and the size and mtime of every file of the package. Without a
valid cache the front answers nothing and the SDK answers everything (as before); an
answer that differs from the SDK's is logged and relearned.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import queue
import tempfile
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

log = logging.getLogger("ctxhub.server")

_EOF = object()


def package_key() -> str:
    """Changes whenever anything that shapes the handshake may have changed."""
    import ctxhub

    root = Path(ctxhub.__file__).parent
    h = hashlib.sha256(ctxhub.__version__.encode())
    for path in sorted(root.rglob("*.py")):
        st = path.stat()
        h.update(f"{path.relative_to(root)}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:16]


def _id_key(request_id: Any) -> str:
    return json.dumps(request_id)


class HandshakeCache:
    """Answers the SDK gave to `initialize` (per protocol version) and `tools/list`."""

    def __init__(self, path: Path, key: str) -> None:
        self.path = path
        self.key = key
        self.answers: dict[str, Any] = {}
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
            if stored.get("key") == key:
                self.answers = dict(stored.get("answers", {}))
        except (OSError, ValueError, AttributeError):
            pass  # missing, unreadable or not ours: start empty
        self._dirty = False

    @staticmethod
    def slot(method: str, params: Any, version: str | None) -> str | None:
        """Where the answer to this request lives, for a session that asked for protocol
        `version` in its `initialize`; None if it is not cacheable."""
        params = params if isinstance(params, dict) else {}
        if method == "initialize":
            asked = params.get("protocolVersion")
            return f"initialize@{asked}" if isinstance(asked, str) else None
        if version is None:
            return None  # no handshake seen: a protocol this cache knows nothing of
        if method == "tools/list" and not params.get("cursor"):
            return f"tools/list@{version}"
        return f"ping@{version}" if method == "ping" else None

    def learn(self, slot: str, result: Any) -> bool:
        """Record the SDK's answer; False when it differs from one already served."""
        known = self.answers.get(slot)
        if known == result:
            return True
        self.answers[slot] = result
        self._dirty = True
        return known is None

    def save(self) -> None:
        if not self._dirty:
            return
        data = json.dumps({"key": self.key, "answers": self.answers})
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".handshake.")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(data)
            os.replace(tmp, self.path)
            self._dirty = False
        except OSError as exc:  # a read-only home: start slowly next time, nothing worse
            log.info("cannot write the handshake cache %s: %s", self.path, exc)


class StdioFront:
    """The protocol channel from process start to exit (see the module docstring)."""

    def __init__(self, cache: HandshakeCache) -> None:
        self.cache = cache
        # The protocol keeps private copies of fds 0 and 1; the numbers themselves now
        # point at /dev/null and stderr for everything else in the process.
        self._in = os.fdopen(os.dup(0), "rb")
        self._out = os.fdopen(os.dup(1), "wb")
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        os.dup2(2, 1)
        self._lines: queue.Queue[object] = queue.Queue()
        self._lock = threading.Lock()
        self._handed_over = False
        self._version: str | None = None  # the protocol version the client asked for
        #: request id -> cache slot, for requests the front answered itself
        self._answered: dict[str, str] = {}
        #: request id -> cache slot, for cacheable requests the SDK answers (to learn)
        self._pending: dict[str, str] = {}
        self._reader = threading.Thread(target=self._read, name="ctxhub-stdin", daemon=True)

    def start(self) -> StdioFront:
        self._reader.start()
        return self

    # -- before the SDK: answer what the cache knows -------------------------------
    def _read(self) -> None:
        for raw in self._in:
            line = raw.decode("utf-8", errors="replace")
            self._consider(line)
            self._lines.put(line)
        self._lines.put(_EOF)

    def _consider(self, line: str) -> None:
        try:
            message = json.loads(line)
        except ValueError:
            return  # the SDK reports it
        if not isinstance(message, dict) or "id" not in message or "method" not in message:
            return
        method, params = str(message["method"]), message.get("params")
        if method == "initialize" and isinstance(params, dict):
            asked = params.get("protocolVersion")
            self._version = asked if isinstance(asked, str) else None
        slot = HandshakeCache.slot(method, params, self._version)
        if slot is None:
            return
        key = _id_key(message["id"])
        with self._lock:
            answer = None if self._handed_over else self.cache.answers.get(slot)
            if answer is None:
                self._pending[key] = slot
                return
            self._answered[key] = slot
            self._write({"jsonrpc": "2.0", "id": message["id"], "result": answer})
        log.info("answered %s from the handshake cache", slot)

    def _write(self, message: dict[str, Any]) -> None:
        self._out.write(json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n")
        self._out.flush()

    # -- the SDK's side of the channel ---------------------------------------------
    def handover(self) -> None:
        """From now on the SDK answers everything it has not been answered for."""
        with self._lock:
            self._handed_over = True

    async def lines(self) -> AsyncIterator[str]:
        """Every line the client sent, in order (those already answered included)."""
        import anyio.to_thread

        while True:
            line = await anyio.to_thread.run_sync(self._lines.get)
            if line is _EOF:
                return
            assert isinstance(line, str)
            yield line

    def write_text(self, text: str) -> None:
        """One message from the SDK: dropped if the front already answered it, learned
        from if its request is cacheable, written otherwise."""
        try:
            message = json.loads(text)
        except ValueError:
            message = None
        key = _id_key(message.get("id")) if isinstance(message, dict) else None
        with self._lock:
            slot = self._answered.pop(key, None) if key is not None else None
            if slot is not None:
                if "result" in message and not self.cache.learn(slot, message["result"]):
                    log.warning("cached answer to %s was stale; relearned it", slot)
                self.cache.save()
                return
            slot = self._pending.pop(key, None) if key is not None else None
            if slot is not None and "result" in message:
                self.cache.learn(slot, message["result"])
                self.cache.save()
            self._out.write(text.encode("utf-8"))
            self._out.flush()

    def sdk_streams(self) -> tuple[Any, Any]:
        """(stdin, stdout) in the shapes the SDK's stdio transport takes."""
        return _Lines(self), _Writer(self)


class _Lines:
    def __init__(self, front: StdioFront) -> None:
        self._front = front

    def __aiter__(self) -> AsyncIterator[str]:
        return self._front.lines()


class _Writer:
    """Collects the SDK's `write` calls into whole lines for `StdioFront.write_text`."""

    def __init__(self, front: StdioFront) -> None:
        self._front = front
        self._buffer = ""

    async def write(self, text: str) -> int:
        self._buffer += text
        while "\n" in self._buffer:
            line, self._buffer = self._buffer.split("\n", 1)
            self._front.write_text(line + "\n")
        return len(text)

    async def flush(self) -> None:
        return None


def start_front(home: Path) -> StdioFront:
    """Divert the standard streams and start answering the handshake from the cache."""
    cache = HandshakeCache(home / "cache" / "handshake.json", package_key())
    return StdioFront(cache).start()
