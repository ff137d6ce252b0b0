"""FGD's per-node kernel: the score of a node for a pod, and the devices it would take."""

from __future__ import annotations

import math
from collections.abc import Sequence

from kubesched.framework import MAX_NODE_SCORE
from kubesched_gpushare.frag import TypicalPod, node_fragment
from kubesched_gpushare.resources import MILLI, GpuRequest


def frag_score(before: float, after: float) -> int:
    """int(100 x sigmoid((before - after) / 1000))."""
    return int(MAX_NODE_SCORE / (1.0 + math.exp(-(before - after) / 1000)))


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
) -> tuple[int, tuple[int, ...]]:
    """The node's score for the pod and the devices it would take there."""
    before = node_fragment(free, cpu_free, model, workload)
    if request.shares:
        best: tuple[int, tuple[int, ...]] | None = None
        for i, f in enumerate(free):
            if f < request.milli:
                continue
            after_free = (*free[:i], f - request.milli, *free[i + 1 :])
            after = node_fragment(after_free, cpu_free - cpu, model, workload)
            score = frag_score(before, after)
            if best is None or score > best[0]:
                best = (score, (i,))
        return best if best is not None else (0, ())
    devices = whole_devices(free, request.count) if request.count else ()
    after_free = tuple(0 if i in devices else f for i, f in enumerate(free))
    after = node_fragment(after_free, cpu_free - cpu, model, workload)
    return frag_score(before, after), devices
