"""The default embedder: all-MiniLM-L6-v2 on onnxruntime, tokenised by `tokenizers`.

No torch and no hub download: the graph is built from the packaged safetensors
(`onnx_graph`, the only module that needs the `onnx` package) and cached under
`<home>/models/`. One ORT session serves every thread (`InferenceSession.run` is
thread-safe); it, onnxruntime and the tokenizer load with the first `embed` or `warm()`.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ctxhub.core.errors import EmbedderError
from ctxhub.embed.base import Progress, Vectors
from ctxhub.embed.model_files import INSTALL_HINT, model_dir
from ctxhub.embed.onnx_cache import cached_model
from ctxhub.embed.session import session_options
from ctxhub.embed.tokenizer import load_tokenizer
from ctxhub.embed.variants import DEFAULT_VARIANT, RECIPE_VERSION, VARIANTS, Variant

MODEL_NAME = "all-MiniLM-L6-v2"
DIM = 384
#: Texts tokenised (and length-sorted) together; bounds the id/mask arrays held at once.
WINDOW = 2048
#: Rows per session run. Bigger runs measured slower here (8-16 rows: ~85 texts/s,
#: 64 rows: ~78/s for 256-token chunks), as the activations stop fitting in cache.
MAX_RUN_ROWS = 16


def _cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class MiniLMEmbedder:
    """all-MiniLM-L6-v2: 384-d, mean-pooled, L2-normalised, float32."""

    def __init__(self, home: Path, variant: str = DEFAULT_VARIANT, threads: int | None = None):
        if variant not in VARIANTS:
            raise ValueError(f"unknown embedder variant {variant!r}; one of {sorted(VARIANTS)}")
        self._home = home
        self._variant: Variant = VARIANTS[variant]
        self._threads = threads or _cpu_count()
        self._session: Any = None
        self._lock = threading.Lock()

    @property
    def id(self) -> str:
        # Variants and recipes give (slightly) different vectors, so both are in the id.
        return f"{MODEL_NAME}:{self._variant.name}:r{RECIPE_VERSION}"

    @property
    def dim(self) -> int:
        return DIM

    @property
    def variant(self) -> Variant:
        return self._variant

    def warm(self) -> None:
        """Load (building the graph if needed) now instead of on the first `embed`."""
        self._get_session()

    def _get_session(self) -> Any:
        if self._session is not None:
            return self._session
        with self._lock:
            if self._session is None:
                self._session = self._load()
        return self._session

    def _load(self) -> Any:
        import onnxruntime as ort

        path = cached_model(self._home, model_dir(), self._variant)
        opts = session_options(self._threads)
        try:
            return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        except Exception as e:  # ORT raises its own untyped errors for a bad graph
            raise EmbedderError(
                f"cannot load the embedding graph {path}: {e}; delete it to rebuild, "
                f"or reinstall the model: {INSTALL_HINT} --force-reinstall"
            ) from e

    def embed(
        self, texts: Sequence[str], batch_size: int = 32, progress: Progress | None = None
    ) -> Vectors:
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        out = np.empty((len(texts), DIM), dtype=np.float32)
        if not texts:
            return out
        step = min(batch_size, MAX_RUN_ROWS)
        session = self._get_session()
        tok = load_tokenizer()
        for start in range(0, len(texts), WINDOW):
            window = list(texts[start : start + WINDOW])
            # One tokenizer call pads the window to its longest row; sorting by length
            # and cutting each batch to its own longest row keeps padding minimal.
            encs = tok.encode_batch(window)
            ids = np.array([e.ids for e in encs], dtype=np.int32)
            mask = np.array([e.attention_mask for e in encs], dtype=np.int32)
            lengths = mask.sum(axis=1)
            order = np.argsort(-lengths, kind="stable")
            for b in range(0, len(order), step):
                rows = order[b : b + step]
                width = int(lengths[rows].max())
                out[start + rows] = self._run(session, ids[rows, :width], mask[rows, :width])
                if progress is not None:
                    progress(len(rows))
        return out

    @staticmethod
    def _run(session: Any, ids: npt.NDArray[np.int32], mask: npt.NDArray[np.int32]) -> Vectors:
        (vec,) = session.run(None, {"input_ids": ids, "attention_mask": mask})
        return np.asarray(vec, dtype=np.float32)
