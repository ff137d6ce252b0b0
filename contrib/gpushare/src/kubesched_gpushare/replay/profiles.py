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


WEIGHT = 1000

COMPOSED = {
    "fgd+bestfit": (("FGDScore", WEIGHT), ("BestFitScore", 20)),
}
"""Policies that compose the six's score plugins with weights: name -> (plugin, weight)s.
`fgd+bestfit` is FGD with BestFit at weight 20: BestFit decides between the nodes FGD
scores alike, and overrules a one-point FGD difference (1000) only when it prefers the
other node by more than half its range (20 x 50); see examples/openb/README.md."""

DISTRIBUTIONS = {plugin: f"kubesched-gpushare-{name}" for name, plugin in POLICIES.items()}
"""Score plugin -> the distribution that brings it."""


def policy_names() -> list[str]:
    """Every policy the replay knows: the study's six, then the composed ones."""
    return [*POLICIES, *COMPOSED]


def score_plugins(policy: str) -> tuple[tuple[str, int], ...]:
    """The policy's score plugins and weights (KeyError for an unknown policy)."""
    if policy in COMPOSED:
        return COMPOSED[policy]
    return ((POLICIES[policy], WEIGHT),)


def distribution(policy: str) -> str:
    """The distribution that brings the policy's (first) score plugin."""
    return DISTRIBUTIONS[score_plugins(policy)[0][0]]


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
    scores = score_plugins(policy)
    names = [plugin for plugin, _ in scores]
    plugins: dict[str, Any] = {
        "preFilter": {"enabled": [{"name": "GpuShare"}]},
        "filter": {"enabled": [{"name": "GpuShare"}]},
        "postFilter": {"disabled": [{"name": "*"}]},
        "preScore": {"disabled": [{"name": "*"}]},
        "score": {
            "disabled": [{"name": "*"}],
            "enabled": [{"name": plugin, "weight": weight} for plugin, weight in scores],
        },
        "reserve": {"enabled": [{"name": "GpuShare"}]},
    }
    if "RandomScore" in names:
        plugins["preScore"]["enabled"] = [{"name": "RandomScore"}]
    plugin_config: list[dict[str, Any]] = [{"name": "GpuShare", "args": {"narrowNodes": True}}]
    if "FGDScore" in names:
        plugin_config.append(
            {"name": "FGDScore", "args": {"typicalPods": typical_pods_args(workload)}}
        )
    profile = {
        "schedulerName": "default-scheduler",
        "plugins": plugins,
        "pluginConfig": plugin_config,
    }
    return {"percentageOfNodesToScore": 100, "profiles": [profile]}
