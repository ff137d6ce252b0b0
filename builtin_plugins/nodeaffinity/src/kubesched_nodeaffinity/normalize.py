"""Upstream's DefaultNormalizeScore: scale scores so the highest becomes `max_priority`."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


def default_normalize_score(max_priority: int, reverse: bool, scores: NDArray[np.int64]) -> None:
    """Rescale `scores` in place to `max_priority * score // highest` (Go's truncating
    division), reversed as `max_priority - that` when `reverse`. All-zero scores stay
    zero, or all become `max_priority` when reversed."""
    highest = int(scores.max(initial=0))
    if highest == 0:
        if reverse:
            scores[:] = max_priority
        return
    scaled = max_priority * scores
    scaled = np.sign(scaled) * (np.abs(scaled) // highest)
    scores[:] = max_priority - scaled if reverse else scaled
