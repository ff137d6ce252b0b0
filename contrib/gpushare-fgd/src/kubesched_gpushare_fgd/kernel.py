"""FGD's per-node kernel: the score of a node for a pod, and the devices it would take.

The score is int(100 x sigmoid((F_before - F_after) / 1000)), computed as the
number of thresholds ln(k / (100 - k)), k = 1..99, that the argument reaches:
the same integer, found by comparisons only, so the per-node and the batch
forms agree bit for bit.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from kubesched_gpushare.frag import TypicalPod, node_fragment
from kubesched_gpushare.resources import MILLI, GpuRequest

THRESHOLDS = [math.log(k / (100 - k)) for k in range(1, 100)]
_THRESHOLDS = np.array(THRESHOLDS)


def frag_score(before: float, after: float) -> int:
    """int(100 x sigmoid((before - after) / 1000))."""
    return bisect.bisect_right(THRESHOLDS, (before - after) / 1000)


def frag_scores(before: NDArray[np.float64], after: NDArray[np.float64]) -> NDArray[np.int64]:
    """`frag_score` over arrays."""
    scores: NDArray[np.int64] = np.searchsorted(
        _THRESHOLDS, (before - after) / 1000, side="right"
    ).astype(np.int64)
    return scores


def whole_devices(free: Sequence[int], count: int) -> tuple[int, ...]:
    """The lowest-numbered `count` fully free devices."""
    return tuple(i for i, f in enumerate(free) if f == MILLI)[:count]


def score_node(
    free: tuple[int, ...],
    cpu_free: int,
    model: str,
    cpu: int,
    request: GpuRequest,
    workload: Sequence[TypicalPod],
) -> tuple[int, int | None]:
    """The node's score for the pod and, for a pod sharing a GPU, the device it would
    take (whole GPUs go to the lowest-numbered fully free ones, GpuShare's own pick)."""
    before = node_fragment(free, cpu_free, model, workload)
    if request.shares:
        best: tuple[int, int] | None = None
        for i, f in enumerate(free):
            if f < request.milli:
                continue
            after_free = (*free[:i], f - request.milli, *free[i + 1 :])
            after = node_fragment(after_free, cpu_free - cpu, model, workload)
            score = frag_score(before, after)
            if best is None or score > best[0]:
                best = (score, i)
        return best if best is not None else (0, None)
    devices = whole_devices(free, request.count) if request.count else ()
    after_free = tuple(0 if i in devices else f for i, f in enumerate(free))
    after = node_fragment(after_free, cpu_free - cpu, model, workload)
    return frag_score(before, after), None
