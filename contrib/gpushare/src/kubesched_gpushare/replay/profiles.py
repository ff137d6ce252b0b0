"""One scheduler configuration per policy, as the study runs them: the default filters plus
GpuShare, the policy as the only score plugin with weight 1000, every node scored, and no
preemption (all pods have the same priority)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kubesched_gpushare.frag import TypicalPod

POLICIES = {
    "random": "RandomScore",
    "dotprod": "DotProductScore",
    "clustering": "GpuClusteringScore",
    "packing": "GpuPackingScore",
    "bestfit": "BestFitScore",
    "fgd": "FGDScore",
}
"""Short policy names (as in the study's figures) -> score plugin."""


def distribution(policy: str) -> str:
    """The distribution that brings the policy's score plugin."""
    return f"kubesched-gpushare-{policy}"


WEIGHT = 1000


def typical_pods_args(workload: Sequence[TypicalPod]) -> list[dict[str, Any]]:
    """The target workload as FGDScoreArgs' `typicalPods`."""
    return [
        {
            "cpuMilli": spec.cpu_milli,
            "weight": spec.weight,
            "gpuCount": spec.request.count,
            "gpuMilli": spec.request.milli,
            "gpuCardModel": "|".join(sorted(spec.request.models)),
        }
        for spec in workload
    ]


def policy_config(policy: str, workload: Sequence[TypicalPod]) -> dict[str, Any]:
    """The configuration document (apiVersion and kind left out) for one policy."""
    plugin = POLICIES[policy]
    plugins: dict[str, Any] = {
        "preFilter": {"enabled": [{"name": "GpuShare"}]},
        "filter": {"enabled": [{"name": "GpuShare"}]},
        "postFilter": {"disabled": [{"name": "*"}]},
        "preScore": {"disabled": [{"name": "*"}]},
        "score": {"disabled": [{"name": "*"}], "enabled": [{"name": plugin, "weight": WEIGHT}]},
        "reserve": {"enabled": [{"name": "GpuShare"}]},
    }
    if plugin == "RandomScore":
        plugins["preScore"]["enabled"] = [{"name": plugin}]
    plugin_config: list[dict[str, Any]] = [{"name": "GpuShare", "args": {"narrowNodes": True}}]
    if plugin == "FGDScore":
        plugin_config.append({"name": plugin, "args": {"typicalPods": typical_pods_args(workload)}})
    profile = {
        "schedulerName": "default-scheduler",
        "plugins": plugins,
        "pluginConfig": plugin_config,
    }
    return {"percentageOfNodesToScore": 100, "profiles": [profile]}
