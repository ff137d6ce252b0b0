"""Deterministic statistics: nearest-rank percentiles and ratios, the same on every Python."""

from __future__ import annotations

import math
from collections.abc import Sequence

PERCENTILES = (50, 90, 99)


def percentile(sorted_values: Sequence[float], p: float) -> float | None:
    """The nearest-rank `p`th percentile of already sorted values; None when there are none."""
    if not sorted_values:
        return None
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def ratio(part: int, whole: int) -> float:
    """part / whole rounded to 6 decimals; 0 when whole is 0."""
    return round(part / whole, 6) if whole else 0.0
