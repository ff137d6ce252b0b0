"""The study's binning of a run's series by arrived workload.

Each pod falls in the bin of its arrived GPU milli as a percentage of
capacity rounded to the nearest integer (halves to even, as the study's
analysis rounds), bins 0..tune x 100. A bin's value is the mean over its
pods; an empty bin pools the pods of its neighbours at +-1 and takes their
mean (None if they are empty too). Sums are added in pod order
(`add_in_order`). Unallocated GPU % = 100 - allocated / capacity x 100;
frag amount is the cluster's fragmentation in % of capacity; frag ratio in %
of idle milli. (The study's analysis also rounds each pod's allocated % to
two decimals before averaging; that moves a bin by less than 0.005 and is
not done here.)
"""

from __future__ import annotations

from collections.abc import Sequence

from kubesched_gpushare.floats import add_in_order
from kubesched_gpushare.replay.run import ReplayResult


def arrived_bin(arrived: int, capacity: int) -> int:
    """100 x arrived / capacity rounded to the nearest integer, halves to even; exact."""
    whole, rest = divmod(100 * arrived, capacity)
    if 2 * rest > capacity or (2 * rest == capacity and whole % 2 == 1):
        whole += 1
    return whole


def _pools(
    arrived: Sequence[int], values: Sequence[float], capacity: int
) -> dict[int, list[float]]:
    pools: dict[int, list[float]] = {}
    for a, v in zip(arrived, values, strict=True):
        pools.setdefault(arrived_bin(a, capacity), []).append(v)
    return pools


def binned(
    arrived: Sequence[int], values: Sequence[float], capacity: int, top: int
) -> list[float | None]:
    """The mean value per arrived-% bin 0..top; an empty bin pools its neighbours' pods."""
    pools = _pools(arrived, values, capacity)
    out: list[float | None] = []
    for b in range(top + 1):
        pool = pools.get(b) or [v for n in (b - 1, b + 1) for v in pools.get(n, ())]
        out.append(add_in_order(pool) / len(pool) if pool else None)
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
