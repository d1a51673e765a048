from __future__ import annotations

import math

import pytest

from akgen_lsp.bench.metrics import (
    error_class_of,
    error_histogram,
    fast_p,
    mean_pass_at_k,
    pass_at_k,
    stage_rates,
    task_score,
    weighted_score,
)


def test_pass_at_k_hand_computed() -> None:
    # n=5, c=2, k=1: 1 - C(3,1)/C(5,1) = 1 - 3/5
    assert pass_at_k(5, 2, 1) == pytest.approx(0.4)
    # n=5, c=2, k=2: 1 - C(3,2)/C(5,2) = 1 - 3/10
    assert pass_at_k(5, 2, 2) == pytest.approx(0.7)
    # n=10, c=3, k=5: 1 - C(7,5)/C(10,5) = 1 - 21/252
    assert pass_at_k(10, 3, 5) == pytest.approx(1 - 21 / 252)
    # every draw must contain a correct one
    assert pass_at_k(5, 4, 2) == 1.0
    assert pass_at_k(5, 0, 3) == 0.0
    assert pass_at_k(1, 1, 1) == 1.0


def test_pass_at_k_matches_binomials_and_is_stable_for_large_n() -> None:
    for n, c, k in [(20, 7, 3), (100, 13, 10), (50, 1, 50)]:
        exact = 1 - math.comb(n - c, k) / math.comb(n, k)
        assert pass_at_k(n, c, k) == pytest.approx(exact, rel=1e-12)
    v = pass_at_k(100000, 3, 100)
    assert 0.0 < v < 1.0 and math.isfinite(v)


def test_pass_at_k_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        pass_at_k(0, 0, 1)
    with pytest.raises(ValueError):
        pass_at_k(3, 4, 1)
    with pytest.raises(ValueError):
        pass_at_k(3, 1, 0)
    assert pass_at_k(3, 1, 10) == 1.0  # k > n uses k = n
    assert mean_pass_at_k([(5, 2), (5, 0)], 1) == pytest.approx(0.2)


def test_fast_p() -> None:
    rows = [(True, 2.0), (True, 0.5), (False, 3.0), (True, None)]
    assert fast_p(rows, 0.0) == pytest.approx(3 / 4)
    assert fast_p(rows, 1.0) == pytest.approx(1 / 4)
    assert fast_p(rows, 0.4) == pytest.approx(2 / 4)
    assert fast_p([], 1.0) == 0.0


def test_scores() -> None:
    assert task_score(3, 4) == 75.0
    assert task_score(0, 0) == 0.0
    # 0.2*100 + 0.3*50 + 0.5*0 = 35
    assert weighted_score({1: [100.0], 2: [100.0, 0.0], 3: [0.0]}) == pytest.approx(35.0)
    # one level only: its own mean
    assert weighted_score({2: [40.0, 60.0]}) == pytest.approx(50.0)


def test_stage_rates_and_error_classes() -> None:
    recs = [{"parsed": True, "compiled": True, "ran": True, "correct": False},
            {"parsed": True, "compiled": False, "ran": False, "correct": False}]
    assert stage_rates(recs) == {"parse": 1.0, "compile": 0.5, "run": 0.5, "correct": 0.0}
    assert error_class_of([{"severity": "error", "error_class": "api_mismatch"}], "compile_error") == "api_mismatch"
    assert error_class_of([], "wrong_answer") == "precision"
    assert error_class_of([], "pass") is None
    assert error_histogram(["a", "b", "a", None]) == {"a": 2, "b": 1}
