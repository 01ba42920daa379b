"""The hashing embedder: deterministic, unit-norm, similar texts -> similar vectors."""

from __future__ import annotations

import numpy as np
import pytest

from ctxhub.embed import Embedder, HashingEmbedder
from ctxhub.embed.hashing import tokens


def test_satisfies_the_embedder_protocol() -> None:
    emb = HashingEmbedder(dim=64)
    assert isinstance(emb, Embedder)
    assert emb.id == "hashing-64"
    assert emb.dim == 64


def test_empty_input_has_shape_zero_by_dim() -> None:
    out = HashingEmbedder(dim=32).embed([])
    assert out.shape == (0, 32)
    assert out.dtype == np.float32


def test_rows_are_unit_norm_float32_even_without_tokens() -> None:
    out = HashingEmbedder(dim=128).embed(["hello world", "", "!!! ???", "x"])
    assert out.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, rtol=1e-6)


def test_deterministic_across_instances() -> None:
    texts = ["PipelineTask runs a pipeline", "def process_frame(self, frame)"]
    a = HashingEmbedder(dim=256).embed(texts)
    b = HashingEmbedder(dim=256).embed(texts)
    np.testing.assert_array_equal(a, b)


def test_similar_texts_score_higher_than_unrelated() -> None:
    emb = HashingEmbedder(dim=512)
    query, near, far = emb.embed(
        [
            "create a text to speech service in the pipeline",
            "the pipeline uses a text to speech service",
            "vacuum cleaner warranty registration form",
        ]
    )
    assert float(query @ near) > 0.5
    assert float(query @ near) > float(query @ far) + 0.3


def test_identifier_parts_match_words() -> None:
    assert tokens("getHTTPResponse snake_case_name") == [
        "gethttpresponse", "get", "http", "response", "snake", "case", "name",
    ]  # fmt: skip
    emb = HashingEmbedder(dim=512)
    camel, words = emb.embed(["ElevenLabsTTSService", "eleven labs tts service"])
    assert float(camel @ words) > 0.7


def test_progress_counts_every_text_once() -> None:
    seen: list[int] = []
    HashingEmbedder(dim=16).embed([f"t{i}" for i in range(7)], batch_size=3, progress=seen.append)
    assert seen == [3, 3, 1]


def test_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError):
        HashingEmbedder(dim=0)
    with pytest.raises(ValueError):
        HashingEmbedder(dim=8).embed(["a"], batch_size=0)
