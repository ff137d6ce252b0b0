"""Arrival order and workload inflation, as the study's replay does them.

The pods are sorted by name and shuffled with the seed; then copies drawn
uniformly with replacement from the original list are appended until the
total GPU request would pass `tune` x the cluster's GPUs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from kubesched_gpushare.replay.trace import TracePod
from kubesched_gpushare.resources import MILLI


def arrivals(pods: Sequence[TracePod], seed: int) -> list[TracePod]:
    """The original pods in the seed's arrival order."""
    order = sorted(pods, key=lambda p: p.name)
    random.Random(seed).shuffle(order)
    return order


def inflate(
    order: Sequence[TracePod], pool: Sequence[TracePod], capacity_milli: int, tune: float, seed: int
) -> list[TracePod]:
    """`order`, then samples of `pool` until one more would pass `tune` x capacity."""
    out = list(order)
    total = sum(p.request.total_milli for p in out)
    limit = tune * capacity_milli
    rng = random.Random(seed + 1_000_003)
    if not pool or not any(p.request.total_milli for p in pool):
        return out
    while True:
        pick = pool[rng.randrange(len(pool))]
        if total + pick.request.total_milli > limit:
            return out
        out.append(pick)
        total += pick.request.total_milli


def capacity(gpus: int) -> int:
    return gpus * MILLI
