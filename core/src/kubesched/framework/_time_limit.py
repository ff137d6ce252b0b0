"""A wall-clock limit on plugin code that runs outside any scheduling cycle: a plugin's
constructor, which the cycle watchdog does not cover.

`time_limit(seconds)` raises `PluginTimeout` in the code running when the time is up
(SIGALRM, on the main thread of a Unix process; elsewhere the block runs unlimited). The
previous SIGALRM handler and timer are put back afterwards, so a cycle watchdog already
armed keeps its deadline.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

PLUGIN_INIT_TIMEOUT = 30.0
"""Seconds a plugin's constructor may take before the profile fails to build."""


class PluginTimeout(BaseException):
    """Plugin code ran past its limit (a BaseException: `except Exception` does not hide it)."""


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise `PluginTimeout` in the block if it runs longer than `seconds`."""
    usable = (
        seconds is not None
        and seconds > 0
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return

    def on_alarm(signum: int, frame: FrameType | None) -> None:
        raise PluginTimeout(f"did not return within {seconds:g}s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    pending, _ = signal.getitimer(signal.ITIMER_REAL)
    signal.setitimer(signal.ITIMER_REAL, seconds)  # type: ignore[arg-type]
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if pending:
            signal.setitimer(signal.ITIMER_REAL, pending)
