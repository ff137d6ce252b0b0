"""A day of churn: `kubesched replay`'s engine over one simulated day of a 5,000-node cluster
with 100,000 pod arrivals, each running for a while and then leaving.

Nodes and pods are upstream scheduler_perf's SchedulingBasic templates (from
scheduling_basic.py: 4 CPU / 32 GiB / 110 pods nodes, 100m / 500 MiB pods). Pods
arrive at seeded exponential gaps over 24 hours and run for a seeded exponential time
(mean 6 hours, so about 25,000 pods are live at once), and the run stops at the end
of the day; the events are generated as the
run reads them (never all held), and the per-pod log is off, so memory follows the
live objects. Reports events/s (scenario events and pod completions over wall time),
pods/s (pods bound over wall time), wall and CPU seconds and the peak RSS of the run,
which runs in its own process.

    uv run python benchmarks/replay.py            # 5,000 nodes, 100,000 pods (minutes)
    uv run python benchmarks/replay.py --quick    # 200 nodes, 2,000 pods (CI)

Prints JSON and writes it to benchmarks/results/replay.json.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from _isolated import isolated
from _measure import write_report
from attrs import frozen
from scheduling_basic import make_node, make_pod

from kubesched.api import ClusterObjects
from kubesched.replay import Event, PodCreated, ReplayOptions, Scenario, replay

RESULTS = Path(__file__).parent / "results" / "replay.json"
DAY = 86_400.0
MEAN_RUNNING = 6 * 3600.0


@frozen
class Shape:
    nodes: int
    pods: int
    seconds: float = DAY

    @property
    def name(self) -> str:
        return f"{self.nodes}Nodes_{self.pods}Pods_{int(self.seconds)}s"


FULL = Shape(5000, 100_000)
QUICK = Shape(200, 2000)


def arrivals(shape: Shape, seed: int) -> Iterator[Event]:
    """`shape.pods` pods at exponential gaps over `shape.seconds`, each with a running time."""
    rng = random.Random(seed)
    rate = shape.pods / shape.seconds
    at = 0.0
    for i in range(shape.pods):
        at += rng.expovariate(rate)
        yield PodCreated(
            round(at, 3), make_pod("pod", i), round(rng.expovariate(1 / MEAN_RUNNING), 3)
        )


def scenario(shape: Shape, seed: int) -> Scenario:
    nodes = [make_node(i) for i in range(shape.nodes)]
    return Scenario(ClusterObjects(nodes=nodes), lambda: arrivals(shape, seed), name=shape.name)


def run(shape: Shape, seed: int) -> dict[str, Any]:
    result = replay(
        scenario(shape, seed),
        seed=seed,
        options=ReplayOptions(keep_pods=False, until=shape.seconds),
    )
    totals = result.totals
    c = totals.counters
    events = totals.events + c.finished
    return {
        "name": shape.name,
        "nodes": shape.nodes,
        "pods": shape.pods,
        "simulated_seconds": round(totals.simulated_seconds, 1),
        "events": events,
        "bound": c.bound,
        "finished": c.finished,
        "attempts": c.attempts,
        "samples": len(result.series),
        "peak_running": max(s.running for s in result.series),
        "seconds": round(totals.wall_seconds, 3),
        "cpu_seconds": round(totals.cpu_seconds, 3),
        "events_per_second": round(events / totals.wall_seconds, 1),
        "pods_per_second": round(c.bound / totals.wall_seconds, 1),
        "pods_per_cpu_second": round(c.bound / totals.cpu_seconds, 1),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small shape, for CI")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    shape = QUICK if args.quick else FULL
    outcome = isolated(run, shape, args.seed)
    return write_report("replay", args.output, seed=args.seed, results=[outcome])


if __name__ == "__main__":
    main()
