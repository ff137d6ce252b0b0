"""A simulation under injected faults: nothing lost, nothing misreported, and how fast.

1,000 nodes and 10,000 pending pods (upstream's scheduler_perf node and pod
templates, the default profile plus kubesched-faultinjection through
multiPoint); about 10% of the pods suffer one fault each, at one extension
point, drawn reproducibly from raise, exit, garbage, error, reject and
transient; three more pods hang (Filter, Permit, PreBind) until the cycle
watchdog stops them. Every invariant of kubesched_faultinjection.invariants
is checked; the run fails if one breaks.

    uv run python benchmarks/faults.py            # 1,000 nodes, 10,000 pods
    uv run python benchmarks/faults.py --quick    # 100 nodes, 1,000 pods, for CI

Prints JSON and writes it to benchmarks/results/faults.json: pods in, bound,
reported, lost, outcomes by status, scheduling cycles, wall time and peak RSS.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from kubesched.api import Node, NodeStatus, ObjectMeta, Pod, parse_quantity
from kubesched.testing import make_pod, simulate
from kubesched_faultinjection import FaultInjection
from kubesched_faultinjection.invariants import violations

RESULTS = Path(__file__).parent / "results" / "faults.json"
FAULTS = ["raise", "exit", "garbage", "error", "reject", "transient"]
HANGS = ("filter", "permit", "pre_bind")


def node(i: int) -> Node:
    capacity = {"cpu": 4000, "memory": parse_quantity("32Gi"), "pods": 110}
    meta = ObjectMeta(name=f"scheduler-perf-{i}", uid=f"node-{i}")
    return Node(metadata=meta, status=NodeStatus(capacity=capacity, allocatable=dict(capacity)))


def pods(count: int) -> list[Pod]:
    built = [
        make_pod(f"pod-{i}").namespace("default").uid(f"pod-{i}").req(cpu="100m", memory="500Mi")
        for i in range(count)
    ]
    for hook, builder in zip(HANGS, built, strict=False):
        builder.annotation(f"faults.kubesched.io/{hook}", "hang")
    return [b.obj() for b in built]


def config(rate: float, seed: int) -> dict[str, Any]:
    args = {"rate": rate, "seed": seed, "faults": FAULTS}
    return {
        "profiles": [
            {
                "schedulerName": "default-scheduler",
                "plugins": {
                    "multiPoint": {"enabled": [{"name": "FaultInjection"}]},
                    "bind": {"enabled": [{"name": "FaultInjection"}]},
                },
                "pluginConfig": [{"name": "FaultInjection", "args": args}],
            }
        ]
    }


def run(nodes: int, pod_count: int, rate: float, seed: int, cycle_timeout: float) -> dict[str, Any]:
    pending = pods(pod_count)
    started = time.perf_counter()
    result = simulate(
        [node(i) for i in range(nodes)],
        pending,
        config(rate, seed),
        cycle_timeout=cycle_timeout,
        max_pod_attempts=5,
        max_attempts=None,
    )
    seconds = time.perf_counter() - started
    plugin = result.scheduler.frameworks["default-scheduler"].plugins["FaultInjection"]
    assert isinstance(plugin, FaultInjection)
    broken = violations(result.simulation, result.result, pending, plugin)
    statuses = Counter(o.status for o in result.result.outcomes)
    faulted = sum(1 for p in pending if any(plugin.fault(p, h) for h in plugin.args.hooks))
    reported = len(result.result.outcomes)
    return {
        "nodes": nodes,
        "pods_in": pod_count,
        "pods_with_a_fault": faulted + len(HANGS),
        "bound": statuses["Scheduled"],
        "reported": reported,
        "lost": pod_count - len({o.pod for o in result.result.outcomes}),
        "outcomes": dict(sorted(statuses.items())),
        "cycles": result.simulation.cycles,
        "simulated_seconds": round(result.result.simulated_seconds, 1),
        "wall_seconds": round(seconds, 2),
        "pods_per_second": round(statuses["Scheduled"] / seconds, 1),
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "invariants_broken": broken,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 nodes, 1,000 pods, for CI")
    parser.add_argument("--rate", type=float, default=0.1, help="share of pods with a fault")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--cycle-timeout", type=float, default=0.5)
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    nodes, pod_count = (100, 1000) if args.quick else (1000, 10000)
    report = {
        "benchmark": "faults",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "rate": args.rate,
        "seed": args.seed,
        "run": run(nodes, pod_count, args.rate, args.seed, args.cycle_timeout),
    }
    text = json.dumps(report, indent=2)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text + "\n")
    print(text)
    if report["run"]["invariants_broken"] or report["run"]["lost"]:
        sys.exit(1)
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
