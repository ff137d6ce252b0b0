"""Upstream's DefaultNormalizeScore, on a numpy score array."""

from __future__ import annotations

from typing import Any

import numpy as np


def default_normalize_score(
    max_priority: int, reverse: bool, scores: np.ndarray[Any, np.dtype[np.int64]]
) -> None:
    """Scale non-negative `scores` in place from [0, max(scores)] to [0, max_priority].

    Integer arithmetic truncates as upstream's does. With `reverse`, each
    score becomes `max_priority - score`; when every score is 0, reversing
    gives every node `max_priority`.
    """
    max_count = int(scores.max(initial=0))
    if max_count == 0:
        if reverse:
            scores[:] = max_priority
        return
    scores *= max_priority
    scores //= max_count
    if reverse:
        np.subtract(max_priority, scores, out=scores)
