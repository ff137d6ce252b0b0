"""The clocks: simulated time that only moves when told, and the real one.

The scheduler takes any `Clock` (framework/interface.py). A simulation runs on
`SimulatedClock`: backoffs, Permit timeouts and the unschedulable-pods flush
cost no wall time, because the simulation advances the clock straight to the
next moment something can happen.
"""

from __future__ import annotations

import time


class SimulatedClock:
    """A clock that stands still until `advance_to` moves it forward."""

    __slots__ = ("_now",)

    def __init__(self, start: float = 0.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance_to(self, moment: float) -> None:
        """Move to `moment`; time never runs backwards."""
        if moment < self._now:
            raise ValueError(f"cannot move the clock back from {self._now} to {moment}")
        self._now = moment


class MonotonicClock:
    """The real clock of a live scheduler: seconds that never run backwards."""

    __slots__ = ()

    def now(self) -> float:
        return time.monotonic()
