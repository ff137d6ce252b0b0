"""PreScore and Score: weights summed per topology domain, once per cycle.

For each existing pod on a node with topology labels: the incoming pod's
preferred terms it matches add (affinity) or subtract (anti-affinity) their
weight in that node's domain; its own required affinity terms the incoming pod
matches add `hardPodAffinityWeight`; its own preferred terms the incoming pod
matches add or subtract their weight. A node's score is the sum over its
domains; NormalizeScore maps min..max to 0..100 (upstream's scoring.go).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from attrs import frozen
from numpy.typing import NDArray

from kubesched.framework import (
    MAX_NODE_SCORE,
)
from kubesched_interpodaffinity import domains


@frozen
class PreScoreState:
    """Per topology key, the summed weight of each domain, indexed by the domain's code
    (`domains.codes`) with a trailing 0 for nodes without the label; read-only after
    PreScore."""

    totals: dict[str, NDArray[np.int64]]

    def clone(self) -> PreScoreState:
        return self

    def score(self, labels: Mapping[str, str]) -> int:
        """The node's raw score: the weights of its domains."""
        total = 0
        for key, sums in self.totals.items():
            value = labels.get(key)
            if value is not None:
                code = domains.code_of(key, value)
                if 0 <= code < len(sums) - 1:
                    total += int(sums[code])
        return total


def normalize(scores: NDArray[np.int64]) -> NDArray[np.int64]:
    """min..max mapped onto 0..MAX_NODE_SCORE, truncated; all 0 when every score is equal
    (the same float64 arithmetic as upstream's)."""
    if len(scores) == 0:
        return scores
    low, high = int(scores.min()), int(scores.max())
    spread = high - low
    if spread <= 0:
        return np.zeros(len(scores), dtype=np.int64)
    return (MAX_NODE_SCORE * ((scores - low) / spread)).astype(np.int64)
