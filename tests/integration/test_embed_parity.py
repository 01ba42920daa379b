"""The default embedder against sentence-transformers' vectors for 200 real chunks.

Runs in the main venv, without torch: the reference vectors were written once by
scripts/make_embed_reference.py in the reference venv (see docs/embedding.md).
"""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from ctxhub.embed import Embedder, MiniLMEmbedder, load_default_embedder

pytestmark = pytest.mark.integration
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture(scope="module")
def reference() -> tuple[list[str], npt.NDArray[np.float32]]:
    meta = json.loads((FIXTURES / "embed_reference.json").read_text(encoding="utf-8"))
    vectors = np.load(FIXTURES / "embed_reference.npz")["vectors"]
    texts = [str(c["text"]) for c in meta["chunks"]]
    assert vectors.shape == (len(texts), 384) and len(texts) == 200
    return texts, vectors


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("ctxhub-home")


@pytest.fixture(scope="module")
def embedder(home: Path) -> Embedder:
    emb = load_default_embedder(home)
    assert isinstance(emb, MiniLMEmbedder)
    emb.warm()
    return emb


@pytest.fixture(scope="module")
def vectors(embedder: Embedder, reference: tuple[list[str], np.ndarray]) -> np.ndarray:
    return embedder.embed(reference[0], batch_size=32)


def test_parity_with_sentence_transformers(
    vectors: np.ndarray, reference: tuple[list[str], np.ndarray]
) -> None:
    cos = np.sum(vectors * reference[1], axis=1)
    assert float(cos.mean()) >= 0.999, f"mean cos {cos.mean():.5f}"
    assert float(cos.min()) >= 0.997, f"min cos {cos.min():.5f}"


def test_rows_are_unit_norm_float32(embedder: Embedder, vectors: np.ndarray) -> None:
    assert vectors.dtype == np.float32 and vectors.shape == (200, embedder.dim)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert embedder.embed([]).shape == (0, embedder.dim)


def test_deterministic_across_calls(
    embedder: Embedder, vectors: np.ndarray, reference: tuple[list[str], np.ndarray]
) -> None:
    again = embedder.embed(reference[0], batch_size=32)
    np.testing.assert_allclose(again, vectors, atol=1e-6)


def test_batch_size_invariance(
    embedder: Embedder, vectors: np.ndarray, reference: tuple[list[str], np.ndarray]
) -> None:
    texts, ref = reference[0][::5], reference[1][::5]
    ones = embedder.embed(texts, batch_size=1)
    progress: list[int] = []
    threes = embedder.embed(texts, batch_size=3, progress=progress.append)
    assert sum(progress) == len(texts) and max(progress) == 3
    # The int8 layers quantise activations per run, so batch-mates move a vector by a
    # hair (cos ~0.9995); each batching must still keep parity with the reference.
    for out in (ones, threes):
        cos = np.sum(out * vectors[::5], axis=1)
        assert float(cos.mean()) >= 0.999 and float(cos.min()) >= 0.997
        assert float(np.sum(out * ref, axis=1).mean()) >= 0.999


def test_order_of_inputs_is_kept(embedder: Embedder, vectors: np.ndarray) -> None:
    # Texts are length-sorted internally; each row must still come back in its place.
    assert float(np.sum(vectors[:10] * vectors[10:20], axis=1).max()) < 0.99
    q = embedder.embed(["how do I add a text-to-speech service", "PipelineTask"])
    assert q.shape == (2, 384) and float(q[0] @ q[1]) < 0.9


def test_usable_from_several_threads(
    embedder: Embedder, vectors: np.ndarray, reference: tuple[list[str], np.ndarray]
) -> None:
    texts = reference[0][:24]
    results: dict[int, np.ndarray] = {}

    def work(i: int) -> None:
        results[i] = embedder.embed(texts, batch_size=8)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for out in results.values():
        np.testing.assert_allclose(out, embedder.embed(texts, batch_size=8), atol=1e-6)
    assert len(results) == 3


def test_cached_graph_is_reused(embedder: Embedder, home: Path) -> None:
    assert isinstance(embedder, MiniLMEmbedder)
    graph = home / "models" / embedder.variant.name / "model.onnx"
    before = graph.stat().st_mtime_ns
    fresh = load_default_embedder(home)
    fresh.embed(["warm start"])
    assert graph.stat().st_mtime_ns == before
    assert fresh.id == embedder.id


def test_fp32_variant_matches_exactly(home: Path, reference: tuple[list[str], np.ndarray]) -> None:
    texts, ref = reference[0][::4], reference[1][::4]
    fp32 = MiniLMEmbedder(home, variant="fp32")
    out = fp32.embed(texts)
    assert float(np.sum(out * ref, axis=1).min()) >= 0.99999
    # Without quantisation, batching changes nothing beyond float rounding.
    np.testing.assert_allclose(fp32.embed(texts, batch_size=1), out, atol=1e-5)


def test_no_torch_at_run_time(vectors: np.ndarray) -> None:
    assert "torch" not in sys.modules
