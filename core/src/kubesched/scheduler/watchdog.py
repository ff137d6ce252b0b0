"""A wall-clock limit on each scheduling or binding cycle, so a plugin that hangs fails
that pod's cycle instead of stalling the scheduler.

When the limit passes, `CycleTimeout` is raised in the plugin code that is
running, which for a hung cycle is the plugin that hangs: the runtime turns
it into an Error status naming that plugin, as for any plugin that raises.
Only plugin code is interrupted: when the time is up while kubesched's own
code runs (the cache, the queue, the cluster applying a bind a plugin asked
for), the alarm comes back a moment later, so that bookkeeping is never left
half-done. `CycleTimeout` is a BaseException, so a plugin's `except Exception`
does not swallow it.

The limit uses SIGALRM: its handler is installed for a whole run (`session()`,
which restores the previous handler after). Each cycle only notes its deadline
(`limit()`); the timer is armed when none is pending and, when it goes off
before the running cycle's deadline (it was armed for an earlier cycle), is
armed again for the time left. So a run of short cycles makes a timer system
call about once per limit, not two per cycle. It applies on the main thread of
a Unix process; elsewhere cycles run unlimited.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

DEFAULT_CYCLE_TIMEOUT = 30.0
"""Seconds one cycle may take before the plugin running it is failed."""


RETRY_SECONDS = 0.01
"""How soon the alarm comes back when it went off in kubesched's own code."""


class CycleTimeout(BaseException):
    """A cycle ran past its wall-clock limit (a BaseException: plugins must not catch it)."""


def _module(frame: FrameType) -> str:
    return str(frame.f_globals.get("__name__", ""))


def _is_core(module: str) -> bool:
    return module == "kubesched" or module.startswith("kubesched.")


def plugin_code_running(frame: FrameType | None) -> bool:
    """Is the interrupted code a plugin's (or a library it called), not kubesched's own?

    The innermost kubesched frame decides: the runtime calling into a plugin (or
    no kubesched frame at all) means plugin code runs; any other kubesched code,
    or kubesched code running itself, is bookkeeping that must finish.
    """
    if frame is None or _is_core(_module(frame)):
        return False
    while frame is not None and not _is_core(_module(frame)):
        frame = frame.f_back
    return frame is None or _module(frame).startswith("kubesched.framework.")


class Watchdog:
    """Arms `seconds` of wall-clock time around each cycle of a run."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds if seconds and seconds > 0 else None
        self._active = False
        self._armed = False
        self._deadline: float | None = None
        """When the running cycle's limit passes (monotonic clock); None between cycles."""

    def _arm(self, seconds: float) -> None:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        self._armed = True

    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        self._armed = False
        deadline = self._deadline
        if deadline is None:
            return  # armed for a cycle that has ended; the next one arms again
        left = deadline - time.monotonic()
        if left > 0:
            self._arm(left)
            return
        if not plugin_code_running(frame):
            self._arm(RETRY_SECONDS)
            return
        self._deadline = None
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
            self._active = self._armed = False
            self._deadline = None

    @contextmanager
    def limit(self) -> Iterator[None]:
        """Raise `CycleTimeout` in the running code if the block outlasts the limit."""
        if not self._active or self.seconds is None:
            yield
            return
        outer = self._deadline
        self._deadline = time.monotonic() + self.seconds
        if outer is not None and outer < self._deadline:
            self._deadline = outer  # a nested limit ends no later than its enclosing one
        if not self._armed:
            self._arm(self.seconds)
        try:
            yield
        finally:
            self._deadline = outer
