"""Embedders: texts in, L2-normalised float32 vectors out (see `base.Embedder`).

Importing this package is cheap: the ONNX embedder, its runtime and the tokenizer load
only when asked for (`load_default_embedder`, or the names below on first access).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ctxhub.core.errors import EmbedderError
from ctxhub.embed.base import Embedder, Progress, Vectors

if TYPE_CHECKING:
    from ctxhub.embed.hashing import HashingEmbedder
    from ctxhub.embed.onnx_minilm import MiniLMEmbedder
    from ctxhub.embed.variants import DEFAULT_VARIANT, VARIANTS

#: Names loaded on first access (numpy, onnxruntime and friends come with them).
_LAZY = {
    "HashingEmbedder": "ctxhub.embed.hashing",
    "MiniLMEmbedder": "ctxhub.embed.onnx_minilm",
    "DEFAULT_VARIANT": "ctxhub.embed.variants",
    "VARIANTS": "ctxhub.embed.variants",
}

__all__ = [
    "DEFAULT_VARIANT",
    "VARIANTS",
    "Embedder",
    "EmbedderError",
    "HashingEmbedder",
    "MiniLMEmbedder",
    "Progress",
    "Vectors",
    "load_default_embedder",
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load_default_embedder(home: Path) -> Embedder:
    """all-MiniLM-L6-v2 on onnxruntime, graph cached under `<home>/models/`.

    Loads lazily: the first `embed` (or `warm()`) builds or opens the graph, and raises
    `EmbedderError` naming the fix when the model package is missing or broken.
    """
    from ctxhub.embed.onnx_minilm import MiniLMEmbedder

    return MiniLMEmbedder(home)
