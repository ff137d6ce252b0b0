"""Coscheduling is out-of-tree: discovered, never in the default profile, enabled by a config
such as examples/coscheduling/scheduler-config.yaml (which replaces PrioritySort)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubesched.api import load_manifests
from kubesched.config import default_config, load_config
from kubesched.framework import OUT_OF_TREE, default_registry
from kubesched.profile import effective_profiles
from kubesched.testing import simulate
from kubesched_coscheduling import Coscheduling, CoschedulingArgs

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "coscheduling"


def test_discovered_as_out_of_tree_from_its_distribution() -> None:
    registry = default_registry()
    spec = registry.get("Coscheduling")
    assert (spec.source, spec.distribution) == (OUT_OF_TREE, "kubesched-coscheduling")
    assert registry.load("Coscheduling") is Coscheduling


def test_not_in_the_default_profile() -> None:
    registry = default_registry()
    [profile] = effective_profiles(default_config(registry), registry)
    assert "Coscheduling" not in profile.enabled()


def test_the_example_config_enables_it_instead_of_priority_sort() -> None:
    registry = default_registry()
    [profile] = effective_profiles(
        load_config(EXAMPLE / "scheduler-config.yaml", registry), registry
    )
    plugins = profile.plugins
    assert plugins["queueSort"] == ("Coscheduling",)
    assert plugins["postFilter"] == ("DynamicResources", "DefaultPreemption", "Coscheduling")
    for point in ("preFilter", "reserve", "permit"):
        assert "Coscheduling" in plugins[point]
    assert "PrioritySort" not in profile.enabled()
    assert profile.plugin_args["Coscheduling"] == CoschedulingArgs(permit_waiting_time_seconds=10)


@pytest.mark.parametrize(
    ("config", "inference_placed"), [(None, 2), (EXAMPLE / "scheduler-config.yaml", 0)]
)
def test_the_example_cluster_places_whole_gangs_only_with_coscheduling(
    config: Path | None, inference_placed: int
) -> None:
    objects = load_manifests(str(EXAMPLE / "cluster.yaml"))
    run = simulate(objects.nodes, objects.pods, config, priority_classes=objects.priority_classes)
    training = [pod for pod in run.placements if pod.startswith("ml/training-")]
    inference = [pod for pod in run.placements if pod.startswith("ml/inference-")]
    assert all(run.placements[pod] for pod in training) and len(training) == 4
    assert sum(1 for pod in inference if run.placements[pod]) == inference_placed
