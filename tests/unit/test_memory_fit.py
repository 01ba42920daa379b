"""How the abstention model is fitted (evaluation/memory_runner.py): the threshold rule
and the cross-validated L2 strength, on small made-up candidate lists."""

from __future__ import annotations

from ctxhub.evaluation.memory_runner import (
    L2_GRID,
    Candidates,
    choose_l2,
    fit_model,
    fit_threshold,
)


def _query(evidence: float, answerable: bool) -> Candidates:
    query = {"query": "q", "relevant": ["k"] if answerable else [], "category": "x"}
    gold = answerable
    return Candidates(query, ["k"], [(gold, {"cosine": evidence})])


WEIGHTS = {"cosine": 10.0}
BIAS = -5.0  # probability 0.5 at cosine 0.5


def test_threshold_abstains_only_as_much_as_the_no_answer_target_asks() -> None:
    answers = [_query(c, True) for c in (0.45, 0.6, 0.7, 0.8, 0.9) * 4]
    no_answer = [_query(c, False) for c in (0.1, 0.2, 0.3, 0.4)]
    rows = answers + no_answer
    edge = fit_threshold(rows, WEIGHTS, BIAS, budget=0.05, target=None)
    least = fit_threshold(rows, WEIGHTS, BIAS, budget=0.05, target=0.75)
    # the edge of the answers (p(0.45) = 0.38) vs just above the third no-answer (0.119)
    assert 0.37 <= edge <= 0.38
    assert 0.119 < least <= 0.125


def test_threshold_never_hides_more_answers_than_the_budget() -> None:
    # no-answer questions look like answers: the target cannot be reached within budget
    rows = [_query(0.6, True) for _ in range(20)] + [_query(0.7, False) for _ in range(4)]
    t = fit_threshold(rows, WEIGHTS, BIAS, budget=0.05, target=0.75)
    assert t == fit_threshold(rows, WEIGHTS, BIAS, budget=0.05, target=None)
    assert 0.72 <= t < 0.7311  # just under p(0.6) = 0.731: every answer is still given


def test_l2_is_chosen_from_the_grid_and_the_fit_separates_gold() -> None:
    rows = [_query(c, True) for c in (0.5, 0.6, 0.7, 0.8, 0.9) * 4]
    rows += [
        Candidates(
            {"query": "q", "relevant": ["k"], "category": "x"}, ["o"], [(False, {"cosine": c})]
        )
        for c in (0.1, 0.2, 0.3, 0.4, 0.45) * 4
    ]
    assert choose_l2(rows, ("cosine",)) in L2_GRID
    weights, _ = fit_model(rows, ("cosine",))
    assert weights["cosine"] > 0
