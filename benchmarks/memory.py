"""Memory retrieval quality on both labelled sets, issue 14's way, with the ablation.

Each set gets a fresh store; every record is logged with the `log_solution` tool and every
test query asked through the `search_solutions` tool as an MCP client calls it. Printed per
set: R@1, MRR@10 (the response read as a ranked list: hits, or the nearest records when it
abstains), exact-error R@1 (category `error_code`), false abstention (answerable queries
abstained), no-answer queries abstained, and end-to-end R@1 (an abstained answerable query
is a miss); then the ablation: no abstention, the model fitted on the *other* set with all
features, with the earlier threshold rule (the highest within the budget) and the earlier
L2 (0.05), with each feature removed, without the never-abstain-on-a-signature rule, and
without the signature path. Features tried and left out: benchmarks/memory_features.py.

Sets: benchmarks/memory_set (85 records; 61 test queries; 140 calibration queries, which
are what the shipped model is fitted on) and benchmarks/memory_set2 (101 records, 126
queries, no calibration file: it is fitted on as a whole when it is the fitting set).

    python benchmarks/memory.py [--write]
    python benchmarks/memory.py --fit memory_set|memory_set2 [--budget SHARE] [--target SHARE]

`--fit` prints the weights, bias and threshold to ship in memory/search/evidence.py.
Uses the real embedding model (all-MiniLM-L6-v2, int8-mixed ONNX) and temporary SQLite
stores.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ctxhub.config import Settings
from ctxhub.evaluation.memory_runner import (
    FIT_FALSE_ABSTAIN,
    FIT_NO_ANSWER,
    HEADER,
    Candidates,
    EndToEnd,
    ask,
    choose_l2,
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
from ctxhub.session import HubSession
from report import write_section  # the sibling module (scripts run from this folder)

ROOT = Path(__file__).resolve().parent
SETS = ("memory_set", "memory_set2")
EARLIER_L2 = 0.05  # the regularisation set by hand before cross-validation chose it


@dataclass
class SetRun:
    name: str
    records: int
    shipped: EndToEnd  # through the tools, the shipped model
    test: list[Candidates]  # the test queries' candidates and features
    fit: list[Candidates]  # what this set contributes when it is the fitting set
    unsigned: list[Candidates]  # the test queries ranked without the signature path
    agree: int  # queries whose offline decision equals the tool's (a consistency check)
    latency_ms: float


def fit_queries(name: str) -> Path:
    calibration = ROOT / name / "calibration.jsonl"
    return calibration if calibration.exists() else ROOT / name / "queries.jsonl"


def measure(name: str) -> SetRun:
    records = load(ROOT / name / "records.jsonl")
    queries = load(ROOT / name / "queries.jsonl")
    with tempfile.TemporaryDirectory() as tmp, HubSession(Settings(home=Path(tmp))) as hub:
        ids = log_store(hub, records)
        answers = [ask(hub, ids, q) for q in queries]
        test = collect(hub, ids, queries)
        fitting = fit_queries(name)
        fit = test if fitting.name == "queries.jsonl" else collect(hub, ids, load(fitting))
        unsigned = collect(hub, ids, queries, memsearch.Ablation(signature=False))
    shipped = end_to_end(queries, [a.ranked for a in answers], [a.abstained for a in answers])
    offline = decisions(test, evidence.WEIGHTS, evidence.BIAS, evidence.THRESHOLD)
    agree = sum(a.abstained == o for a, o in zip(answers, offline, strict=True))
    latency = statistics.median(a.seconds for a in answers) * 1000
    return SetRun(name, len(records), shipped, test, fit, unsigned, agree, latency)


def evaluate(rows: list[Candidates], abstained: list[bool]) -> EndToEnd:
    return end_to_end([c.query for c in rows], [c.ranked for c in rows], abstained)


def fitted(
    rows: list[Candidates], names: tuple[str, ...], budget: float, target: float | None
) -> tuple[dict[str, float], float, float]:
    weights, bias = fit_model(rows, names)
    return weights, bias, fit_threshold(rows, weights, bias, budget, target)


def calibration(rows: list[Candidates]) -> str:
    """How well the shipped per-hit probability says which candidates are gold: mean
    probability of gold and of other candidates, and, per band, the share that is gold."""
    pairs = [(evidence.probability(f), gold) for c in rows for gold, f in c.head]
    gold = [p for p, g in pairs if g]
    other = [p for p, g in pairs if not g]
    bands = []
    for lo, hi in ((0.0, 0.1), (0.1, 0.3), (0.3, 0.6), (0.6, 1.01)):
        inside = [g for p, g in pairs if lo <= p < hi]
        if inside:
            bands.append(f"[{lo:.1f}, {min(hi, 1.0):.1f}): {sum(inside) / len(inside):.2f}")
    brier = sum((p - g) ** 2 for p, g in pairs) / max(len(pairs), 1)
    return (
        f"Per-hit probability over the first {evidence.DEPTH} candidates: gold mean"
        f" {statistics.fmean(gold) if gold else 0:.2f}, others"
        f" {statistics.fmean(other) if other else 0:.2f}; share gold by band "
        + ", ".join(bands)
        + f"; Brier {brier:.3f}."
    )


def report(run: SetRun, other: SetRun, budget: float, target: float | None) -> str:
    w, b, t = evidence.WEIGHTS, evidence.BIAS, evidence.THRESHOLD
    lines = [
        f"**{run.name}** ({run.records} records, {run.shipped.answerable} answerable and"
        f" {run.shipped.no_answer} no-answer test queries); the other set: {other.name}.",
        "",
        "| system " + HEADER.splitlines()[0],
        "|---" + HEADER.splitlines()[1],
        "| shipped model, through the tools " + run.shipped.row(),
        "| no abstention " + evaluate(run.test, [False] * len(run.test)).row(),
    ]
    ow, ob, ot = fitted(other.fit, evidence.FEATURES, budget, target)
    all_features = evaluate(run.test, decisions(run.test, ow, ob, ot))
    lines.append(f"| fitted on {other.name} (threshold {ot}) " + all_features.row())
    edge = fit_threshold(other.fit, ow, ob, budget, None)
    lines.append(
        f"| fitted on {other.name}, threshold at the budget's edge ({edge}, the earlier rule) "
        + evaluate(run.test, decisions(run.test, ow, ob, edge)).row()
    )
    lw, lb = fit_model(other.fit, evidence.FEATURES, l2=EARLIER_L2)
    lt = fit_threshold(other.fit, lw, lb, budget, target)
    lines.append(
        f"| fitted on {other.name}, L2 {EARLIER_L2} (the earlier fit; threshold {lt}) "
        + evaluate(run.test, decisions(run.test, lw, lb, lt)).row()
    )
    for name in evidence.FEATURES:
        kept = tuple(n for n in evidence.FEATURES if n != name)
        fw, fb, ft = fitted(other.fit, kept, budget, target)
        made = decisions(run.test, fw, fb, ft)
        without = evaluate(run.test, made)
        lines.append(f"| fitted on {other.name}, without `{name}` " + without.row())
    lines.append(
        f"| fitted on {other.name}, no never-abstain-on-a-signature rule "
        + evaluate(run.test, decisions(run.test, ow, ob, ot, signature_rule=False)).row()
    )
    lines.append(
        "| shipped model, no signature path (ranking) "
        + evaluate(run.unsigned, decisions(run.unsigned, w, b, t)).row()
    )
    lines += [
        "",
        "By category (answerable: R@1 of the ranked list; no_answer: share abstained): "
        + ", ".join(f"{k} {v:.3f}" for k, v in run.shipped.by_category.items())
        + f". Search median {run.latency_ms:.1f} ms. The offline replay of the shipped"
        f" decision agrees with the tool on {run.agree} of {len(run.test)} queries.",
        "",
        calibration(run.test),
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", choices=SETS, help="Fit the model on this set; print it.")
    parser.add_argument(
        "--budget",
        type=float,
        default=FIT_FALSE_ABSTAIN,
        help="Most answerable fitting queries the threshold may abstain on"
        f" (default {FIT_FALSE_ABSTAIN}, the issue's false-abstention target).",
    )
    parser.add_argument(
        "--target",
        type=float,
        default=FIT_NO_ANSWER,
        help="Share of no-answer fitting queries the threshold aims to abstain on"
        f" (default {FIT_NO_ANSWER}, the issue's target); 0 for the highest threshold"
        " within the budget.",
    )
    parser.add_argument("--write", action="store_true", help="Update docs/BENCHMARKS.md.")
    args = parser.parse_args()
    target = args.target or None
    if args.fit:
        run = measure(args.fit)
        weights, bias, threshold = fitted(run.fit, evidence.FEATURES, args.budget, target)
        l2 = choose_l2(run.fit, evidence.FEATURES)
        print(
            f"fitted on {args.fit} ({len(run.fit)} queries, L2 {l2} by cross-validation,"
            f" budget {args.budget}, no-answer target {target}):"
        )
        print(f"WEIGHTS = {weights}\nBIAS = {bias}\nTHRESHOLD = {threshold}")
        return 0
    runs = {name: measure(name) for name in SETS}
    body = "\n\n".join(
        report(runs[a], runs[b], args.budget, target) for a, b in (SETS, tuple(reversed(SETS)))
    )
    note = (
        "The shipped model (memory/search/evidence.py) was fitted on memory_set's"
        " calibration queries only (`python benchmarks/memory.py --fit memory_set`), so both"
        " test sets below are held out from it; the 'fitted on' rows fit on the other set"
        f" (L2 by 5-fold cross-validation; threshold: the lowest abstaining on {target} of"
        f" the fitting set's no-answer queries, within a false-abstention budget of"
        f" {args.budget}) and report on this one."
        " Issue 14's targets: false abstention <= 0.05, no-answer abstained >= 0.75,"
        " e2e R@1 >= 0.90, MRR >= 0.93, exact-error R@1 >= 0.95. Per-feature figures are"
        " one fit each on a few dozen queries: read differences of one query as noise."
    )
    body = f"{note}\n\n{body}"
    print(body)
    if args.write:
        write_section("Memory retrieval", "python benchmarks/memory.py --write", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
