"""The scheduling loop, shared by a simulation and a live scheduler.

Each turn applies the cluster's changes, resumes the binding cycles whose
pods were let through Permit, moves pods whose backoff is over and pops the
next pod (`next_pod`), whose scheduling cycle then runs. When no pod is ready, the loop waits for
the next moment something can happen (`next_moment`): a Permit timeout, the
end of an error backoff, the 30-second sweep of pods left unschedulable for
5 minutes. A simulation jumps its clock there; a live scheduler
(`LiveLoop`) sleeps until then or until the cluster changes.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from kubesched.api import Pod
from kubesched.scheduler.backoff import BACKOFF_ORDERING_WINDOW
from kubesched.scheduler.entry import QueueEntry
from kubesched.scheduler.queue import UNSCHEDULABLE_FLUSH_PERIOD
from kubesched.scheduler.scheduler import Scheduler

MAX_IDLE_WAIT = 5.0
"""A live loop looks at its clock at least this often when nothing happens."""


def next_pod(sched: Scheduler) -> QueueEntry | None:
    """Apply the cluster's changes, resume bindings, end backoffs; the next pod to try, if any."""
    sched.sync()
    sched.pump_bindings()
    sched.sync()
    with sched.watchdog.limit():  # QueueSort is plugin code: a hang in it is cut short too
        sched.queue.flush_backoff_completed()
        return sched.queue.pop()


def next_moment(sched: Scheduler, worth: Callable[[Pod], bool] | None = None) -> float | None:
    """The next time something can happen, or None when nothing can.

    Errors are retried on backoff, as upstream retries them. `worth` limits the sweep of
    unschedulable pods to those for which a retry can change something (a simulation
    retries only pods the cluster changed for since they failed).
    """
    queue = sched.queue
    moments = []
    deadline = sched.next_permit_deadline()
    if deadline is not None:
        moments.append(deadline)
    for entry in queue.backoff.errored():
        expiry = queue.backoff.expiry(entry)
        if expiry is not None:
            moments.append(expiry + BACKOFF_ORDERING_WINDOW)
    for entry in queue.rejected_unschedulable_entries():
        if worth is None or worth(entry.pod):
            moments.append(next_sweep(queue.leftover_deadline(entry)))
    return min(moments, default=None)


def next_sweep(after: float) -> float:
    """The first 30-second sweep of the unschedulable pods strictly after `after`."""
    return (math.floor(after / UNSCHEDULABLE_FLUSH_PERIOD) + 1) * UNSCHEDULABLE_FLUSH_PERIOD


def reach(sched: Scheduler, moment: float) -> None:
    """What happens when the clock reaches `moment`: Permit timeouts, and the sweep on its beat."""
    sched.expire_waiting_pods()
    if moment % UNSCHEDULABLE_FLUSH_PERIOD == 0:
        sched.queue.flush_unschedulable_leftover()


class LiveLoop:
    """The loop on a real clock: turns while pods are ready, else waits for the cluster.

    `wait(seconds)` blocks until the cluster changes or the time is up; `stopping()`
    is asked after every turn and wait.
    """

    def __init__(
        self,
        sched: Scheduler,
        wait: Callable[[float], object],
        stopping: Callable[[], bool],
    ) -> None:
        self.sched = sched
        self.wait = wait
        self.stopping = stopping
        self.cycles = 0

    def run(self) -> None:
        sched = self.sched
        clock = sched.clock
        sweep = next_sweep(clock.now())
        with sched.watchdog.session():
            while not self.stopping():
                entry = next_pod(sched)
                if entry is not None:
                    sched.schedule_one(entry)
                    self.cycles += 1
                    continue
                sched.expire_waiting_pods()
                now = clock.now()
                if now >= sweep:
                    sched.queue.flush_unschedulable_leftover()
                    sweep = next_sweep(now)
                sched.refresh_gauges()
                moment = min(next_moment(sched) or math.inf, sweep)
                pause = min(moment - now, MAX_IDLE_WAIT)
                if pause > 0:
                    self.wait(pause)
