"""A plugin that hangs fails that pod's cycle with an Error naming it; the rest go on."""

from __future__ import annotations

import signal
import time
from typing import Any

import pytest

from kubesched import hookimpl
from kubesched.api import Pod
from kubesched.framework import NodeInfo, Status
from kubesched.framework._registry import Registry
from kubesched.scheduler.outcome import ERROR, SCHEDULED
from kubesched.scheduler.watchdog import CycleTimeout, Watchdog
from kubesched.testing import make_node, make_pod


def hang() -> None:
    while True:
        time.sleep(0.005)


class HangingFilter:
    """Hangs on the pod named "stuck"."""

    name = "HangingFilter"

    def __init__(self, args: Any, handle: Any) -> None:
        pass

    @hookimpl
    def filter(self, pod: Pod, node_info: NodeInfo) -> Status | None:
        if pod.metadata.name == "stuck":
            hang()
        return None


def test_limit_interrupts_disarms_and_restores_the_handler() -> None:
    previous = signal.getsignal(signal.SIGALRM)
    watchdog = Watchdog(0.1)
    started = time.monotonic()
    with watchdog.session():
        with pytest.raises(CycleTimeout, match=r"exceeded its 0\.1s time limit"), watchdog.limit():
            hang()
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        with watchdog.limit():
            time.sleep(0.01)
    assert time.monotonic() - started < 5
    assert signal.getsignal(signal.SIGALRM) == previous


def test_no_limit_outside_a_session_or_when_disabled() -> None:
    with Watchdog(0.01).limit():
        time.sleep(0.05)
    disabled = Watchdog(0)
    with disabled.session(), disabled.limit():
        time.sleep(0.05)


def pods() -> list[Pod]:
    return [make_pod(name).namespace("default").req(cpu="100m").obj() for name in ("stuck", "fine")]


def test_hanging_filter_fails_that_pod_and_the_others_schedule(
    simulate: Any, registry: Registry, make_profile: Any
) -> None:
    registry.register("HangingFilter", HangingFilter)
    profile = make_profile(filters=("NodeResourcesFit", "HangingFilter"))
    nodes = [make_node("n1").capacity(cpu="4", memory="8Gi", pods=10).obj()]
    started = time.monotonic()
    _, result = simulate(nodes, pods(), [profile], cycle_timeout=0.2)
    outcomes = {o.pod: o for o in result.outcomes}
    assert outcomes["default/fine"].status == SCHEDULED
    stuck = outcomes["default/stuck"]
    assert stuck.status == ERROR
    assert stuck.message == (
        'plugin "HangingFilter" raised CycleTimeout in filter: '
        "the cycle exceeded its 0.2s time limit"
    )
    assert stuck.attempts == 1  # a simulation does not retry a pod whose cycle hung
    assert time.monotonic() - started < 10


def test_hanging_reserve_unreserves_and_forgets(
    simulate: Any, registry: Registry, make_profile: Any
) -> None:
    def reserve(pod: Pod) -> None:
        if pod.metadata.name == "stuck":
            hang()

    profile = make_profile(
        extra={"reserve": ("Recorder",)}, args={"Recorder": {"reserve": reserve}}
    )
    nodes = [make_node("n1").capacity(cpu="4", memory="8Gi", pods=10).obj()]
    sim, result = simulate(nodes, pods(), [profile], cycle_timeout=0.2)
    outcomes = {o.pod: o for o in result.outcomes}
    assert outcomes["default/stuck"].status == ERROR
    assert '"Recorder" raised CycleTimeout in reserve' in outcomes["default/stuck"].message
    assert outcomes["default/fine"].status == SCHEDULED
    recorder = sim.scheduler.frameworks["default-scheduler"].plugins["Recorder"]
    assert ("unreserve", "stuck", "n1") in recorder.calls
    assert not sim.scheduler.cache.is_assumed(pods()[0])


def test_no_limit_off_the_main_thread() -> None:
    import threading

    errors: list[BaseException] = []

    def work() -> None:
        watchdog = Watchdog(0.01)
        try:
            with watchdog.session(), watchdog.limit():
                time.sleep(0.05)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert errors == []


def test_the_limit_never_cuts_kubesched_own_bookkeeping(
    simulate: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A limit that passes while the cluster applies a bind waits for it to finish, so a bind
    that happened is reported as one (the alarm interrupts plugin code only)."""
    import kubesched.cluster.memory as memory

    namespace: dict[str, Any] = {"__name__": memory.__name__, "time": time, "evolve": memory.evolve}
    exec(  # a slow step inside kubesched's own code: its frame belongs to kubesched.cluster
        "def slow_evolve(*args, **kwargs):\n"
        "    time.sleep(0.3)\n"
        "    return evolve(*args, **kwargs)\n",
        namespace,
    )
    monkeypatch.setattr(memory, "evolve", namespace["slow_evolve"])
    nodes = [make_node("n1").capacity(cpu="4", memory="8Gi", pods=10).obj()]
    sim, result = simulate(nodes, pods(), cycle_timeout=0.1)
    assert [(o.status, o.node, o.message) for o in result.outcomes] == [
        (SCHEDULED, "n1", ""),
        (SCHEDULED, "n1", ""),
    ]
    assert all(p.spec.node_name == "n1" for p in sim.cluster.pods())


def test_plugin_code_running_looks_at_the_innermost_kubesched_frame() -> None:
    import sys

    from kubesched.scheduler.watchdog import plugin_code_running

    here = sys._getframe()
    assert plugin_code_running(here)  # no kubesched frame: plugin (or test) code
    namespace: dict[str, Any] = {"__name__": "kubesched.cluster.memory", "sys": sys}
    exec("def frame():\n    return sys._getframe()\n", namespace)
    assert not plugin_code_running(namespace["frame"]())  # kubesched's own code runs
    namespace["__name__"] = "kubesched.framework._plugin_calls"
    exec("def call(fn):\n    return fn()\n", namespace)
    plugin_frame = namespace["call"](lambda: sys._getframe())
    assert plugin_code_running(plugin_frame)  # plugin code the runtime called
