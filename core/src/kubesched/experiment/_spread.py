"""A metric over seeds: mean, min and max, reduced the same way on every Python.

The mean is `math.fsum` (correctly rounded, so independent of order and of the
interpreter's `sum`) divided by the count.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from attrs import frozen


@frozen
class Spread:
    """The mean, minimum and maximum of one metric over seeds."""

    mean: float
    min: float
    max: float

    def document(self) -> dict[str, float]:
        return {"mean": self.mean, "min": self.min, "max": self.max}


def spread(values: Sequence[float]) -> Spread:
    """The spread of at least one value."""
    if not values:
        raise ValueError("a spread needs at least one value")
    floats = [float(v) for v in values]
    return Spread(math.fsum(floats) / len(floats), min(floats), max(floats))


def numeric(metrics: Mapping[str, object]) -> dict[str, float]:
    """The values that are numbers (those a spread is taken of); booleans and texts left out."""
    return {
        key: float(value)
        for key, value in metrics.items()
        if isinstance(value, (int, float)) and not isinstance(value, bool)
    }
