"""A wall-clock limit on each scheduling or binding cycle, so a plugin that hangs fails
that pod's cycle instead of stalling the scheduler.

When the limit passes, `CycleTimeout` is raised in whatever code is running,
which for a hung cycle is the plugin that hangs: the runtime turns it into an
Error status naming that plugin, as for any plugin that raises. The limit
uses SIGALRM: its handler is installed for a whole run (`session()`, which
restores the previous handler after) and each cycle only arms and disarms
the timer (`limit()`), about a microsecond. It applies on the main thread
of a Unix process; elsewhere cycles run unlimited.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

DEFAULT_CYCLE_TIMEOUT = 30.0
"""Seconds one cycle may take before the plugin running it is failed."""


class CycleTimeout(Exception):
    """A cycle ran past its wall-clock limit."""


class Watchdog:
    """Arms `seconds` of wall-clock time around each cycle of a run."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds if seconds and seconds > 0 else None
        self._active = False

    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        raise CycleTimeout(f"the cycle exceeded its {self.seconds:g}s time limit")

    @contextmanager
    def session(self) -> Iterator[None]:
        """Install the alarm handler for the duration of a run (main thread only)."""
        usable = (
            self.seconds is not None
            and not self._active
            and hasattr(signal, "setitimer")
            and threading.current_thread() is threading.main_thread()
        )
        if not usable:
            yield
            return
        previous = signal.signal(signal.SIGALRM, self._on_alarm)
        self._active = True
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            self._active = False

    @contextmanager
    def limit(self) -> Iterator[None]:
        """Raise `CycleTimeout` in the running code if the block outlasts the limit."""
        if not self._active or self.seconds is None:
            yield
            return
        signal.setitimer(signal.ITIMER_REAL, self.seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
