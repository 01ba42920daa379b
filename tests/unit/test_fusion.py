import pytest

from ctxhub.search.fusion import RRF_K, max_fused, rrf


def test_rrf_sums_weighted_reciprocal_ranks() -> None:
    fused = rrf(
        {"bm25": [("a", 9.0), ("b", 5.0)], "dense": [("b", 0.9), ("c", 0.5)]},
        {"bm25": 1.0, "dense": 2.0},
    )
    scores = {d: s for d, s, _ in fused}
    assert scores["a"] == pytest.approx(1.0 / (RRF_K + 1))
    assert scores["b"] == pytest.approx(1.0 / (RRF_K + 2) + 2.0 / (RRF_K + 1))
    assert scores["c"] == pytest.approx(2.0 / (RRF_K + 2))
    assert [d for d, _, _ in fused] == ["b", "c", "a"]


def test_signals_record_every_path_even_weight_zero() -> None:
    fused = rrf(
        {"bm25": [("a", 1.0)], "symbol": [("a", 2.0), ("z", 1.0)]}, {"bm25": 1.0, "symbol": 0.0}
    )
    by_id = {d: (s, sig) for d, s, sig in fused}
    assert set(by_id["a"][1]) == {"bm25", "symbol"}
    assert by_id["a"][1]["symbol"].rank == 1
    assert by_id["z"][0] == 0.0


def test_max_fused_is_rank_one_everywhere() -> None:
    weights = {"bm25": 1.2, "dense": 1.0, "symbol": 0.0}
    fused = rrf({"bm25": [("a", 1.0)], "dense": [("a", 1.0)]}, weights)
    assert fused[0][1] == pytest.approx(max_fused(weights))
