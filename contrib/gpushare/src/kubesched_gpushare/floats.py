"""Float additions in a stated order.

Python's builtin `sum()` adds floats with compensated summation since 3.12, and
numpy's `sum` adds pairwise in blocks whose shape depends on the array's
layout: both can change the last bits of a result between Python or numpy
versions. The FGD score is an integer cut of a sigmoid, and most of its
placements tie, so one changed bit in a node's fragmentation flips placements
and moves the headline by points. Every float reduction of the policies and the
replay goes through `add_in_order`: left to right in float64 from 0.0, as the
study's Go code adds.
"""

from __future__ import annotations

from collections.abc import Iterable


def add_in_order(values: Iterable[float]) -> float:
    """The float64 sum of `values`, added one at a time from 0.0 in iteration order."""
    total = 0.0
    for value in values:
        total += value
    return total


def mean_in_order(values: Iterable[float]) -> float:
    """`add_in_order(values)` divided by their count (NaN for none)."""
    items = list(values)
    return add_in_order(items) / len(items) if items else float("nan")
