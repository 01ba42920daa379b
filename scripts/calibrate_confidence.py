"""Fit the confidence logistic (search/confidence.py COEFFICIENTS) on labelled queries.

    python scripts/calibrate_confidence.py --db ~/.ctxhub/eval/eval.db FIT.jsonl \
        [--check OTHER.jsonl --check-db OTHER.db]

For every query of FIT, the search its category uses runs once; the label is whether
its top five hits hold a gold item (what an agent acts on), the features are those
`confidence.features` computes; off-topic questions are added as negatives. An
L2-regularised logistic regression (few features, strong prior: it must generalise)
gives the coefficients; the script prints them with the Brier score and a reliability
table, and the same on the --check set, which the fit never saw.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from ctxhub.config import load_settings
from ctxhub.core.knowledge import SearchRequest
from ctxhub.evaluation.matching import RankedHit, matches
from ctxhub.evaluation.queries import EvalQuery, load_queries
from ctxhub.evaluation.runner import CATEGORY_KINDS
from ctxhub.search import confidence as conf
from ctxhub.session import HubSession

#: Questions no framework index of this kind can answer (other ecosystems): the negatives
#: a calibration needs, labelled unanswered. Used for every fit, whatever the framework.
OFF_TOPIC = [
    ("docs", "how do I add a custom field type to a Django model with migrations"),
    ("docs", "configure a Kubernetes ingress with TLS certificates from cert-manager"),
    ("api", "pandas DataFrame merge on two columns with different names"),
    ("api", "React useEffect cleanup function runs twice in strict mode"),
    ("error", "TypeError: Cannot read properties of undefined (reading 'map')"),
    ("docs", "set up a GitHub Actions matrix build for three Node versions"),
    ("api", "how does numpy broadcasting decide the output shape"),
    ("error", "psycopg2.OperationalError: could not connect to server: Connection refused"),
    ("docs", "terraform state lock on S3 with a DynamoDB table"),
    ("api", "SQLAlchemy relationship lazy loading vs selectin loading"),
    ("symbol", "where is torch.nn.Module.register_forward_hook defined"),
    ("examples", "example of a Flask app with login and a SQLite user table"),
    ("error", "java.lang.NullPointerException at com.example.Main.main"),
    ("docs", "Rust borrow checker error when returning a reference to a local"),
    ("api", "how does the Linux kernel scheduler pick the next task"),
    ("examples", "Unity game example with a third person camera controller"),
    ("error", "ModuleNotFoundError: No module named 'sklearn.cross_validation'"),
    ("docs", "CSS grid layout with a sticky footer"),
    ("api", "Spring Boot bean lifecycle and @PostConstruct ordering"),
    ("symbol", "django.db.models.QuerySet.select_related source"),
]


def collect(
    db: Path, queries: list[EvalQuery], off_topic: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    captured: list[conf.ConfidenceFeatures] = []
    original = conf.features

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        f = original(*args, **kwargs)
        captured.append(f)
        return f

    conf.features = spy
    xs, ys = [], []
    try:
        with HubSession(load_settings(db)) as hub:
            for q in queries:
                captured.clear()
                request = SearchRequest(query=q.query, kinds=CATEGORY_KINDS[q.category], limit=5)
                hits = hub.retriever.search(request).hits
                ok = any(
                    matches(
                        RankedHit(
                            source=h.source,
                            path=h.path,
                            symbol=h.symbol,
                            line_start=h.line_start,
                            line_end=h.line_end,
                        ),
                        g,
                    )
                    for h in hits[:5]
                    for g in q.gold
                )
                xs.append(captured[-1].vector())
                ys.append(1.0 if ok else 0.0)
            for category, text in OFF_TOPIC if off_topic else []:
                captured.clear()
                hub.retriever.search(
                    SearchRequest(query=text, kinds=CATEGORY_KINDS[category], limit=5)
                )
                xs.append(captured[-1].vector() if captured else (1.0, 0.0, 0.0, 0.0, 0.0))
                ys.append(0.0)
    finally:
        conf.features = original
    return np.array(xs), np.array(ys)


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0, steps: int = 20000) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-x @ w))
        grad = x.T @ (p - y) / len(y) + l2 * np.r_[0.0, w[1:]] / len(y)
        w -= 0.5 * grad
    return w


def report(name: str, x: np.ndarray, y: np.ndarray, w: np.ndarray) -> None:
    p = 1 / (1 + np.exp(-x @ w))
    print(f"{name}: n={len(y)} answered in top 5={y.mean():.2f} Brier={np.mean((p - y) ** 2):.3f}")
    for lo, hi in ((0, 0.35), (0.35, 0.6), (0.6, 0.8), (0.8, 1.01)):
        mask = (p >= lo) & (p < hi)
        if mask.any():
            print(
                f"  confidence {lo:.2f}-{min(hi, 1):.2f}: n={mask.sum():3d} "
                f"mean conf {p[mask].mean():.2f}  answered {y[mask].mean():.2f}"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fit", type=Path)
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--check", type=Path)
    ap.add_argument("--check-db", type=Path)
    args = ap.parse_args()
    x, y = collect(args.db, load_queries(args.fit))
    w = fit(x, y)
    print("COEFFICIENTS =", tuple(round(float(v), 2) for v in w))
    report("fit set, current coefficients", x, y, np.array(conf.COEFFICIENTS))
    report("fit set, fitted coefficients", x, y, w)
    if args.check:
        cx, cy = collect(args.check_db or args.db, load_queries(args.check))
        report("check set, current coefficients", cx, cy, np.array(conf.COEFFICIENTS))
        report("check set, fitted coefficients", cx, cy, w)


if __name__ == "__main__":
    main()
