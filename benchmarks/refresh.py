"""Indexing speed on the dev corpus: full index, time to BM25-searchable, no-change
refresh, one changed file.

    python benchmarks/refresh.py [--corpus ~/.cache/contexthub-eval] [--repeats 3] [--write]

The corpus roots (pipecat-ai, pipecat-ai-flows, docs; see benchmarks/eval/pipecat/get_corpus.sh) are
copied to a temporary folder (so one file can be edited) and indexed into a fresh store
with the real embedder, in-process, exactly as `ctxhub refresh` does. The embedding
model's graph is built beforehand (its one-off ~1 s build is not part of indexing).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from ctxhub.core.knowledge import SearchFilters
from ctxhub.embed import load_default_embedder
from ctxhub.ingest.refresh.incremental import RefreshSummary, refresh
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore
from report import write_section  # the sibling module (scripts run from this folder)

ROOTS = ("pipecat-ai", "pipecat-ai-flows", "docs")
TARGETS = {"full": 180.0, "searchable": 30.0, "no_change": 3.0, "one_file": 5.0}
EDIT = "src/pipecat/utils/time.py"


def run(store: SQLiteStore, specs: list[SourceSpec], work: Path) -> tuple[RefreshSummary, float]:
    embedder = load_default_embedder(Path.home() / ".ctxhub")
    started = time.perf_counter()
    summary = refresh(store, specs, work / "sources", embedder)
    return summary, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=Path.home() / ".cache/contexthub-eval")
    parser.add_argument("--repeats", type=int, default=3, help="for the incremental cases")
    parser.add_argument("--write", action="store_true", help="update docs/BENCHMARKS.md")
    args = parser.parse_args()
    load_default_embedder(Path.home() / ".ctxhub").warm()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name in ROOTS:
            shutil.copytree(args.corpus.expanduser() / name, work / name)
        specs = [SourceSpec(name=n, path=str(work / n)) for n in ROOTS]
        with SQLiteStore(work / "bench.db") as store:
            summary, full = run(store, specs, work)
            probe = store.bm25(["frame"], SearchFilters(), None, 1)
            assert probe, "the index is not searchable"
            chunks = sum(sum(k.values()) for k in store.counts().values())
            searchable = summary.lexical_seconds
            no_change = [run(store, specs, work)[1] for _ in range(args.repeats)]
            one_file = []
            for i in range(args.repeats):
                path = work / "pipecat-ai" / EDIT
                path.write_text(
                    path.read_text() + f"\n\ndef bench_added_{i}(x):\n    y = x * 2\n"
                    f"    return y + {i}\n"
                )
                result, seconds = run(store, specs, work)
                assert result.sources[0].updated + result.sources[0].added >= 1
                one_file.append(seconds)
    figures = {
        "full": full,
        "searchable": searchable,
        "no_change": statistics.median(no_change),
        "one_file": statistics.median(one_file),
    }
    labels = {
        "full": f"full index ({chunks:,} chunks, {summary.embedded:,} embedded)",
        "searchable": "until BM25-searchable (lexical phase)",
        "no_change": f"no-change refresh (median of {args.repeats})",
        "one_file": f"one changed file, `{EDIT}` (median of {args.repeats})",
    }
    lines = ["| case | seconds | target | ratio |", "|---|---:|---:|---:|"]
    for key, value in figures.items():
        lines.append(
            f"| {labels[key]} | {value:.2f} | {TARGETS[key]:.0f} | {value / TARGETS[key]:.2f} |"
        )
    table = "\n".join(lines)
    print(table)
    if args.write:
        command = "python benchmarks/refresh.py " + " ".join(
            a for a in sys.argv[1:] if a != "--write"
        )
        write_section("Indexing (refresh)", command.strip(), table)


if __name__ == "__main__":
    main()
