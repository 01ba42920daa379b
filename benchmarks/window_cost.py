"""What window vectors add to embedding time: chunk texts vs window texts of one store.

    python benchmarks/window_cost.py --db STORE.db [--sample 320]

Samples the same number of chunk texts and window texts (`chunk_windows`) of a store
built by `ctxhub eval` / `ctxhub refresh`, embeds them in alternating batches of 32 in
one process (so machine load hits both alike), and scales each rate to the store's
counts: the share window texts add to a full index's embedding time.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import time
from pathlib import Path

from ctxhub.embed import load_default_embedder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--sample", type=int, default=320)
    args = parser.parse_args()
    db = sqlite3.connect(args.db)
    chunks = [str(r[0]) for r in db.execute("SELECT embed_text FROM chunks")]
    windows = [str(r[0]) for r in db.execute("SELECT embed_text FROM chunk_windows")]
    n = min(args.sample, len(chunks), len(windows))
    rng = random.Random(1)
    some_chunks, some_windows = rng.sample(chunks, n), rng.sample(windows, n)
    embedder = load_default_embedder(Path.home() / ".ctxhub")
    embedder.embed(["warm up"])
    spent = {"chunks": 0.0, "windows": 0.0}
    for i in range(0, n, 32):
        for name, texts in (("chunks", some_chunks), ("windows", some_windows)):
            started = time.perf_counter()
            embedder.embed(texts[i : i + 32])
            spent[name] += time.perf_counter() - started
    rate_c, rate_w = n / spent["chunks"], n / spent["windows"]
    chunk_s, window_s = len(chunks) / rate_c, len(windows) / rate_w
    print(f"{len(chunks)} chunk texts at {rate_c:.1f}/s: {chunk_s:.0f} s")
    print(f"{len(windows)} window texts at {rate_w:.1f}/s: {window_s:.0f} s")
    print(f"windows add {100 * window_s / chunk_s:.0f}% to embedding time")


if __name__ == "__main__":
    main()
