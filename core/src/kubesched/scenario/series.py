"""The time series a run samples: one `Sample` every `sample_interval` simulated seconds.

Per resource: what bound pods hold (`allocated`), what bound and pending pods ask for
(`requested`), the nodes' `allocatable`, and the two ratios to it. Pending pods are
counted by reason; scheduling latency (creation to bound) is summarised as nearest-rank
p50/p90/p99 over the pods bound since the previous sample; the counters are cumulative.
"""

from __future__ import annotations

from collections.abc import Mapping

from attrs import field, frozen

from kubesched.scenario.stats import ratio


@frozen
class ResourceUse:
    """One resource at a sample: held by bound pods, asked by all pods, allocatable."""

    allocated: int
    requested: int
    allocatable: int

    @property
    def allocation(self) -> float:
        """allocated / allocatable (6 decimals)."""
        return ratio(self.allocated, self.allocatable)

    @property
    def request(self) -> float:
        """requested / allocatable (6 decimals): above 1, demand exceeds the cluster."""
        return ratio(self.requested, self.allocatable)


@frozen
class Counters:
    """Cumulative counts since the start of the run."""

    created: int = 0
    bound: int = 0
    finished: int = 0
    deleted: int = 0
    attempts: int = 0
    preemptions: int = 0
    evictions: int = 0
    dropped: int = 0


@frozen
class Sample:
    """The cluster at one moment of simulated time."""

    at: float
    nodes: int
    running: int
    pending: int
    pending_by_reason: Mapping[str, int]
    resources: Mapping[str, ResourceUse]
    latency_p50: float | None
    latency_p90: float | None
    latency_p99: float | None
    counters: Counters = field(factory=Counters)

    def row(self) -> dict[str, float | int | str | None]:
        """The sample as one flat table row (see the column reference in the docs)."""
        row: dict[str, float | int | str | None] = {
            "time": self.at,
            "nodes": self.nodes,
            "running": self.running,
            "pending": self.pending,
            "latency_p50": self.latency_p50,
            "latency_p90": self.latency_p90,
            "latency_p99": self.latency_p99,
        }
        for name in ("created", "bound", "finished", "deleted", "attempts"):
            row[name] = getattr(self.counters, name)
        for name in ("preemptions", "evictions", "dropped"):
            row[name] = getattr(self.counters, name)
        for resource, use in sorted(self.resources.items()):
            row[f"{resource}_allocated"] = use.allocated
            row[f"{resource}_requested"] = use.requested
            row[f"{resource}_allocatable"] = use.allocatable
            row[f"{resource}_allocation"] = use.allocation
            row[f"{resource}_request"] = use.request
        for reason, count in sorted(self.pending_by_reason.items()):
            row[f"pending_{reason}"] = count
        return row
