"""Filter and Score over many nodes at once, on the snapshot's NodeTable columns.

Both run the kernels the per-node forms run (`fit.comparisons`, `scoring.score`), on
int64 columns instead of one node's ints: every division there has a non-negative
numerator and a positive denominator or goes through `trunc_div`, so numpy's results
equal Go's.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from kubesched.framework import NodeTable
from kubesched_noderesourcesfit.args import ScoringStrategy
from kubesched_noderesourcesfit.fit import (
    FitCheck,
    InsufficientResource,
    comparisons,
    insufficient,
    short,
)
from kubesched_noderesourcesfit.scoring import score
from kubesched_noderesourcesfit.views import ARRAY, TableView

Int64s = NDArray[np.int64]


class InsufficientMatrix:
    """Filter's comparisons over every row at once: one column per compared resource (pods
    first), True where the node lacks room. Both the mask and each row's reasons come from it.
    """

    def __init__(self, check: FitCheck, table: NodeTable) -> None:
        self._columns = list(comparisons(check, TableView(table)))
        self._short: list[NDArray[np.bool_]] = [
            short(amount, used, capacity) for _, amount, used, capacity in self._columns
        ]

    def fits(self) -> NDArray[np.bool_]:
        """True for every row whose node has room (no resource short)."""
        lacking = self._short[0]
        for column in self._short[1:]:
            lacking = lacking | column
        fits: NDArray[np.bool_] = ~lacking
        return fits

    def insufficient_at(self, row: int) -> list[InsufficientResource]:
        """The row's InsufficientResources, equal to `fit.node_shortages` on its node."""
        return [
            insufficient(name, amount, int(used[row]), int(capacity[row]))
            for (name, amount, used, capacity), lacking in zip(
                self._columns, self._short, strict=True
            )
            if lacking[row]
        ]


def score_batch(
    strategy: ScoringStrategy,
    table: NodeTable,
    rows: NDArray[np.intp],
    pod_requests_per_resource: Sequence[int],
) -> Int64s:
    """Scores of `rows`, equal to the per-node score of each of them."""
    scores = score(strategy, TableView(table, rows), pod_requests_per_resource, ARRAY)
    if isinstance(scores, np.ndarray) and scores.shape == (len(rows),):
        return scores.astype(np.int64, copy=False)
    return np.full(len(rows), scores, dtype=np.int64)  # no resource counted: one constant
