"""The watchdog arms its timer once for a run of short cycles, and still fails the one that
hangs after them; a run keeps its starting heap out of the garbage collector and gives it back."""

from __future__ import annotations

import gc
import signal
import time
from typing import Any

import pytest

from kubesched.scheduler.outcome import SCHEDULED
from kubesched.scheduler.watchdog import CycleTimeout, Watchdog
from kubesched.testing import make_node, make_pod


def test_short_cycles_arm_the_timer_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[float] = []
    real = signal.setitimer

    def counting(which: int, seconds: float, interval: float = 0.0) -> Any:
        calls.append(seconds)
        return real(which, seconds, interval)

    monkeypatch.setattr(signal, "setitimer", counting)
    watchdog = Watchdog(5.0)
    with watchdog.session():
        for _ in range(100):
            with watchdog.limit():
                pass
    assert calls == [5.0, 0]  # armed by the first cycle, disarmed by the session's end


def test_a_hang_after_short_cycles_is_still_cut_at_its_own_limit() -> None:
    watchdog = Watchdog(0.2)
    with watchdog.session():
        for _ in range(3):  # the timer armed by the first cycle stays pending
            with watchdog.limit():
                time.sleep(0.05)
        started = time.monotonic()
        with pytest.raises(CycleTimeout), watchdog.limit():
            while True:
                time.sleep(0.005)
        waited = time.monotonic() - started
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert 0.19 <= waited < 2  # the full limit from this cycle's start, not the first one's


def test_a_nested_limit_restores_the_outer_deadline() -> None:
    watchdog = Watchdog(0.2)
    with watchdog.session(), pytest.raises(CycleTimeout), watchdog.limit():
        with watchdog.limit():
            pass
        while True:  # the outer limit still holds after the inner one ended
            time.sleep(0.005)


def test_a_run_freezes_the_heap_and_unfreezes_it(simulate: Any, monkeypatch: Any) -> None:
    seen: list[int] = []
    nodes = [make_node("n1").capacity(cpu="4", memory="8Gi", pods=10).obj()]
    pods = [make_pod("p").req(cpu="100m").obj()]
    real_freeze = gc.freeze

    def freeze() -> None:
        real_freeze()
        seen.append(gc.get_freeze_count())

    monkeypatch.setattr(gc, "freeze", freeze)
    assert gc.get_freeze_count() == 0
    _, result = simulate(nodes, pods)
    assert [o.status for o in result.outcomes] == [SCHEDULED]
    assert seen and seen[0] > 0  # frozen during the run
    assert gc.get_freeze_count() == 0  # and given back after
