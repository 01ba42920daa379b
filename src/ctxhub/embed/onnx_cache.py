"""Build the embedding graph once and keep it under `<home>/models/<variant>/`.

`model.onnx` sits next to `model.onnx.json`, which records the build recipe, the identity
of the packaged weights it came from and the graph's sha256. Anything that does not match
(a new recipe, a reinstalled model package, a truncated or edited file) is rebuilt. Both
files are written to a temp file and renamed into place, so a reader never sees half a
graph; two processes racing to build write identical bytes, so either rename may win.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from ctxhub.core.errors import EmbedderError
from ctxhub.embed.model_files import INSTALL_HINT
from ctxhub.embed.variants import Variant


def build_variant(model_dir: Path, variant: Variant) -> bytes:
    """The serialised graph. The `onnx` package (~1 s to import) loads only here."""
    from ctxhub.embed import onnx_graph

    data: bytes = onnx_graph.build_variant(model_dir, variant).SerializeToString()
    return data


def cache_paths(home: Path, variant: Variant) -> tuple[Path, Path]:
    folder = home / "models" / variant.name
    return folder / "model.onnx", folder / "model.onnx.json"


def source_identity(model_dir: Path) -> dict[str, int]:
    """Cheap identity of the packaged weights: a reinstall changes size or mtime."""
    out: dict[str, int] = {}
    for name in ("model.safetensors", "config.json"):
        st = (model_dir / name).stat()
        out[name] = st.st_size
        out[f"{name}.mtime_ns"] = st.st_mtime_ns
    return out


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _atomic_write(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _is_current(path: Path, sidecar: Path, expected: dict[str, Any]) -> bool:
    try:
        meta = json.loads(sidecar.read_text(encoding="utf-8"))
        if any(meta.get(k) != v for k, v in expected.items()):
            return False
        return bool(meta.get("sha256") == _sha256(path))
    except (OSError, ValueError, AttributeError):
        return False  # missing, unreadable or not our format


def cached_model(home: Path, model_dir: Path, variant: Variant) -> Path:
    """Path of a valid cached graph for `variant`, building it first when needed."""
    path, sidecar = cache_paths(home, variant)
    expected = {**variant.recipe(), "source": source_identity(model_dir)}
    if _is_current(path, sidecar, expected):
        return path
    try:
        data = build_variant(model_dir, variant)
    except EmbedderError:
        raise
    except Exception as e:  # safetensors/onnx/ORT errors share no base class
        raise EmbedderError(
            f"cannot build the embedding graph from {model_dir}: {e}; "
            f"reinstall the model: {INSTALL_HINT} --force-reinstall"
        ) from e
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Graph first, sidecar last: a crash in between leaves a sidecar that won't match.
        _atomic_write(path, data)
        meta = {**expected, "sha256": hashlib.sha256(data).hexdigest()}
        _atomic_write(sidecar, (json.dumps(meta, indent=1) + "\n").encode("utf-8"))
    except OSError as e:
        raise EmbedderError(f"cannot write the embedding graph cache {path}: {e}") from e
    return path
