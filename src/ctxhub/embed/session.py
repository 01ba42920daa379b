"""onnxruntime session settings, shared by calibration (graph build) and serving."""

from __future__ import annotations

from typing import Any


def session_options(threads: int) -> Any:
    """CPU session settings used for both calibration and serving."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    # The graph is fused by hand; ORT's extended fusions would re-create the slower
    # SkipLayerNormalization / BiasGelu, so only basic (constant folding etc.) runs.
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    return opts
