"""Upstream's DefaultNormalizeScore table (plugins/helper/normalize_score_test.go)."""

from __future__ import annotations

import numpy as np
import pytest

from kubesched.framework import MAX_NODE_SCORE
from kubesched.framework._helpers import default_normalize_score


@pytest.mark.parametrize(
    ("reverse", "scores", "expected"),
    [
        (False, [1, 2, 3, 4], [25, 50, 75, 100]),
        (True, [1, 2, 3, 4], [75, 50, 25, 0]),
        (False, [1000, 10, 20, 30], [100, 1, 2, 3]),
        (True, [1000, 10, 20, 30], [0, 99, 98, 97]),
        (False, [1, 1, 1, 1], [100, 100, 100, 100]),
        (False, [1000, 1, 1, 1], [100, 0, 0, 0]),
        (True, [0, 1, 1, 1], [100, 0, 0, 0]),
        (False, [0, 0, 0], [0, 0, 0]),
        (True, [0, 0, 0], [100, 100, 100]),
    ],
)
def test_default_normalize_score(reverse: bool, scores: list[int], expected: list[int]) -> None:
    array = np.array(scores, dtype=np.int64)
    default_normalize_score(MAX_NODE_SCORE, reverse, array)
    assert array.tolist() == expected


NORMALIZE_CASES = [
    (False, [1, 2, 3, 4], [25, 50, 75, 100]),
    (True, [1, 2, 3, 4], [75, 50, 25, 0]),
    (False, [1000, 10, 20, 30], [100, 1, 2, 3]),
    (True, [1000, 10, 20, 30], [0, 99, 98, 97]),
    (False, [1, 1, 1, 1], [100, 100, 100, 100]),
    (False, [1000, 1, 1, 1], [100, 0, 0, 0]),
    (True, [0, 1, 1, 1], [100, 0, 0, 0]),
    # Beyond upstream's table: all zero.
    (True, [0, 0, 0], [100, 100, 100]),
    (False, [0, 0, 0], [0, 0, 0]),
    (True, [], []),
]


@pytest.mark.parametrize(("reverse", "raw", "expected"), NORMALIZE_CASES)
def test_default_normalize_score_reverse_table(
    reverse: bool, raw: list[int], expected: list[int]
) -> None:
    scores = np.array(raw, dtype=np.int64)
    default_normalize_score(100, reverse, scores)
    assert scores.tolist() == expected
