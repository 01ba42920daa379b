"""Build the all-MiniLM-L6-v2 ONNX graph from the packaged safetensors.

No exporter and no torch: the BERT encoder is written out node by node with the onnx
helper API, directly in onnxruntime's contrib ops (com.microsoft) where they measured
faster, so no optimiser pass is needed and a build takes about a second:

    EmbedLayerNormalization (word + position + token-type 0, LayerNorm, mask -> lengths)
    6 x [ Attention (QKV GEMM + 12-head attention; or QKV MatMul + MultiHeadAttention)
          -> out MatMul -> Add + LayerNormalization
          -> FFN-in MatMul -> Gelu (erf) -> FFN-out MatMul -> Add + LayerNormalization ]
    mean pooling over the attention mask -> L2 normalisation

A `Variant` says how each linear layer is stored: fp32, per-channel int8 with dynamic
activation quantisation (`DynamicQuantizeMatMul`), or blockwise weight-only
(`MatMulNBits`). The int8 refinements (outlier scaling/splitting) are in `onnx_quant`.
docs/embedding.md has the measurements behind the variants and the default.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from ctxhub.core.errors import EmbedderError
from ctxhub.embed import onnx_quant as oq
from ctxhub.embed.model_files import INSTALL_HINT
from ctxhub.embed.onnx_quant import F32
from ctxhub.embed.session import session_options
from ctxhub.embed.variants import VARIANTS, Quant, Variant

MS = "com.microsoft"


@dataclass(frozen=True)
class BertConfig:
    hidden: int
    heads: int
    layers: int
    eps: float

    @classmethod
    def load(cls, path: Path) -> BertConfig:
        cfg = json.loads(path.read_text(encoding="utf-8"))
        if cfg.get("model_type") != "bert" or cfg.get("hidden_act") != "gelu":
            raise EmbedderError(
                f"{path}: expected a BERT model with erf GELU; "
                f"reinstall the model: {INSTALL_HINT} --force-reinstall"
            )
        return cls(
            hidden=int(cfg["hidden_size"]),
            heads=int(cfg["num_attention_heads"]),
            layers=int(cfg["num_hidden_layers"]),
            eps=float(cfg["layer_norm_eps"]),
        )


class _Graph:
    """Accumulates nodes and initializers; node names double as output names."""

    def __init__(self, variant: Variant, amax: dict[str, F32] | None, eps: float) -> None:
        self.variant = variant
        self.eps = eps
        self.amax = amax or {}
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[TensorProto] = []
        #: "l{layer}.{role}" -> the tensor feeding that linear layer (calibration taps).
        self.taps: dict[str, str] = {}

    def const(self, name: str, value: Any) -> str:
        self.inits.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def node(self, op: str, inputs: list[str], name: str, domain: str = "", **attrs: Any) -> str:
        return self.multi(op, inputs, name, 1, domain, **attrs)[0]

    def multi(
        self, op: str, inputs: list[str], name: str, n_out: int, domain: str = "", **attrs: Any
    ) -> list[str]:
        while inputs and not inputs[-1]:  # trailing optional inputs are left off
            inputs = inputs[:-1]
        outs = [name] if n_out == 1 else [f"{name}:{i}" for i in range(n_out)]
        self.nodes.append(helper.make_node(op, inputs, outs, name=name, domain=domain, **attrs))
        return outs

    def add_ln(self, y: str, skip: str, bias: str, gamma: F32, beta: F32, name: str) -> str:
        """LayerNorm(y + bias + skip), a BERT block's residual.

        Plain Add + LayerNormalization measured ~3x faster on CPU than the fused
        SkipLayerNormalization (so the session must not re-fuse it: `session_options`).
        """
        if bias:
            y = self.node("Add", [y, bias], f"{name}.bias")
        y = self.node("Add", [y, skip], f"{name}.res")
        ins = [y, self.const(f"{name}.g", gamma), self.const(f"{name}.b", beta)]
        return self.node("LayerNormalization", ins, name, axis=-1, epsilon=self.eps)

    def linear(self, x: str, w: F32, b: F32, name: str, tap: str, method: Quant) -> tuple[str, str]:
        """x @ w.T (+ b) for a torch-layout weight (out, in).

        Returns (output, pending bias): an fp32 MatMul leaves the bias to the next Add;
        the quantised ops add it themselves.
        """
        self.taps.setdefault(tap, x)
        wt = np.ascontiguousarray(w.T)  # (K, N)
        bias = self.const(f"{name}.b", b)
        v = self.variant
        if method == "fp32":
            return self.node("MatMul", [x, self.const(f"{name}.w", wt)], name), bias
        if method == "nbits":
            packed, scales = oq.quantize_blockwise(wt, v.bits, v.block_size)
            ins = [x, self.const(f"{name}.q", packed), self.const(f"{name}.s", scales), "", ""]
            attrs = {"K": wt.shape[0], "N": wt.shape[1], "bits": v.bits}
            y = self.node(
                "MatMulNBits", [*ins, bias], name, MS, block_size=v.block_size,
                accuracy_level=v.accuracy_level, **attrs,
            )  # fmt: skip
            return y, ""
        smooth = None
        if v.smooth is not None and tap in self.amax and not tap.endswith("ffn_out"):
            smooth = oq.outlier_scales(self.amax[tap], v.smooth)
        if smooth is not None:
            x = self.node("Mul", [x, self.const(f"{name}.sm.c", 1.0 / smooth)], f"{name}.sm")
            wt = (wt * smooth[:, None]).astype(np.float32)
        q, scale = oq.quantize_per_channel(wt)
        weights, zp = oq.stored_weights(q)
        zero_point = self.const(f"{name}.zp", zp) if zp is not None else ""
        ins = [x, self.const(f"{name}.q", weights), self.const(f"{name}.s", scale), zero_point]
        return self.node("DynamicQuantizeMatMul", [*ins, bias], name, MS), ""

    def ffn(self, x: str, i: int, w: dict[str, F32]) -> tuple[str, str]:
        """FFN-in -> GELU -> FFN-out, with int8 FFN-out's outlier channels split off."""
        p = f"encoder.layer.{i}."
        w1, b1 = w[p + "intermediate.dense.weight"], w[p + "intermediate.dense.bias"]
        w2, b2 = w[p + "output.dense.weight"], w[p + "output.dense.bias"]
        v, tap = self.variant, f"l{i}.ffn_out"
        extra = ""
        if v.method(i, "ffn_out") == "int8" and v.split is not None and tap in self.amax:
            out = oq.outlier_channels(self.amax[tap], v.split)
            if out.size:
                keep = np.setdiff1d(np.arange(w1.shape[0]), out)
                h = self.node("MatMul", [x, self.const(f"l{i}.fx.w", w1[out].T)], f"l{i}.fx")
                h = self.node("Add", [h, self.const(f"l{i}.fx.b", b1[out])], f"l{i}.fx.bias")
                h = self.node("Gelu", [h], f"l{i}.fx.gelu", MS)
                extra = self.node("MatMul", [h, self.const(f"l{i}.fy.w", w2[:, out].T)], f"l{i}.fy")
                w1, b1, w2 = w1[keep], b1[keep], w2[:, keep]
        f, bias = self.linear(x, w1, b1, f"l{i}.fi", f"l{i}.ffn_in", v.method(i, "ffn_in"))
        if bias:  # Add + Gelu measured faster than the fused BiasGelu
            f = self.node("Add", [f, bias], f"l{i}.fi.bias")
        f = self.node("Gelu", [f], f"l{i}.gelu", MS)
        y, bias = self.linear(f, w2, b2, f"l{i}.fo", tap, v.method(i, "ffn_out"))
        if extra:
            y = self.node("Add", [y, extra], f"l{i}.fo.split")
        return y, bias


def build_model(
    model_dir: Path, variant: Variant, amax: dict[str, F32] | None = None
) -> tuple[onnx.ModelProto, dict[str, str]]:
    """The encoder + pooling graph: (input_ids, attention_mask) int32 -> (B, hidden).

    Returns the model and its calibration taps. `amax` (per-channel activation maxima,
    from `calibrate`) enables the int8 outlier handling of calibrated variants.
    """
    from safetensors.numpy import load_file

    cfg = BertConfig.load(model_dir / "config.json")
    w: dict[str, F32] = load_file(str(model_dir / "model.safetensors"))
    g = _Graph(variant, amax, cfg.eps)

    # Token type is always 0 for single texts: fold its row into the position table.
    emb = "embeddings."
    pos = w[emb + "position_embeddings.weight"] + w[emb + "token_type_embeddings.weight"][0]
    ins = ["input_ids", "", g.const("emb.word", w[emb + "word_embeddings.weight"])]
    ins += [g.const("emb.pos", pos), "", g.const("emb.g", w[emb + "LayerNorm.weight"])]
    ins += [g.const("emb.b", w[emb + "LayerNorm.bias"]), "attention_mask"]
    x, lengths = g.multi("EmbedLayerNormalization", ins, "emb", 2, MS, epsilon=cfg.eps)

    for i in range(cfg.layers):
        p = f"encoder.layer.{i}."
        att, out = p + "attention.self.", p + "attention.output."
        wqkv = np.concatenate([w[att + n + ".weight"] for n in ("query", "key", "value")])
        bqkv = np.concatenate([w[att + n + ".bias"] for n in ("query", "key", "value")])
        method = variant.method(i, "qkv")
        if method == "fp32":  # one fused op: QKV GEMM + attention, measured fastest
            g.taps.setdefault(f"l{i}.qkv", x)
            ins = [x, g.const(f"l{i}.qkv.w", wqkv.T), g.const(f"l{i}.qkv.b", bqkv), lengths]
            ctx = g.node("Attention", ins, f"l{i}.att", MS, num_heads=cfg.heads)
        else:
            qkv, bias = g.linear(x, wqkv, bqkv, f"l{i}.qkv", f"l{i}.qkv", method)
            q, k, v = g.multi("Split", [qkv], f"l{i}.split", 3, axis=2, num_outputs=3)
            ins = [q, k, v, bias, lengths]
            ctx = g.node("MultiHeadAttention", ins, f"l{i}.mha", MS, num_heads=cfg.heads)
        wo, bo = w[out + "dense.weight"], w[out + "dense.bias"]
        y, bias = g.linear(ctx, wo, bo, f"l{i}.ao", f"l{i}.attn_out", variant.method(i, "attn_out"))
        ln = out + "LayerNorm."
        x = g.add_ln(y, x, bias, w[ln + "weight"], w[ln + "bias"], f"l{i}.ln1")
        y, bias = g.ffn(x, i, w)
        ln = p + "output.LayerNorm."
        x = g.add_ln(y, x, bias, w[ln + "weight"], w[ln + "bias"], f"l{i}.ln2")

    # Mean pooling as one batched MatMul, (B,1,S) mask x (B,S,H) states, then L2.
    m = g.node("Cast", ["attention_mask"], "mask.f", to=TensorProto.FLOAT)
    m3 = g.node("Unsqueeze", [m, g.const("ax1", np.array([1], np.int64))], "mask.u")
    s = g.node("Squeeze", [g.node("MatMul", [m3, x], "pool.sum"), "ax1"], "pool.sq")
    n = g.node("ReduceSum", [m, "ax1"], "pool.n", keepdims=1)
    n = g.node("Max", [n, g.const("tiny", np.array(1e-9, np.float32))], "pool.nc")
    mean = g.node("Div", [s, n], "pool.mean")
    norm = g.node("ReduceL2", [mean, "ax1"], "l2", keepdims=1)
    norm = g.node("Max", [norm, g.const("eps", np.array(1e-12, np.float32))], "l2.c")
    g.node("Div", [mean, norm], "embeddings")

    ids_t = helper.make_tensor_value_info("input_ids", TensorProto.INT32, ["batch", "seq"])
    mask_t = helper.make_tensor_value_info("attention_mask", TensorProto.INT32, ["batch", "seq"])
    out_t = helper.make_tensor_value_info("embeddings", TensorProto.FLOAT, ["batch", cfg.hidden])
    graph = helper.make_graph(g.nodes, f"minilm-{variant.name}", [ids_t, mask_t], [out_t], g.inits)
    opsets = [helper.make_opsetid("", 18), helper.make_opsetid(MS, 1)]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="ctxhub")
    model.ir_version = 9
    return model, g.taps


def calibrate(model_dir: Path) -> dict[str, F32]:
    """Per-channel activation maxima at every linear layer's input, from the fp32 graph."""
    import onnxruntime as ort

    model, taps = build_model(model_dir, VARIANTS["fp32"])
    known = {o.name for o in model.graph.output}
    for name in dict.fromkeys(taps.values()):
        if name not in known:
            model.graph.output.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, None))
    sess = ort.InferenceSession(
        model.SerializeToString(), session_options(0), providers=["CPUExecutionProvider"]
    )
    return oq.channel_absmax(sess, taps)


def build_variant(model_dir: Path, variant: Variant) -> onnx.ModelProto:
    """build_model, calibrating first when the variant needs it."""
    amax = calibrate(model_dir) if variant.calibrated else None
    return build_model(model_dir, variant, amax)[0]
