"""Quality gates: the labelled query sets, through the tools agents call, real model.

Five sets are in the repository: the Pipecat development set in benchmarks/eval/pipecat
(as published, with its docs corpus; get_corpus.sh fetches two sdists from PyPI), the
click set in benchmarks/eval, and the marshmallow (reST docs), textual (one-file example
apps) and litestar (how-to questions about the public API) sets in
benchmarks/eval/<name>/, written by helpers who had not seen the ranking code. Indexing
all five takes about six minutes on two cores; the stores are kept under
~/.cache/ctxhub-quality so a second run only re-reads what changed.

Pipecat and click are held to the project's targets. marshmallow, textual and litestar are below
the targets issue 13 sets (overall R@5 >= 0.85, api R@5 >= 0.75; docs/EVAL.md says where
they stand): their gates are the measured figures less a small margin, so a change that
makes them worse fails, and raising a gate is how progress is recorded.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from ctxhub.app.migrate import migrate
from ctxhub.config import Settings
from ctxhub.evaluation.queries import load_queries
from ctxhub.evaluation.runner import EvalReport, ablation_variants, run
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.session import HubSession, default_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.store.factory import open_store
from tests.conformance.conftest import _stop_postgres, fresh_database

# The first run indexes each corpus from scratch (Pipecat: ~13k chunks and their window
# vectors, ~5 min alone on two cores, 2-3x that on a busy machine): past the suite's 600 s.
pytestmark = [pytest.mark.integration, pytest.mark.timeout(2400)]
__all__ = ["_stop_postgres"]  # the PostgreSQL server (tests/conformance) stops after the tests

REPO = Path(__file__).resolve().parents[2]
EVAL = REPO / "benchmarks" / "eval"
PIPECAT = EVAL / "pipecat"
CACHE = Path(os.environ.get("CTXHUB_QUALITY_CACHE", Path.home() / ".cache" / "ctxhub-quality"))


def _roots(script: Path, target: Path) -> list[SourceSpec]:
    done = subprocess.run(
        ["bash", str(script), str(target)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        pytest.fail(f"{script.name} failed: {done.stderr[-800:]}")
    specs = []
    for line in done.stdout.splitlines():
        name, _, path = line.partition("=")
        if name and path:
            specs.append(SourceSpec(name=name, path=path))
    return specs


#: Each set's SQLite report (full hybrid), kept for the PostgreSQL comparison below.
_SQLITE_REPORTS: dict[str, EvalReport] = {}


def _evaluate(
    name: str, queries: Path, specs: list[SourceSpec], ablations: bool
) -> list[EvalReport]:
    home = CACHE / name
    settings = Settings(home=Path.home() / ".ctxhub", db=str(home / "eval.db"))
    embedder = default_embedder(settings.home)
    with open_store(settings.store_location) as store:
        summary = refresh(store, specs, home / "sources", embedder)
        assert all(s.status == "ok" for s in summary.sources), summary
    items = load_queries(queries)
    with HubSession(settings, embedder) as hub:
        reports = [run(hub, items)]
        if ablations:
            reports += [run(hub, items, v) for v in ablation_variants()]
    _SQLITE_REPORTS[name] = reports[0]
    return reports


def _check(
    report: EvalReport,
    *,
    overall_r5: float,
    overall_mrr: float,
    per_cat: float,
    floors: dict[str, float] | None = None,
) -> None:
    """Overall R@5 and MRR@10, every category's R@5 >= `per_cat` (or its own floor in
    `floors`), and the structural sets exact."""
    scores = {c.category: c for c in report.categories}
    misses = [f"{q.id} R@5={q.recall5:.2f}" for q in report.queries if q.recall5 < 1]
    assert report.overall.recall5 >= overall_r5, (report.overall, misses)
    assert report.overall.mrr10 >= overall_mrr, (report.overall, misses)
    for cat, score in scores.items():
        assert score.recall5 >= (floors or {}).get(cat, per_cat), (cat, score, misses)
        if score.set_precision is not None:
            assert score.set_precision == 1.0 and score.set_recall == 1.0, (cat, score)


def _hybrid_beats_single_paths(reports: list[EvalReport]) -> None:
    full = reports[0].overall.recall5
    for r in reports[1:]:
        if r.variant.endswith(" only"):
            assert full > r.overall.recall5, (r.variant, r.overall.recall5, full)


#: name -> (corpus script, queries, whether the ablations run): every labelled set.
SETS = {
    "pipecat": (PIPECAT / "get_corpus.sh", PIPECAT / "pipecat_dev.jsonl", True),
    "click": (EVAL / "get_click_corpus.sh", EVAL / "click_dev.jsonl", True),
    "marshmallow": (
        EVAL / "marshmallow" / "get_marshmallow_corpus.sh",
        EVAL / "marshmallow" / "marshmallow_dev.jsonl",
        False,
    ),
    "textual": (
        EVAL / "textual" / "get_textual_corpus.sh",
        EVAL / "textual" / "textual_dev.jsonl",
        False,
    ),
    "litestar": (
        EVAL / "litestar" / "get_litestar_corpus.sh",
        EVAL / "litestar" / "litestar_howto.jsonl",
        False,
    ),
}


def _set(name: str) -> list[EvalReport]:
    script, queries, ablations = SETS[name]
    return _evaluate(name, queries, _roots(script, CACHE / f"{name}-corpus"), ablations)


def test_pipecat_dev_set() -> None:
    reports = _set("pipecat")
    _check(reports[0], overall_r5=0.80, overall_mrr=0.70, per_cat=0.60)
    _hybrid_beats_single_paths(reports)


def test_click_set() -> None:
    reports = _set("click")
    _check(reports[0], overall_r5=0.80, overall_mrr=0.70, per_cat=0.60)
    _hybrid_beats_single_paths(reports)


def test_marshmallow_set() -> None:
    reports = _set("marshmallow")
    # measured 2026-12-03: overall R@5 0.833, MRR 0.831, api 0.61, error 0.73 on stores
    # upgraded in place; a store built from scratch gave 0.824 / 0.830, error 0.67 (the
    # int8 model quantises each batch's activations together, so a text's vector depends
    # on its batch: a figure moves by a query between builds; docs/EVAL.md)
    _check(
        reports[0],
        overall_r5=0.80,
        overall_mrr=0.79,
        per_cat=0.75,
        floors={"api": 0.57, "error": 0.60},
    )


def test_textual_set() -> None:
    reports = _set("textual")
    # measured 2026-12-03 (names built by convention): overall R@5 0.770, MRR 0.841, api
    # 0.47; built from scratch 0.763 / 0.854, api 0.45 (docs/EVAL.md)
    _check(reports[0], overall_r5=0.73, overall_mrr=0.80, per_cat=0.75, floors={"api": 0.41})


def test_litestar_how_to_set() -> None:
    reports = _set("litestar")
    # measured 2026-12-05 (fourteenth session, the declared path): overall R@5 0.714,
    # MRR 0.686, api 0.593, error 0.80; before it 0.658 / 0.675, api 0.507 (docs/EVAL.md)
    _check(
        reports[0],
        overall_r5=0.67,
        overall_mrr=0.64,
        per_cat=0.75,
        floors={"api": 0.55, "error": 0.55},
    )


@pytest.mark.parametrize("name", sorted(SETS))
def test_postgres_store_answers_like_sqlite(name: str) -> None:
    """The set's SQLite store copied into PostgreSQL by `migrate` (nothing re-embedded),
    then the same questions through the same tools: R@5 within 0.02 of SQLite's."""
    sqlite_report = _SQLITE_REPORTS.get(name) or _set(name)[0]
    location = fresh_database()
    with open_store(CACHE / name / "eval.db") as src, open_store(location) as dst:
        copied = migrate(src, dst)
        assert copied.chunks > 0 and dst.counts() == src.counts(), copied
    assert copied.unembedded == 0, copied
    settings = Settings(home=Path.home() / ".ctxhub", db=location)
    with HubSession(settings, default_embedder(settings.home)) as hub:
        report = run(hub, load_queries(SETS[name][1]))
    gap = sqlite_report.overall.recall5 - report.overall.recall5
    assert abs(gap) <= 0.02, (name, sqlite_report.overall, report.overall)
