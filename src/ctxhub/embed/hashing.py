"""A deterministic hashing embedder, for unit tests only (no model, no onnxruntime).

Each text becomes a bag of tokens (lowercased words, with identifiers also split into
their camelCase / snake_case parts); every token adds +-1 to one of `dim` buckets picked
by a stable hash (blake2b, not Python's salted `hash`). Rows are L2-normalised, so texts
sharing tokens get a high cosine and unrelated texts a cosine near zero.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from ctxhub.embed.base import Progress, Vectors

_WORD = re.compile(r"[A-Za-z0-9]+")
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
#: Stands in for a text with no tokens, so its row still has unit norm.
_EMPTY = "\x00empty"


def tokens(text: str) -> list[str]:
    """Lowercased words plus their identifier parts: "getHTTPResponse" ->
    ["gethttpresponse", "get", "http", "response"]."""
    out: list[str] = []
    for word in _WORD.findall(text):
        low = word.lower()
        out.append(low)
        parts = _PART.findall(word)
        if len(parts) > 1:
            out.extend(p.lower() for p in parts)
    return out


def _bucket(token: str, dim: int) -> tuple[int, float]:
    digest = hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    return (value >> 1) % dim, 1.0 if value & 1 else -1.0


class HashingEmbedder:
    """Signed feature hashing into `dim` buckets; id `hashing-<dim>`."""

    def __init__(self, dim: int = 384) -> None:
        if dim < 1:
            raise ValueError(f"dim must be >= 1, got {dim}")
        self._dim = dim

    @property
    def id(self) -> str:
        return f"hashing-{self._dim}"

    @property
    def dim(self) -> int:
        return self._dim

    def warm(self) -> None:
        """Nothing to load; present for parity with the model embedder."""

    def embed(
        self, texts: Sequence[str], batch_size: int = 32, progress: Progress | None = None
    ) -> Vectors:
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in tokens(text) or [_EMPTY]:
                index, sign = _bucket(token, self._dim)
                out[row, index] += sign
            norm = float(np.linalg.norm(out[row]))
            if norm == 0.0:  # every token cancelled out: fall back to the empty marker
                index, sign = _bucket(_EMPTY, self._dim)
                out[row, index] = sign
            else:
                out[row] /= norm
            if progress is not None and ((row + 1) % batch_size == 0 or row + 1 == len(texts)):
                progress((row % batch_size) + 1)
        return out
