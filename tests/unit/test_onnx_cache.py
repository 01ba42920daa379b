"""The graph cache: built once, reused, rebuilt when stale or corrupt, written atomically."""

from __future__ import annotations

import json
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

from ctxhub.core.errors import EmbedderError
from ctxhub.embed import onnx_cache
from ctxhub.embed.variants import VARIANTS, Variant


def _tiny_model(tag: str) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])
    graph = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], tag, [x], [x])
    return helper.make_model(graph)


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """Replace the real build (a second each) with a counted tiny one."""
    calls: list[str] = []

    def fake_build(model_dir: Path, variant: Variant) -> bytes:
        calls.append(variant.name)
        return _tiny_model(variant.name).SerializeToString()

    monkeypatch.setattr(onnx_cache, "build_variant", fake_build)
    return calls


@pytest.fixture
def model_dir(tmp_path: Path) -> Path:
    d = tmp_path / "pkg"
    d.mkdir()
    (d / "model.safetensors").write_bytes(b"weights")
    (d / "config.json").write_text("{}")
    return d


def test_builds_once_then_reuses(tmp_path: Path, model_dir: Path, builds: list[str]) -> None:
    variant = VARIANTS["fp32"]
    path = onnx_cache.cached_model(tmp_path / "home", model_dir, variant)
    assert path == tmp_path / "home" / "models" / "fp32" / "model.onnx"
    assert onnx_cache.cached_model(tmp_path / "home", model_dir, variant) == path
    assert builds == ["fp32"]
    meta = json.loads(path.with_name("model.onnx.json").read_text())
    assert meta["recipe"] == variant.recipe()["recipe"] and len(meta["sha256"]) == 64
    assert not [p for p in path.parent.iterdir() if p.suffix == ".tmp"]


def test_corrupt_graph_is_rebuilt(tmp_path: Path, model_dir: Path, builds: list[str]) -> None:
    path = onnx_cache.cached_model(tmp_path, model_dir, VARIANTS["fp32"])
    path.write_bytes(path.read_bytes()[:-3])  # truncated
    onnx_cache.cached_model(tmp_path, model_dir, VARIANTS["fp32"])
    assert builds == ["fp32", "fp32"]
    onnx.checker.check_model(str(path))


def test_missing_or_garbled_sidecar_is_rebuilt(
    tmp_path: Path, model_dir: Path, builds: list[str]
) -> None:
    path = onnx_cache.cached_model(tmp_path, model_dir, VARIANTS["fp32"])
    sidecar = path.with_name("model.onnx.json")
    sidecar.write_text("[not, json")
    onnx_cache.cached_model(tmp_path, model_dir, VARIANTS["fp32"])
    sidecar.unlink()
    onnx_cache.cached_model(tmp_path, model_dir, VARIANTS["fp32"])
    assert builds == ["fp32"] * 3


def test_new_recipe_or_reinstalled_weights_rebuild(
    tmp_path: Path, model_dir: Path, builds: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    onnx_cache.cached_model(tmp_path, model_dir, VARIANTS["fp32"])
    (model_dir / "model.safetensors").write_bytes(b"other weights")  # size changes
    onnx_cache.cached_model(tmp_path, model_dir, VARIANTS["fp32"])
    monkeypatch.setattr("ctxhub.embed.variants.RECIPE_VERSION", 10_000)
    onnx_cache.cached_model(tmp_path, model_dir, VARIANTS["fp32"])
    assert builds == ["fp32"] * 3


def test_variants_are_cached_apart(tmp_path: Path, model_dir: Path, builds: list[str]) -> None:
    a = onnx_cache.cached_model(tmp_path, model_dir, VARIANTS["fp32"])
    b = onnx_cache.cached_model(tmp_path, model_dir, VARIANTS["int8-mixed"])
    assert a != b and a.is_file() and b.is_file()


def test_build_failure_is_an_embedder_error(
    tmp_path: Path, model_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(model_dir: Path, variant: Variant) -> bytes:
        raise RuntimeError("header too large")

    monkeypatch.setattr(onnx_cache, "build_variant", broken)
    with pytest.raises(EmbedderError, match="--force-reinstall"):
        onnx_cache.cached_model(tmp_path, model_dir, VARIANTS["fp32"])
    assert not list(tmp_path.rglob("model.onnx"))
