from ctxhub.core.knowledge import Signal
from ctxhub.search.analyzer import analyze
from ctxhub.search.confidence import ConfidenceFeatures, confidence, features
from ctxhub.search.rank import Candidate
from tests.conftest import make_chunk


def test_confidence_is_monotonic_in_each_feature() -> None:
    base = ConfidenceFeatures(agreement=0.5, top_cosine=0.4, exact_symbol=0.0, margin=0.1)
    c0 = confidence(base)
    assert 0 < c0 < 1
    for field, value in (
        ("agreement", 1.0),
        ("top_cosine", 0.8),
        ("exact_symbol", 1.0),
        ("margin", 0.6),
    ):
        raised = ConfidenceFeatures(**{**base.__dict__, field: value})
        assert confidence(raised) > c0


def test_features_of_a_ranked_list() -> None:
    analysis = analyze("Worker.run")
    top = Candidate(
        chunk=make_chunk(symbol="pkg.Worker.run"),
        fused=0.03,
        signals={
            "bm25": Signal(rank=1, score=5.0),
            "dense": Signal(rank=2, score=0.7),
            "symbol": Signal(rank=1, score=2.0),
        },
    )
    second = Candidate(chunk=make_chunk(symbol="pkg.Other.run"), fused=0.01, signals={})
    f = features(analysis, [top, second], ["bm25", "dense", "symbol"])
    assert f.agreement == 1.0 and f.exact_symbol == 1.0 and f.top_cosine == 0.7
    assert 0.6 < f.margin < 0.7
    assert features(analysis, [], ["bm25"]).agreement == 0.0
