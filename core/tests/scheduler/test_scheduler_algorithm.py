"""numFeasibleNodesToFind (upstream's TestNumFeasibleNodesToFind plus the notes' table)."""

from __future__ import annotations

import pytest

from kubesched.scheduler.algorithm import num_feasible_nodes_to_find


@pytest.mark.parametrize(
    ("percentage", "nodes", "expected"),
    [
        (0, 10, 10),
        (40, 10, 10),
        (0, 1000, 420),
        (40, 1000, 400),
        (0, 6000, 300),
        (40, 6000, 2400),
        (0, 50, 50),
        (0, 100, 100),
        (0, 500, 230),
        (0, 2000, 680),
        (0, 3000, 780),
        (0, 5000, 500),
        (0, 15000, 750),
        (1, 1000, 100),
        (100, 1000, 1000),
    ],
)
def test_num_feasible_nodes_to_find(percentage: int, nodes: int, expected: int) -> None:
    assert num_feasible_nodes_to_find(percentage, nodes) == expected
