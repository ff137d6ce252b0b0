"""Runtime dispatch overhead: one pod through Filter and Score over 5,000 nodes.

Four trivial plugins (per-node Filter and Score only, no batch forms) run
through the Framework, and the same bound methods run from a hand-written
loop; the ratio of the two medians, measured in the same process, is the
overhead the runtime adds (target: at most 1.3x).

    uv run python benchmarks/dispatch.py [--nodes 5000] [--repeat 15]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from kubesched import hookimpl
from kubesched.api import Node, ObjectMeta, Pod
from kubesched.framework import CycleState, NodeInfo, NodeTable, Registry, Status
from kubesched.framework._runtime import Framework
from kubesched.profile import EffectiveProfile

PLUGINS = ("T1", "T2", "T3", "T4")


class Trivial:
    """Passes every node and scores it 1."""

    def __init__(self, args: object, handle: object) -> None:
        pass

    @hookimpl
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        return None

    @hookimpl
    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> int:
        return 1


class Sort:
    def __init__(self, args: object, handle: object) -> None:
        pass

    @hookimpl
    def queue_sort_less(self, pod_info_a: Any, pod_info_b: Any) -> bool:
        return True


def build(nodes: int) -> tuple[Framework, NodeTable, Pod]:
    registry = Registry()
    registry.register("Sort", Sort)
    for name in PLUGINS:
        registry.register(name, Trivial)
    profile = EffectiveProfile(
        "default-scheduler", {"queueSort": ("Sort",), "filter": PLUGINS, "score": PLUGINS}
    )
    table = NodeTable([NodeInfo(Node(metadata=ObjectMeta(name=f"n{i}"))) for i in range(nodes)])
    return Framework(profile, registry), table, Pod(metadata=ObjectMeta(name="p", uid="p"))


def via_runtime(fw: Framework, table: NodeTable, pod: Pod) -> int:
    state = CycleState()
    feasible = fw.find_feasible_nodes(state, pod, table)
    outcome = fw.run_score_plugins(state, pod, table, feasible.rows)
    assert not isinstance(outcome, Status)
    return int(outcome.totals.sum())


def by_hand(fw: Framework, table: NodeTable, pod: Pod) -> int:
    plugins = [fw.plugins[name] for name in PLUGINS]
    filters = [p.filter for p in plugins]  # type: ignore[attr-defined]
    scores = [p.score for p in plugins]  # type: ignore[attr-defined]
    state = CycleState()
    feasible = []
    for ni in table.node_infos:
        for f in filters:
            if f(state, pod, ni) is not None:
                break
        else:
            feasible.append(ni)
    totals = np.zeros(len(feasible), dtype=np.int64)
    for s in scores:
        totals += np.fromiter((s(state, pod, ni) for ni in feasible), np.int64, len(feasible))
    return int(totals.sum())


def median_seconds(fn: Callable[[], int], repeat: int) -> float:
    fn()  # warm up
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    fw, table, pod = build(args.nodes)
    assert via_runtime(fw, table, pod) == by_hand(fw, table, pod)
    runtime = hand = 0.0
    for _ in range(3):  # interleave to share the machine's noise
        runtime += median_seconds(lambda: via_runtime(fw, table, pod), args.repeat)
        hand += median_seconds(lambda: by_hand(fw, table, pod), args.repeat)
    report = {
        "benchmark": "dispatch",
        "nodes": args.nodes,
        "plugins": len(PLUGINS),
        "runtime_ms": round(runtime / 3 * 1000, 3),
        "hand_loop_ms": round(hand / 3 * 1000, 3),
        "ratio": round(runtime / hand, 3),
        "target_ratio": 1.3,
        "pods_per_second_runtime": round(3 / runtime, 1),
    }
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "dispatch.json").write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
