"""Weight quantisation for the hand-built MiniLM graph, and the calibration it needs.

Two storage formats, both symmetric:

- per-output-channel int8 for `DynamicQuantizeMatMul`, which quantises its input per
  tensor at run time (uint8) and multiplies with VNNI: ~2.5x an fp32 MatMul here;
- blockwise 8/4-bit along K for `MatMulNBits` (weight-only, optionally int8 compute).

Per-tensor activation quantisation is what costs accuracy: a handful of channels of the
BERT residual stream carry values 5-15x the rest (channel 99 reaches ~30 in every layer),
so one scale for the whole tensor wastes most of the 8 bits. Two remedies, both measured
on the parity set (docs/embedding.md):

- LayerNorm-fed inputs (QKV, FFN-in): divide the outlier channels down to a threshold
  with one Mul and scale the matching weight rows up (SmoothQuant limited to outliers;
  the full SmoothQuant migration made it worse, as the weights are per-channel too);
- FFN-out: its outlier channels also have weight rows ~50x the median, so scaling
  cannot help; they are split off and computed in fp32 instead (LLM.int8()-style).

Which channels are outliers is found by running the fp32 graph once on fixed pseudo-random
token ids: the outliers are structural (the same channels light up for any input).

How the int8 weights are stored depends on the CPU, never the result: with VNNI, ORT
multiplies uint8 x int8 exactly; without it (AVX2), its uint8 x int8 kernel sums pairs
into saturating int16 (vpmaddubsw) and loses accuracy (mean cos 0.998 instead of 0.9995),
so the weights are stored as uint8 around a zero point of 128, which ORT multiplies
exactly there. Both give the same integers, hence the same vectors and the same model id.
"""

from __future__ import annotations

import platform
from functools import cache
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]

#: Calibration batch: enough tokens to reach each channel's typical maximum.
CALIB_SHAPE = (16, 128)
CALIB_SEED = 20240611
#: First "real" WordPiece id of the bert-base-uncased vocab (below: [unused], punctuation).
CALIB_LOW_ID = 1996


def quantize_per_channel(wt: F32) -> tuple[npt.NDArray[np.int8], F32]:
    """Symmetric int8 per output column of a (K, N) weight; zero point 0."""
    scale = (np.abs(wt).max(axis=0) / 127.0).astype(np.float32)
    scale = np.where(scale == 0, np.float32(1.0), scale).astype(np.float32)
    q = np.clip(np.rint(wt / scale), -127, 127).astype(np.int8)
    return q, scale


#: uint8 weights carry this zero point (int8 value + 128).
U8_ZERO_POINT = 128
WeightStorage = Literal["s8", "u8"]


@cache
def int8_weight_storage(cpuinfo: Path = Path("/proc/cpuinfo")) -> WeightStorage:
    """ "s8" where ORT's uint8 x int8 product is exact (x86 with VNNI), else "u8"."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return "u8"
    try:
        flags = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "u8"  # unknown: the storage that is exact everywhere
    return "s8" if ("avx512_vnni" in flags or "avx_vnni" in flags) else "u8"


def as_uint8(q: npt.NDArray[np.int8]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """int8 weights shifted to uint8, and the per-column zero point that undoes it."""
    shifted = (q.astype(np.int16) + U8_ZERO_POINT).astype(np.uint8)
    return shifted, np.full(q.shape[1], U8_ZERO_POINT, np.uint8)


def stored_weights(q: npt.NDArray[np.int8]) -> tuple[npt.NDArray[Any], npt.NDArray[Any] | None]:
    """The weights `DynamicQuantizeMatMul` gets on this CPU, and their zero point (or None)."""
    return as_uint8(q) if int8_weight_storage() == "u8" else (q, None)


def quantize_blockwise(wt: F32, bits: int, block: int) -> tuple[npt.NDArray[np.uint8], F32]:
    """Symmetric blockwise quantisation along K in MatMulNBits' layout.

    B is (N, K/block, block*bits/8) uint8 around the default zero point 2^(bits-1), so no
    zero-point tensor is stored; scales are (N * K/block,).
    """
    k, n = wt.shape
    if k % block or bits not in (4, 8):
        raise ValueError(f"unsupported MatMulNBits shape K={k} block={block} bits={bits}")
    qmax = 2 ** (bits - 1) - 1
    blocks = wt.T.reshape(n, k // block, block)  # per output column, runs along K
    scales = np.abs(blocks).max(axis=2, keepdims=True) / qmax
    scales = np.where(scales == 0, 1.0, scales).astype(np.float32)
    q = np.clip(np.rint(blocks / scales), -qmax - 1, qmax).astype(np.int32) + 2 ** (bits - 1)
    packed = q.astype(np.uint8)
    if bits == 4:  # two values a byte, the first in the low nibble
        packed = (packed[..., 0::2] | (packed[..., 1::2] << 4)).astype(np.uint8)
    return np.ascontiguousarray(packed), scales.reshape(-1).astype(np.float32)


def outlier_scales(amax: F32, threshold: float) -> F32 | None:
    """Per-channel divisors bringing channels above `threshold` x median down to it.

    None when no channel is that far out (then no Mul is worth adding).
    """
    limit = threshold * float(np.median(amax))
    scale = np.maximum(1.0, amax / limit).astype(np.float32)
    return scale if bool((scale > 1.0).any()) else None


def outlier_channels(amax: F32, threshold: float, most: int = 8) -> npt.NDArray[np.int64]:
    """Indices of at most `most` channels above `threshold` x median, largest first."""
    limit = threshold * float(np.median(amax))
    order = np.argsort(-amax, kind="stable")[:most]
    return np.sort(order[amax[order] > limit]).astype(np.int64)


def calibration_feed() -> dict[str, npt.NDArray[np.int32]]:
    """Fixed pseudo-random [CLS] ... [SEP] sequences (deterministic; no data needed)."""
    rng = np.random.default_rng(CALIB_SEED)
    ids = rng.integers(CALIB_LOW_ID, 30522, CALIB_SHAPE).astype(np.int32)
    ids[:, 0], ids[:, -1] = 101, 102  # [CLS], [SEP]
    return {"input_ids": ids, "attention_mask": np.ones(CALIB_SHAPE, np.int32)}


def channel_absmax(session: Any, taps: dict[str, str]) -> dict[str, F32]:
    """Per-channel max |activation| at each tapped tensor, over the calibration batch."""
    names = list(taps.values())
    outs = session.run(names, calibration_feed())
    return {
        key: np.abs(out).reshape(-1, out.shape[-1]).max(axis=0).astype(np.float32)
        for key, out in zip(taps, outs, strict=True)
    }
