"""Extract a corpus's Python API and compare it with an eval set's code gold.

    python scripts/check_api_gold.py --root pipecat-ai=~/.cache/contexthub-eval/pipecat-ai \\
        --root pipecat-ai-flows=~/.cache/contexthub-eval/pipecat-ai-flows \\
        --eval benchmarks/eval/pipecat/pipecat_dev.jsonl

Prints chunk counts, time, skipped files and deprecation counts per root; then, for the
structural (`filters: {"yields"|"calls": name}`) queries, the functions whose chunks
list the name against the gold set, and every symbol gold item whose chunk is missing
or whose span differs. Exit status 1 on any mismatch.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path
from typing import Any

from ctxhub.core.errors import SkipFile
from ctxhub.core.knowledge import Chunk
from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.ingest.python.modules import PackageLayout, find_internal_packages, module_names


def extract_root(repo: str, root: Path) -> list[Chunk]:
    rels = sorted(str(p.relative_to(root)) for p in root.glob("src/**/*.py*") if p.is_file())
    rels = [r for r in rels if r.endswith((".py", ".pyi"))]
    layout = PackageLayout.from_paths(rels)
    internal, known = find_internal_packages(rels, layout), module_names(rels, layout)
    chunks: list[Chunk] = []
    skipped: list[tuple[str, str]] = []
    deprecations = 0
    start = time.perf_counter()
    for rel in rels:
        try:
            ex = extract_python_file(
                repo,
                rel,
                (root / rel).read_bytes(),
                version=None,
                internal_packages=internal,
                module=layout.module_for(rel),
                known_modules=known,
            )
        except SkipFile as e:
            skipped.append((rel, e.reason))
            continue
        chunks.extend(ex.chunks)
        deprecations += len(ex.deprecations)
    took = time.perf_counter() - start
    types = collections.Counter(c.metadata.chunk_type for c in chunks)
    print(f"{repo}: {len(rels)} files in {took:.2f}s, chunks {dict(types)}")
    print(f"  skipped {skipped}, deprecations {deprecations}")
    return chunks


def check(queries: list[dict[str, Any]], chunks: dict[str, list[Chunk]]) -> int:
    bad = 0
    for q in queries:
        for kind, name in (q.get("filters") or {}).items():
            got = {
                c.symbol: [c.line_start, c.line_end]
                for c in chunks.get("pipecat-ai", [])
                if c.symbol is not None and name in getattr(c.metadata, kind)
            }
            gold = {g["symbol"]: g["lines"] for g in q["gold"]}
            missing, extra = sorted(set(gold) - set(got)), sorted(set(got) - set(gold))
            spans = sorted(s for s in set(gold) & set(got) if gold[s] != got[s])
            ok = not (missing or extra or spans)
            bad += not ok
            print(f"{q['id']} {kind}={name}: gold {len(gold)} got {len(got)}", "OK" if ok else "")
            for label, items in (("missing", missing), ("extra", extra), ("span", spans)):
                if items:
                    print(f"  {label}: {items}")
    index = {(c.source, c.symbol): c for cs in chunks.values() for c in cs}
    for q in queries:
        for g in q["gold"]:
            for loc in [g, *g.get("alt", [])]:
                if not loc.get("symbol") or loc["repo"] not in chunks:
                    continue
                chunk = index.get((loc["repo"], loc["symbol"]))
                if chunk is None or [chunk.line_start, chunk.line_end] != loc["lines"]:
                    bad += 1
                    span = chunk and [chunk.line_start, chunk.line_end]
                    print(f"{q['id']} {loc['symbol']}: gold {loc['lines']}, chunk {span}")
    return bad


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", action="append", default=[], help="repo=path (repeatable)")
    ap.add_argument("--eval", required=True, help="eval jsonl with symbol gold")
    args = ap.parse_args()
    chunks = {}
    for spec in args.root:
        repo, path = spec.split("=", 1)
        chunks[repo] = extract_root(repo, Path(path).expanduser())
    lines = Path(args.eval).read_text(encoding="utf-8").splitlines()
    bad = check([json.loads(line) for line in lines if line.strip()], chunks)
    print("mismatches:", bad)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
