"""Run one measured run in a fresh interpreter, so its peak resident memory is its own.

`ru_maxrss` only ever grows within a process; a child started with `spawn`
(not `fork`, which would inherit the parent's pages) begins from an empty
interpreter, and its peak at the end is what that one run needed.
"""

from __future__ import annotations

import multiprocessing
import resource
import sys
from collections.abc import Callable
from typing import Any


def peak_rss_mib() -> float:
    """This process's peak resident set size so far, in MiB (Linux reports KiB)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


def _with_peak(fn: Callable[..., dict[str, Any]], args: tuple[Any, ...]) -> dict[str, Any]:
    result = fn(*args)
    return {**result, "peak_rss_mib": peak_rss_mib()}


def isolated(fn: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    """`fn(*args)` run in a new process, its result with `peak_rss_mib` added. `fn` must be
    a module-level function of an importable module (the script's own is fine)."""
    with multiprocessing.get_context("spawn").Pool(1, maxtasksperchild=1) as pool:
        result: dict[str, Any] = pool.apply(_with_peak, (fn, args))
    return result
