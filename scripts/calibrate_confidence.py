"""Fit the confidence logistic (search/confidence.py COEFFICIENTS) on labelled queries.

    python scripts/calibrate_confidence.py SET.jsonl=STORE.db [SET.jsonl=STORE.db ...]

For every query of each set, the search its category uses runs once on that set's
store; the label is whether its top five hits hold a gold item (what an agent acts on),
the features are those `confidence.features` computes; off-topic questions are added to
each set as negatives. An L2-regularised logistic regression (few features, strong
prior: it must generalise) fitted on all sets gives the coefficients. To show how they
carry to a framework and to questions the fit never saw, each set is also scored by a
fit on the other sets, the off-topic questions split in two halves (fit on one, score on
the other, both ways); the script prints the Brier score, a reliability table and the
two ways to be wrong at `LOW_CONFIDENCE`, for the current coefficients and for the fit.
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
                xs.append(captured[-1].vector() if captured else (1.0, 0.0, 0.0, 0.0, 0.0, 0.0))
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


def predict(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    return np.asarray(1 / (1 + np.exp(-x @ w)))


def report(name: str, p: np.ndarray, y: np.ndarray, off: np.ndarray) -> None:
    low = p < conf.LOW_CONFIDENCE
    print(
        f"{name}: n={len(y)} Brier={np.mean((p - y) ** 2):.3f}; answered but LOW "
        f"{int((low & (y == 1)).sum())}/{int((y == 1).sum())}; off-topic not LOW "
        f"{int((~low & off).sum())}/{int(off.sum())}; missed not LOW "
        f"{int((~low & ~off & (y == 0)).sum())}/{int((~off & (y == 0)).sum())}"
    )
    for lo, hi in ((0, 0.35), (0.35, 0.6), (0.6, 0.8), (0.8, 1.01)):
        mask = (p >= lo) & (p < hi)
        if mask.any():
            print(
                f"  confidence {lo:.2f}-{min(hi, 1):.2f}: n={mask.sum():3d} "
                f"mean conf {p[mask].mean():.2f}  answered {y[mask].mean():.2f}"
            )


Collected = tuple[np.ndarray, np.ndarray, np.ndarray]  # features, labels, off-topic mask


def half(data: Collected, parity: int) -> Collected:
    """The set's own queries and every other off-topic question from `parity`."""
    x, y, off = data
    keep = ~off | (np.cumsum(off) % 2 == 1 - parity)  # cumsum: 1 for the first off-topic
    return x[keep], y[keep], off[keep]


def held_out(sets: dict[str, Collected]) -> Collected:
    """Each set scored by a fit on the others, on the off-topic half the fit never saw."""
    ps, ys, offs = [], [], []
    for parity in (0, 1):
        for name, data in sets.items():
            train = [half(d, parity) for n, d in sets.items() if n != name]
            w = fit(np.vstack([t[0] for t in train]), np.concatenate([t[1] for t in train]))
            x, y, off = half(data, 1 - parity)
            ps.append(predict(x, w))
            ys.append(y)
            offs.append(off)
    return np.concatenate(ps), np.concatenate(ys), np.concatenate(offs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sets", nargs="+", help="SET.jsonl=STORE.db, one per labelled set")
    args = ap.parse_args()
    sets: dict[str, Collected] = {}
    for spec in args.sets:
        queries, _, db = spec.partition("=")
        x, y = collect(Path(db), load_queries(Path(queries)))
        off = np.zeros(len(y), dtype=bool)
        off[len(y) - len(OFF_TOPIC) :] = True
        sets[Path(queries).stem] = (x, y, off)
    x = np.vstack([d[0] for d in sets.values()])
    y = np.concatenate([d[1] for d in sets.values()])
    off = np.concatenate([d[2] for d in sets.values()])
    w = fit(x, y)
    print("COEFFICIENTS =", tuple(round(float(v), 2) for v in w))
    report("all sets, current coefficients", predict(x, np.array(conf.COEFFICIENTS)), y, off)
    report("all sets, fitted coefficients (seen)", predict(x, w), y, off)
    report("each set by a fit on the others (unseen)", *held_out(sets))


if __name__ == "__main__":
    main()
