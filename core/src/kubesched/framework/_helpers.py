"""Helpers plugins share, as upstream's framework/plugins/helper package."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


def default_normalize_score(max_priority: int, reverse: bool, scores: NDArray[np.int64]) -> None:
    """Upstream's DefaultNormalizeScore, in place on a NodeScoreList's `scores`.

    Scales every score to `max_priority * score // highest` (integer division
    truncating toward zero, as Go's), reversed as `max_priority - that` when
    `reverse`. When every score is 0 they stay 0, or all become `max_priority`
    when reversed.
    """
    highest = int(scores.max(initial=0))
    if highest == 0:
        if reverse:
            scores[:] = max_priority
        return
    scaled = max_priority * scores
    scaled = np.sign(scaled) * (np.abs(scaled) // highest)
    scores[:] = max_priority - scaled if reverse else scaled
