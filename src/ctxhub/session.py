"""A HubSession: one caller's handle on the hub (settings -> one store connection, the
process-wide embedder, a retriever).

Commands and tool calls open a HubSession for their work; the embedder (an ONNX session,
thread-safe) is loaded once per process and shared, while each session owns its own
store connection, so threads never share one.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

from ctxhub.config import Settings
from ctxhub.core.caller import Caller
from ctxhub.embed.base import Embedder
from ctxhub.store.factory import open_store

if TYPE_CHECKING:  # the retriever loads with the first search, not for every command
    from ctxhub.search.retriever import Retriever

_EMBEDDER: Embedder | None = None
_EMBEDDER_LOCK = threading.Lock()


def default_embedder(home: Path) -> Embedder:
    """The process-wide default embedder (loaded on first use; raises EmbedderError)."""
    global _EMBEDDER
    with _EMBEDDER_LOCK:
        if _EMBEDDER is None:
            from ctxhub.embed import load_default_embedder

            _EMBEDDER = load_default_embedder(home)
        return _EMBEDDER


def set_embedder(embedder: Embedder | None) -> None:
    """Replace the process-wide embedder (tests use a hashing embedder)."""
    global _EMBEDDER
    with _EMBEDDER_LOCK:
        _EMBEDDER = embedder


class HubSession:
    """The store, embedder and retriever one command or tool call works with."""

    def __init__(self, settings: Settings, embedder: Embedder | None = None) -> None:
        self.settings = settings
        self._embedder = embedder
        self.store = open_store(settings.store_location)
        self._retriever: Retriever | None = None
        self._bound = False
        #: Who the current call is for (a bearer token over HTTP); None locally.
        self.caller: Caller | None = None

    @property
    def embedder(self) -> Embedder:
        """The embedder, bound to the store on first use (a model mismatch raises here)."""
        if self._embedder is None:
            self._embedder = default_embedder(self.settings.home)
        if not self._bound:
            self.store.bind_model(self._embedder.id, self._embedder.dim)
            self._bound = True
        return self._embedder

    @property
    def retriever(self) -> Retriever:
        if self._retriever is None:
            from ctxhub.search.retriever import Retriever

            self._retriever = Retriever(self.store, self.embedder)
        return self._retriever

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> HubSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
