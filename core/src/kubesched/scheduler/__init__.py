"""The scheduler loop: queue, cache and snapshot, nominator, schedule-one, binding, metrics.

    simulation = Simulation(scheduler, clock)  # a Scheduler on a SimulatedClock
    result = simulation.run()                  # every pending pod's outcome, and a summary

`Scheduler` is the loop itself over any `ClusterSource` and clock; `Simulation`
drives it on a `SimulatedClock` until nothing can change any more, `LiveLoop`
on a `MonotonicClock` against a live cluster until told to stop.
`kubesched.profile.build_simulation` builds both from a configuration.
"""

from kubesched.scheduler.cache import Cache, CacheError
from kubesched.scheduler.clock import MonotonicClock, SimulatedClock
from kubesched.scheduler.loop import LiveLoop
from kubesched.scheduler.metrics import SchedulerMetrics
from kubesched.scheduler.nominator import Nominator
from kubesched.scheduler.outcome import NodeExplanation, PodOutcome
from kubesched.scheduler.queue import SchedulingQueue
from kubesched.scheduler.report import result_document
from kubesched.scheduler.scheduler import Scheduler, SchedulerSettings
from kubesched.scheduler.simulation import NodeUsage, Simulation, SimulationResult, Summary
from kubesched.scheduler.snapshot import Snapshot
from kubesched.scheduler.source import ClusterSource, ObjectChange

__all__ = [
    "Cache",
    "CacheError",
    "ClusterSource",
    "LiveLoop",
    "MonotonicClock",
    "NodeExplanation",
    "NodeUsage",
    "Nominator",
    "ObjectChange",
    "PodOutcome",
    "Scheduler",
    "SchedulerMetrics",
    "SchedulerSettings",
    "SchedulingQueue",
    "SimulatedClock",
    "Simulation",
    "SimulationResult",
    "Snapshot",
    "Summary",
    "result_document",
]
