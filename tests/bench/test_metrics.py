"""bench/metrics.py on rankings small enough to check by hand."""

from __future__ import annotations

import pytest
from metrics import average_precision, mean, recall_at_k, reciprocal_rank

RANKING = ["a", "b", "c", "d", "e"]


@pytest.mark.parametrize(
    ("relevant", "k", "expected"),
    [
        ({"a"}, 1, 1.0),  # evidence ranked first
        ({"b"}, 1, 0.0),  # second place misses a cutoff of 1
        ({"b"}, 2, 1.0),
        ({"a", "d"}, 2, 0.5),  # half the evidence in the top 2
        ({"a", "d"}, 4, 1.0),
        ({"a", "z"}, 5, 0.5),  # evidence never retrieved still counts in the denominator
        ({"a", "b", "z", "y"}, 10, 0.5),  # k beyond the ranking's length
        (set(), 5, 1.0),  # LoCoMo counts empty evidence as recalled
    ],
)
def test_recall_at_k(relevant: set[str], k: int, expected: float) -> None:
    assert recall_at_k(RANKING, relevant, k) == pytest.approx(expected)


def test_recall_at_k_counts_duplicates_once() -> None:
    assert recall_at_k(["a", "a", "b"], ["a", "a"], 1) == 1.0
    assert recall_at_k(["x", "x", "a"], {"a"}, 2) == 0.0


def test_recall_at_k_rejects_k_below_one() -> None:
    with pytest.raises(ValueError, match="k must be"):
        recall_at_k(RANKING, {"a"}, 0)


@pytest.mark.parametrize(
    ("relevant", "expected"),
    [
        ({"a"}, 1.0),
        ({"c"}, 1 / 3),
        ({"a", "c"}, (1 / 1 + 2 / 3) / 2),  # precision 1 at rank 1, 2/3 at rank 3
        ({"b", "e"}, (1 / 2 + 2 / 5) / 2),
        ({"a", "z"}, (1 / 1 + 0) / 2),  # a missing relevant id adds 0
        ({"z"}, 0.0),
        (set(), 0.0),
    ],
)
def test_average_precision(relevant: set[str], expected: float) -> None:
    assert average_precision(RANKING, relevant) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("relevant", "expected"), [({"a"}, 1.0), ({"d", "e"}, 0.25), ({"z"}, 0.0), (set(), 0.0)]
)
def test_reciprocal_rank(relevant: set[str], expected: float) -> None:
    assert reciprocal_rank(RANKING, relevant) == pytest.approx(expected)


def test_mean() -> None:
    assert mean([1.0, 0.5, 0.0]) == pytest.approx(0.5)
    assert mean(x for x in (0.25, 0.75)) == pytest.approx(0.5)
    assert mean([]) == 0.0
