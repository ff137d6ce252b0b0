"""The OpenB experiment behind `kubesched openb`: every policy x seed replayed on one trace,
the document `--json` writes (`apiVersion: kubesched.io/openb-replay/v1`), its per-policy
summary, and the merge of earlier documents (`--from`)."""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from attrs import frozen

from kubesched.framework import default_registry
from kubesched.replay import TIES_FIRST
from kubesched_gpushare.floats import mean_in_order
from kubesched_gpushare.frag import target_workload
from kubesched_gpushare.replay.profiles import DISTRIBUTIONS, POLICIES, policy_names, score_plugins
from kubesched_gpushare.replay.run import ReplayResult, replay
from kubesched_gpushare.replay.series import frag_amount, frag_ratio, unallocated
from kubesched_gpushare.replay.trace import read_nodes, read_pods
from kubesched_gpushare.replay.workload import arrivals, inflate
from kubesched_gpushare.resources import MILLI, node_gpu_count

API_VERSION = "kubesched.io/openb-replay/v1"
"""The `apiVersion` of the experiment's document."""


class PolicyError(ValueError):
    """A policy that is unknown or whose plugin is not installed."""


class MergeError(ValueError):
    """Documents that cannot be merged; the message names the file and the field."""


@frozen
class Experiment:
    """What to replay: the trace's node and pod lists in `data`, the policies and seeds,
    the inflation target (`tune`, a share of capacity), the tie rule and where to stop."""

    data: Path
    pods: str = "default"
    nodes: str = "gpu_node"
    policies: tuple[str, ...] = tuple(POLICIES)
    seeds: tuple[int, ...] = (42,)
    tune: float = 1.3
    ties: str = TIES_FIRST
    until: int | None = None

    @property
    def runs(self) -> int:
        """How many replays the experiment is (policies x seeds)."""
        return len(self.policies) * len(self.seeds)


def check_policies(policies: Sequence[str]) -> None:
    """PolicyError naming the first policy that is unknown or whose plugin is not installed."""
    registry = default_registry()
    for policy in policies:
        if policy not in policy_names():
            raise PolicyError(f"unknown policy {policy!r}; known: {', '.join(policy_names())}")
        for plugin, _ in score_plugins(policy):
            if plugin not in registry:
                raise PolicyError(
                    f"policy {policy} needs the {plugin} plugin: install {DISTRIBUTIONS[plugin]}"
                )


RunStarts = Callable[[int, str, int], None]
"""Told before each replay: how many are done, the policy and the seed."""
RunEnds = Callable[[dict[str, Any]], None]
"""Told each replay's entry of `runs` once it is done."""


def run_all(
    experiment: Experiment,
    starts: RunStarts | None = None,
    ends: RunEnds | None = None,
) -> tuple[dict[str, Any], list[ReplayResult]]:
    """Every policy x seed: the document `--json` writes, and each run's result."""
    check_policies(experiment.policies)
    nodes = read_nodes(experiment.data / f"openb_node_list_{experiment.nodes}.csv")
    pods = read_pods(experiment.data / f"openb_pod_list_{experiment.pods}.csv")
    capacity = sum(node_gpu_count(n) for n in nodes) * MILLI
    workload = target_workload([p.spec() for p in pods])
    tune, until, ties = experiment.tune, experiment.until, experiment.ties
    top = round(100 * tune) if until is None else min(until, round(100 * tune))
    runs: list[dict[str, Any]] = []
    results: list[ReplayResult] = []
    for policy in experiment.policies:
        for seed in experiment.seeds:
            if starts is not None:
                starts(len(runs), policy, seed)
            order = inflate(arrivals(pods, seed), pods, capacity, tune, seed)
            result = replay(nodes, order, policy, workload, seed, ties, until)
            results.append(result)
            series = unallocated(result, top)
            runs.append(
                {
                    "policy": policy,
                    "seed": seed,
                    "ties": ties,
                    "pods": len(order),
                    "scheduled": result.scheduled,
                    "failed": result.failed,
                    "seconds": round(result.seconds, 3),
                    "cpuSeconds": round(result.cpu_seconds, 3),
                    "podsPerSecond": round(result.pods_per_second, 1),
                    "unallocatedAt100": series[100] if len(series) > 100 else None,
                    "unallocatedGpuPercent": series,
                    "fragAmountPercent": frag_amount(result, top),
                    "fragRatioPercent": frag_ratio(result, top),
                }
            )
            if ends is not None:
                ends(runs[-1])
    document = {
        "apiVersion": API_VERSION,
        "trace": {
            "nodes": experiment.nodes,
            "pods": experiment.pods,
            "nodeCount": len(nodes),
            "gpus": capacity // MILLI,
            "originalPods": len(pods),
        },
        "tune": tune,
        "ties": ties,
        "typicalPods": len(workload),
        "runs": runs,
        "summary": summary(runs),
    }
    return document, results


def summary(runs: Sequence[dict[str, Any]]) -> dict[str, dict[str, float | None]]:
    """Per policy: unallocated GPU % at arrived = 100% (mean, median, min, max; None when no
    run reached it) and pods/s."""
    out: dict[str, dict[str, float | None]] = {}
    for policy in dict.fromkeys(r["policy"] for r in runs):
        mine = [r for r in runs if r["policy"] == policy]
        at100 = [r["unallocatedAt100"] for r in mine if r["unallocatedAt100"] is not None]
        rates = [r["podsPerSecond"] for r in mine]
        out[policy] = {
            "seeds": len(mine),
            "mean": round(mean_in_order(at100), 2) if at100 else None,
            "median": round(statistics.median(at100), 2) if at100 else None,
            "min": round(min(at100), 2) if at100 else None,
            "max": round(max(at100), 2) if at100 else None,
            "podsPerSecond": round(statistics.median(rates), 1),
        }
    return out


def merged(paths: Sequence[Path]) -> dict[str, Any]:
    """One document holding the runs of the `--json` documents at `paths`, which must share
    their apiVersion, tie rule, trace and tune."""
    first: dict[str, Any] | None = None
    runs: list[dict[str, Any]] = []
    for path in paths:
        try:
            document = json.loads(path.read_text())
        except OSError as error:
            raise MergeError(f"{path}: {error.strerror}") from None
        except ValueError:
            raise MergeError(f"{path}: not a JSON document") from None
        if not isinstance(document, dict) or document.get("apiVersion") != API_VERSION:
            raise MergeError(f"{path}: apiVersion: not {API_VERSION}")
        if first is None:
            first = document
        for key in ("ties", "trace", "tune"):
            if document.get(key) != first.get(key):
                raise MergeError(
                    f"{path}: {key}: {document.get(key)!r} differs from {paths[0]}'s "
                    f"{first.get(key)!r}"
                )
        runs.extend({"ties": document["ties"], **run} for run in document["runs"])
    assert first is not None
    return {**first, "runs": runs, "summary": summary(runs)}
