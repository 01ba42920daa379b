"""The weight packings match what onnxruntime's kernels decode, and the outlier helpers."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from ctxhub.embed import onnx_quant as oq

RNG = np.random.default_rng(7)
K, N, M = 64, 48, 5


def _run(node: Any, inits: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    graph = helper.make_graph(
        [node],
        "t",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [M, K])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(v, k) for k, v in inits.items()],
    )
    opsets = [helper.make_opsetid("", 18), helper.make_opsetid("com.microsoft", 1)]
    model = helper.make_model(graph, opset_imports=opsets)
    model.ir_version = 9
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    out: np.ndarray = sess.run(None, {"x": x})[0]
    return out


def test_blockwise_8bit_packing_matches_matmulnbits() -> None:
    w = RNG.standard_normal((K, N)).astype(np.float32)
    x = RNG.standard_normal((M, K)).astype(np.float32)
    packed, scales = oq.quantize_blockwise(w, bits=8, block=16)
    assert packed.shape == (N, K // 16, 16)
    node = helper.make_node(
        "MatMulNBits", ["x", "q", "s"], ["y"], domain="com.microsoft",
        K=K, N=N, bits=8, block_size=16,
    )  # fmt: skip
    y = _run(node, {"q": packed, "s": scales}, x)
    # Decode the packing by hand: a wrong layout would scramble rows and fail this.
    deq = (packed.astype(np.float32) - 128) * scales.reshape(N, K // 16, 1)
    np.testing.assert_allclose(y, x @ deq.reshape(N, K).T, rtol=1e-4, atol=1e-4)
    assert np.linalg.norm(y - x @ w) / np.linalg.norm(x @ w) < 0.01


def test_per_channel_int8_matches_dynamic_quantize_matmul() -> None:
    w = RNG.standard_normal((K, N)).astype(np.float32)
    w[:, 3] *= 50  # a loud column must keep its own scale (per output channel)
    x = RNG.standard_normal((M, K)).astype(np.float32)
    q, scale = oq.quantize_per_channel(w)
    assert q.dtype == np.int8 and scale.shape == (N,)
    weights, zp = oq.stored_weights(q)  # the storage this CPU multiplies exactly
    inits = {"q": weights, "s": scale} | ({"zp": zp} if zp is not None else {})
    node = helper.make_node(
        "DynamicQuantizeMatMul", list(["x", *inits]), ["y"], domain="com.microsoft"
    )
    y = _run(node, inits, x)
    # Emulate the kernel: x to uint8 over its own range (per tensor), times q * scale.
    lo, hi = min(float(x.min()), 0.0), max(float(x.max()), 0.0)
    xs = (hi - lo) / 255
    zp = np.rint(-lo / xs)
    xq = (np.clip(np.rint(x / xs) + zp, 0, 255) - zp) * xs
    np.testing.assert_allclose(y, xq @ (q * scale), rtol=1e-3, atol=1e-3 * float(np.abs(y).max()))


def test_outlier_scales_only_touch_outliers() -> None:
    amax = np.array([1.0, 2.0, 1.5, 30.0, 2.0], np.float32)  # median 2
    scale = oq.outlier_scales(amax, threshold=4.0)
    assert scale is not None
    np.testing.assert_allclose(scale, [1, 1, 1, 30 / 8, 1])
    assert oq.outlier_scales(np.ones(8, np.float32), threshold=4.0) is None


def test_outlier_channels_are_capped_and_sorted() -> None:
    amax = np.ones(100, np.float32)
    amax[[70, 5, 40]] = [20.0, 30.0, 10.0]
    np.testing.assert_array_equal(oq.outlier_channels(amax, 4.0), [5, 40, 70])
    np.testing.assert_array_equal(oq.outlier_channels(amax, 4.0, most=2), [5, 70])


def test_calibration_feed_is_fixed() -> None:
    a, b = oq.calibration_feed(), oq.calibration_feed()
    np.testing.assert_array_equal(a["input_ids"], b["input_ids"])
    assert (a["input_ids"][:, 0] == 101).all() and (a["input_ids"][:, -1] == 102).all()


def test_uint8_weights_are_exact_where_int16_pairs_would_saturate() -> None:
    # Activations near the top of their uint8 range times weights near +-127: a pair of
    # products sums past int16, which AVX2's uint8 x int8 kernel saturates. The uint8
    # storage (zero point 128) must give the exact product on every CPU.
    w = np.full((K, N), 1.0, np.float32)
    w[::2] = -1.0
    w[:, 0] = 1.0  # a column of all-positive weights: every pair is 2 x 255 x 127
    x = np.abs(RNG.standard_normal((M, K))).astype(np.float32) + 4.0
    q, scale = oq.quantize_per_channel(w)
    weights, zp = oq.as_uint8(q)
    assert weights.dtype == np.uint8 and zp.shape == (N,) and int(zp[0]) == oq.U8_ZERO_POINT
    node = helper.make_node(
        "DynamicQuantizeMatMul", ["x", "q", "s", "zp"], ["y"], domain="com.microsoft"
    )
    y = _run(node, {"q": weights, "s": scale, "zp": zp}, x)
    xs = float(x.max()) / 255  # all positive: zero point 0
    xq = np.clip(np.rint(x / xs), 0, 255) * xs
    np.testing.assert_allclose(y, xq @ (q * scale), rtol=1e-4, atol=1e-3)


def test_weight_storage_follows_the_cpu_flags(tmp_path: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(oq.platform, "machine", lambda: "x86_64")
    vnni, avx2 = tmp_path / "vnni", tmp_path / "avx2"
    vnni.write_text("flags\t\t: fpu sse avx2 avx512f avx512_vnni\n")
    avx2.write_text("flags\t\t: fpu sse avx2\n")
    assert oq.int8_weight_storage.__wrapped__(vnni) == "s8"
    assert oq.int8_weight_storage.__wrapped__(avx2) == "u8"
    assert oq.int8_weight_storage.__wrapped__(tmp_path / "missing") == "u8"
    monkeypatch.setattr(oq.platform, "machine", lambda: "arm64")
    assert oq.int8_weight_storage.__wrapped__(vnni) == "u8"
