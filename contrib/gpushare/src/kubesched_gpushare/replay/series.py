"""The study's binning of a run's series by arrived workload.

Each pod falls in the bin of its arrived GPU milli as an integer percentage
of capacity (0..tune x 100). A bin's value is the mean over its pods; an
empty bin takes the mean of its neighbours at +-1 (None if they are empty
too). Unallocated GPU % = 100 - allocated / capacity x 100; frag amount is
the cluster's fragmentation in % of capacity; frag ratio in % of idle milli.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from kubesched_gpushare.replay.run import ReplayResult


def _bins(arrived: Sequence[int], values: Sequence[float], capacity: int) -> dict[int, float]:
    sums: dict[int, tuple[float, int]] = {}
    for a, v in zip(arrived, values, strict=True):
        b = math.floor(100 * a / capacity)
        total, count = sums.get(b, (0.0, 0))
        sums[b] = (total + v, count + 1)
    return {b: total / count for b, (total, count) in sums.items()}


def binned(
    arrived: Sequence[int], values: Sequence[float], capacity: int, top: int
) -> list[float | None]:
    """The mean value per arrived-% bin 0..top, empty bins from their neighbours."""
    means = _bins(arrived, values, capacity)
    out: list[float | None] = []
    for b in range(top + 1):
        if b in means:
            out.append(means[b])
            continue
        near = [means[n] for n in (b - 1, b + 1) if n in means]
        out.append(sum(near) / len(near) if near else None)
    return out


def unallocated(result: ReplayResult, top: int) -> list[float | None]:
    """Unallocated GPU % per arrived-% bin."""
    cap = result.capacity_milli
    values = [100 - 100 * a / cap for a in result.allocated]
    return binned(result.arrived, values, cap, top)


def frag_amount(result: ReplayResult, top: int) -> list[float | None]:
    """Cluster fragmentation in % of GPU capacity per arrived-% bin."""
    cap = result.capacity_milli
    return binned(result.arrived, [100 * f / cap for f in result.frag], cap, top)


def frag_ratio(result: ReplayResult, top: int) -> list[float | None]:
    """Cluster fragmentation in % of idle GPU milli per arrived-% bin."""
    cap = result.capacity_milli
    values = [
        100 * f / (cap - a) if cap > a else 0.0
        for f, a in zip(result.frag, result.allocated, strict=True)
    ]
    return binned(result.arrived, values, cap, top)
