"""Embedding throughput: ctxhub's onnxruntime embedder vs sentence-transformers + torch.

Runs in the reference venv (it needs torch for the comparison):

    .venv-ref/bin/python benchmarks/embed.py [--extra 200] [--write]

Both embed the same real chunks (the 200 parity-fixture texts, plus `--extra` more from
the dev corpus) at the same batch size, in alternating repetitions so machine load hits
both alike; it prints the median texts/s of each, their ratio, single-query latency, and
the cosine between the two (mean/min). `--write` puts the figures in docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from report import write_section  # the sibling module (scripts run from this folder)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
FIXTURE = ROOT / "tests" / "fixtures" / "embed_reference.json"
QUERIES = [
    "how do I add a text-to-speech service to a pipeline",
    "PipelineTask cancel",
    "interruptions with VAD",
    "deploy to pipecat cloud",
]

Embed = Callable[[Sequence[str]], np.ndarray]


def _texts(extra: int) -> list[str]:
    meta = json.loads(FIXTURE.read_text(encoding="utf-8"))
    texts = [str(c["text"]) for c in meta["chunks"]]
    if extra:
        from make_embed_reference import DEFAULT_CORPUS, select_chunks

        texts += [str(c["text"]) for c in select_chunks(DEFAULT_CORPUS, extra, skip=len(texts))]
    return texts


def _median_rate(runs: list[float], n: int) -> float:
    return n / statistics.median(runs)


def _query_ms(embed: Embed, reps: int = 20) -> float:
    times = []
    for i in range(reps):
        t = time.perf_counter()
        embed([QUERIES[i % len(QUERIES)]])
        times.append(time.perf_counter() - t)
    return 1000 * statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--extra", type=int, default=0, help="more corpus chunks beyond the 200")
    ap.add_argument("--variants", default="", help="comma-separated; default: the default")
    ap.add_argument("--write", action="store_true", help="update docs/BENCHMARKS.md")
    ap.add_argument("--doc", type=Path, default=ROOT / "docs" / "BENCHMARKS.md")
    args = ap.parse_args()

    # Only the reference venv has these (the main venv must never get torch).
    import sentence_transformers  # type: ignore[import-not-found, unused-ignore]
    import torch  # type: ignore[import-not-found, unused-ignore]
    from sentence_transformers import (  # type: ignore[import-not-found, unused-ignore]
        SentenceTransformer,
    )

    from ctxhub.embed import DEFAULT_VARIANT, MiniLMEmbedder
    from ctxhub.embed.model_files import model_dir

    texts = _texts(args.extra)
    bs = args.batch_size
    st = SentenceTransformer(str(model_dir()), device="cpu")
    st.max_seq_length = 256

    def st_embed(xs: Sequence[str]) -> np.ndarray:
        out = st.encode(list(xs), batch_size=bs, normalize_embeddings=True)
        return np.asarray(out, dtype=np.float32)

    ours: dict[str, tuple[MiniLMEmbedder, float]] = {}
    home = Path(tempfile.mkdtemp(prefix="ctxhub-bench-"))
    for name in [v for v in args.variants.split(",") if v] or [DEFAULT_VARIANT]:
        emb = MiniLMEmbedder(home, variant=name)
        t = time.perf_counter()
        emb.warm()  # fresh home: this is the one-off graph build + session load
        ours[name] = (emb, time.perf_counter() - t)

    def ours_embed(emb: MiniLMEmbedder) -> Embed:
        return lambda xs: emb.embed(xs, batch_size=bs)

    embeds: dict[str, Embed] = {"sentence-transformers": st_embed}
    for name, (emb, _) in ours.items():
        embeds[name] = ours_embed(emb)
    for fn in embeds.values():  # warm-up: first-call allocations, thread pools
        fn(texts[:bs])
    runs: dict[str, list[float]] = {k: [] for k in embeds}
    vectors: dict[str, np.ndarray] = {}
    for _ in range(args.reps):
        for key, fn in embeds.items():
            t = time.perf_counter()
            vectors[key] = fn(texts)
            runs[key].append(time.perf_counter() - t)

    base = _median_rate(runs["sentence-transformers"], len(texts))
    rows = [("sentence-transformers + torch", base, 1.0, 1.0, 1.0, 0.0, _query_ms(st_embed))]
    for name, (_, build_s) in ours.items():
        rate = _median_rate(runs[name], len(texts))
        cos = np.sum(vectors[name] * vectors["sentence-transformers"], axis=1)
        q_ms = _query_ms(embeds[name])
        rows.append((f"ctxhub onnxruntime `{name}`", rate, rate / base, float(cos.mean()),
                     float(cos.min()), build_s, q_ms))  # fmt: skip

    header = "| embedder | texts/s | vs ST | cos mean | cos min | build s | query ms |"
    lines = [header, "|---|---:|---:|---:|---:|---:|---:|"]
    for label, rate, ratio, cmean, cmin, build_s, q_ms in rows:
        build = f"{build_s:.2f}" if build_s else "-"
        lines.append(
            f"| {label} | {rate:.1f} | {ratio:.2f}x | {cmean:.5f} | {cmin:.5f} | {build} "
            f"| {q_ms:.1f} |"
        )
    cmd = " ".join(["python", "benchmarks/embed.py", *sys.argv[1:]]).replace(" --write", "")
    context = (
        f"{len(texts)} real chunks (~1,000 chars; {platform.machine()}, {os.cpu_count()} CPUs, "
        f"torch {torch.__version__}, sentence-transformers {sentence_transformers.__version__}), "
        f"batch {bs}, median of {args.reps} alternating runs; cos is against "
        "sentence-transformers in the same run; build = fresh graph build + load."
    )
    table = "\n".join(lines)
    print(context)
    print(table)
    if args.write:
        write_section("Embedding", f"{cmd} (in .venv-ref)", f"{context}\n\n{table}", args.doc)
        print(f"updated {args.doc}")


if __name__ == "__main__":
    main()
