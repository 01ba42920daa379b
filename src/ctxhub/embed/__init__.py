"""Embedders: texts in, L2-normalised float32 vectors out (see `base.Embedder`)."""

from __future__ import annotations

from pathlib import Path

from ctxhub.embed.base import Embedder, EmbedderError, Progress, Vectors
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.embed.onnx_graph import DEFAULT_VARIANT, VARIANTS
from ctxhub.embed.onnx_minilm import MiniLMEmbedder

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


def load_default_embedder(home: Path) -> Embedder:
    """all-MiniLM-L6-v2 on onnxruntime, graph cached under `<home>/models/`.

    Loads lazily: the first `embed` (or `warm()`) builds or opens the graph, and raises
    `EmbedderError` naming the fix when the model package is missing or broken.
    """
    return MiniLMEmbedder(home)
