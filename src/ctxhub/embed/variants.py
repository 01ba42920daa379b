"""How the embedding graph's linear layers may be stored (the variants) and the default.

Pure data, no onnx: the embedder reads a variant's name and recipe on every start, while
only a (re)build of the cached graph needs the `onnx` package (`onnx_graph`).
docs/embedding.md has the measurements behind the variants and the default.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

#: Bump when the graph or the quantisation changes: cached graphs are then rebuilt.
RECIPE_VERSION = 1
Quant = Literal["fp32", "int8", "nbits"]
#: The four linear layers of a BERT block.
Role = Literal["qkv", "attn_out", "ffn_in", "ffn_out"]
ROLES: tuple[Role, ...] = ("qkv", "attn_out", "ffn_in", "ffn_out")


def _int8_weight_storage() -> str:
    from ctxhub.embed.onnx_quant import int8_weight_storage  # numpy: only for a recipe

    return int8_weight_storage()


@dataclass(frozen=True)
class Variant:
    """How the linear layers are stored and multiplied.

    Every linear layer uses `quant`, except those named in `alt_at` ("role" for every
    layer, "role@layer" for one), which use `alt_quant`.
    """

    name: str
    quant: Quant = "fp32"
    alt_quant: Quant = "fp32"
    alt_at: frozenset[str] = field(default_factory=frozenset)
    #: int8 only: scale LayerNorm-fed outlier channels down to this x their median max.
    smooth: float | None = None
    #: int8 only: compute FFN-out channels above this x median max in fp32.
    split: float | None = None
    #: MatMulNBits only: bits, block along K, compute type (0 = fp32, 4 = int8).
    bits: int = 8
    block_size: int = 32
    accuracy_level: int = 0

    def method(self, layer: int, role: Role) -> Quant:
        if role in self.alt_at or f"{role}@{layer}" in self.alt_at:
            return self.alt_quant
        return self.quant

    @property
    def calibrated(self) -> bool:
        return self.smooth is not None or self.split is not None

    def recipe(self) -> dict[str, Any]:
        """Everything that determines the built graph (goes into the cache sidecar)."""
        return {
            "recipe": RECIPE_VERSION,
            "name": self.name,
            "quant": self.quant,
            "alt_quant": self.alt_quant,
            "alt_at": sorted(self.alt_at),
            "smooth": self.smooth,
            "split": self.split,
            "bits": self.bits,
            "block_size": self.block_size,
            "accuracy_level": self.accuracy_level,
            # Same vectors either way; the cached graph must match this CPU's storage.
            "int8_weights": _int8_weight_storage()
            if self.quant == "int8" or self.alt_quant == "int8"
            else None,
        }


def _layers(
    roles: tuple[Role, ...], layers: range, *, skip: tuple[str, ...] = ()
) -> frozenset[str]:
    return frozenset(f"{r}@{i}" for r in roles for i in layers) - set(skip)


_FFN: tuple[Role, ...] = ("attn_out", "ffn_in", "ffn_out")
VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("fp32"),
        Variant("w8", quant="nbits"),
        Variant("w8a8", quant="nbits", accuracy_level=4),
        Variant("int8", quant="int8"),
        Variant("int8-os", quant="int8", smooth=4.0, split=4.0),
        Variant("int8-ffn", alt_quant="int8", alt_at=frozenset(_FFN), smooth=4.0, split=4.0),
        # The default: attention projections and the FFNs most sensitive to int8 stay fp32.
        Variant(
            "int8-mixed",
            alt_quant="int8",
            alt_at=_layers(
                _FFN, range(6), skip=("ffn_in@0", "ffn_in@3", "ffn_in@4", "ffn_out@3", "ffn_out@4")
            ),
            smooth=4.0,
            split=4.0,
        ),
    )
}
DEFAULT_VARIANT = "int8-mixed"
