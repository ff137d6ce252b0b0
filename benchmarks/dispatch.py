"""Runtime dispatch overhead: one pod through Filter and Score over 5,000 nodes.

Four trivial plugins (per-node Filter and Score only, no batch forms) run
through the Framework, and the same bound methods run from a hand-written
loop; the ratio of the two medians, measured in the same process, is the
overhead the runtime adds (target: at most 1.3x).

Beside it, the paths real plugins take, each in milliseconds for one pod:

- `per_node_adapted_ms`: the same four plugins written as most plugins are,
  with hooks taking only the arguments they use, so every call goes through
  the argument adapter;
- `per_node_adapted_nominated_ms`: the same, with a nominator holding pods
  nominated to 1% of the nodes (those nodes are filtered twice, with and
  without them);
- `batch_ms`: four plugins with `filter_batch` and `score_batch` forms;
- `third_party`: the full default profile scheduling SchedulingBasic's pods
  on `--nodes` nodes, alone and with one out-of-tree plugin written in the
  simple per-node form (Filter and Score, no batch forms) added to it; the
  difference is the per-pod cost such a plugin adds (runs alternate A/B,
  medians of `--loop-repeat`; CPU time, steadier than wall time on a shared
  machine, is reported beside wall time).

    uv run python benchmarks/dispatch.py [--nodes 5000] [--repeat 15] [--loop-pods 2000]
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
from _third_party import per_pod_cost
from numpy.typing import NDArray

from kubesched import hookimpl
from kubesched.api import Node, ObjectMeta, Pod
from kubesched.framework import CycleState, NodeInfo, NodeTable, PodInfo, Registry, Status
from kubesched.framework._runtime import Framework
from kubesched.profile import EffectiveProfile
from kubesched.scheduler import Nominator

PLUGINS = ("T1", "T2", "T3", "T4")
NOMINATED_SHARE = 100
"""One node in this many has a pod nominated to it in the nominator variant."""


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


class Adapted:
    """Trivial, with hooks taking only the argument they use, as most plugins are written."""

    def __init__(self, args: object, handle: object) -> None:
        pass

    @hookimpl
    def filter(self, node_info: NodeInfo) -> Status | None:
        return None

    @hookimpl
    def score(self, node_info: NodeInfo) -> int:
        return 1


class Batch(Trivial):
    """Trivial, with batch forms the runtime uses instead of the per-node ones."""

    @hookimpl
    def filter_batch(self, table: NodeTable) -> NDArray[np.bool_]:
        return np.ones(len(table), dtype=np.bool_)

    @hookimpl
    def score_batch(self, table: NodeTable, rows: NDArray[np.intp]) -> NDArray[np.int64]:
        return np.ones(len(rows), dtype=np.int64)


class Sort:
    def __init__(self, args: object, handle: object) -> None:
        pass

    @hookimpl
    def queue_sort_less(self, pod_info_a: Any, pod_info_b: Any) -> bool:
        return True


def build(
    nodes: int, plugin: type = Trivial, nominator: Nominator | None = None
) -> tuple[Framework, NodeTable, Pod]:
    registry = Registry()
    registry.register("Sort", Sort)
    for name in PLUGINS:
        registry.register(name, plugin)
    profile = EffectiveProfile(
        "default-scheduler", {"queueSort": ("Sort",), "filter": PLUGINS, "score": PLUGINS}
    )
    table = NodeTable([NodeInfo(Node(metadata=ObjectMeta(name=f"n{i}"))) for i in range(nodes)])
    framework = Framework(profile, registry, nominator=nominator)
    return framework, table, Pod(metadata=ObjectMeta(name="p", uid="p"))


def nominated(nodes: int) -> Nominator:
    """Pods nominated to one node in NOMINATED_SHARE, as preemption leaves them."""
    nominator = Nominator()
    for i in range(0, nodes, NOMINATED_SHARE):
        pod = Pod(metadata=ObjectMeta(name=f"nominated-{i}", namespace="default", uid=f"nom-{i}"))
        nominator.add_nominated_pod(PodInfo(pod), f"n{i}")
    return nominator


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
    parser.add_argument("--loop-pods", type=int, default=2000, help="pods per third-party run")
    parser.add_argument("--loop-repeat", type=int, default=3, help="A/B runs (median)")
    args = parser.parse_args()
    fw, table, pod = build(args.nodes)
    variants = {
        "per_node_adapted_ms": build(args.nodes, Adapted),
        "per_node_adapted_nominated_ms": build(args.nodes, Adapted, nominated(args.nodes)),
        "batch_ms": build(args.nodes, Batch),
    }
    expected = by_hand(fw, table, pod)
    assert via_runtime(fw, table, pod) == expected
    assert all(via_runtime(*built) == expected for built in variants.values())
    runtime = hand = 0.0
    seconds = dict.fromkeys(variants, 0.0)
    for _ in range(3):  # interleave to share the machine's noise
        runtime += median_seconds(lambda: via_runtime(fw, table, pod), args.repeat)
        hand += median_seconds(lambda: by_hand(fw, table, pod), args.repeat)
        for key, built in variants.items():
            seconds[key] += median_seconds(lambda b=built: via_runtime(*b), args.repeat)
    report = {
        "benchmark": "dispatch",
        "nodes": args.nodes,
        "plugins": len(PLUGINS),
        "runtime_ms": round(runtime / 3 * 1000, 3),
        "hand_loop_ms": round(hand / 3 * 1000, 3),
        "ratio": round(runtime / hand, 3),
        "target_ratio": 1.3,
        "pods_per_second_runtime": round(3 / runtime, 1),
        **{key: round(total / 3 * 1000, 3) for key, total in seconds.items()},
        "nominated_nodes": len(range(0, args.nodes, NOMINATED_SHARE)),
        "third_party": per_pod_cost(args.nodes, args.loop_pods, args.loop_repeat),
    }
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "dispatch.json").write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
