"""Candidate abstention features that were tried and left out, measured the way the
shipped ones are: each added to the shipped features, the model refitted (L2 by
cross-validation, the same threshold rule), fitted on one set and reported on the other,
both ways, plus the shipped direction (memory_set's calibration queries -> both test sets).

- `rare_overlap`: how many of the question's words that are rare in this store (held by at
  most max(2, 3% of its records)) the candidate holds;
- `novel`: the share of the question's words no record of this store holds;
- `store_z`: the candidate's problem cosine as a z-score over what the question scores
  against every problem in this store (a per-store null distribution);
- `agreement`: how many retrieval paths (problem, code, BM25) rank the candidate first.

    python benchmarks/memory_features.py [--write]

Uses the real embedding model and temporary SQLite stores, like benchmarks/memory.py.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

from ctxhub.config import Settings
from ctxhub.core.records import MemoryFilters
from ctxhub.evaluation.memory_runner import (
    Candidates,
    EndToEnd,
    collect,
    decisions,
    end_to_end,
    fit_model,
    fit_threshold,
    load,
    log_store,
)
from ctxhub.memory.search import evidence
from ctxhub.memory.search import retrieval as memsearch
from ctxhub.memory.search.shape import MemoryQuery
from ctxhub.session import HubSession
from report import write_section  # the sibling module (scripts run from this folder)

ROOT = Path(__file__).resolve().parent
TRIED = ("rare_overlap", "novel", "store_z", "agreement")
RARE_SHARE = 0.03


def extra(hub: HubSession, q: MemoryQuery, head: list[memsearch.Scored]) -> list[dict[str, float]]:
    terms = evidence.coverage_terms(q)
    ids = [s.record.id for s in head]
    stats = hub.store.record_term_stats(terms, ids) if terms and ids else None
    vector = hub.embedder.embed([q.text])[0]
    total = stats.records if stats else len(ids)
    every = hub.store.record_dense("problem", vector, hub.embedder.id, MemoryFilters(), total)
    scores = np.array([s for _, s in every]) if every else np.zeros(1)
    mean, spread = float(scores.mean()), float(scores.std()) + 1e-6
    cosine = dict(every)
    out = []
    for s in head:
        row: dict[str, float] = {
            "store_z": (cosine.get(s.record.id, 0.0) - mean) / spread,
            "agreement": float(
                sum(1 for p, (rank, _) in s.signals.items() if rank == 1 and p != "signature")
            ),
        }
        if stats:
            rare = {t for t, df in stats.doc_freq.items() if 0 < df <= max(2, RARE_SHARE * total)}
            held = stats.present.get(s.record.id, set())
            row["rare_overlap"] = float(len(rare & held))
            row["novel"] = sum(1 for t in terms if stats.doc_freq.get(t, 0) == 0) / len(terms)
        out.append(row)
    return out


def gather(name: str) -> tuple[list[Candidates], list[Candidates]]:
    """(the set's test queries, what it is fitted on) with the tried features added."""
    with tempfile.TemporaryDirectory() as tmp, HubSession(Settings(home=Path(tmp))) as hub:
        ids = log_store(hub, load(ROOT / name / "records.jsonl"))
        test = collect(hub, ids, load(ROOT / name / "queries.jsonl"), extra=extra)
        calibration = ROOT / name / "calibration.jsonl"
        fit = collect(hub, ids, load(calibration), extra=extra) if calibration.exists() else test
    return test, fit


def score(fit: list[Candidates], test: list[Candidates], names: tuple[str, ...]) -> EndToEnd:
    weights, bias = fit_model(fit, names)
    threshold = fit_threshold(fit, weights, bias)
    made = decisions(test, weights, bias, threshold)
    return end_to_end([c.query for c in test], [c.ranked for c in test], made)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="Update docs/BENCHMARKS.md.")
    args = parser.parse_args()
    one_test, one_fit = gather("memory_set")
    two_test, _ = gather("memory_set2")
    lines = [
        "Each candidate feature added to the shipped ones and the model refitted (L2 by"
        " cross-validation, the shipped threshold rule); cells are false abstention /"
        " no-answer abstained on the test queries. Definitions: the script's docstring"
        " and docs/MEMORY.md.",
        "",
        "| features | memory_set cal -> memory_set | memory_set cal -> memory_set2"
        " | memory_set2 -> memory_set |",
        "|---|---|---|---|",
    ]
    for added in ((), *((t,) for t in TRIED)):
        names = evidence.FEATURES + added
        cells = [
            score(one_fit, one_test, names),
            score(one_fit, two_test, names),
            score(two_test, one_test, names),
        ]
        label = "shipped" if not added else f"shipped + `{added[0]}`"
        row = " | ".join(f"{m.false_abstain:.3f} / {m.abstain_ok:.3f}" for m in cells)
        lines.append(f"| {label} | {row} |")
    body = "\n".join(lines)
    print(body)
    if args.write:
        command = "python benchmarks/memory_features.py --write"
        write_section("Memory abstention: features tried", command, body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
