"""The example configs under examples/config load, and run what they say they run."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubesched.config import load_config
from kubesched.framework._registry import Registry, default_registry
from kubesched.profile import effective_profiles

EXAMPLES = Path(__file__).parents[3] / "examples" / "config"


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_example_is_valid(path: Path, kubesched_registry: Registry) -> None:
    cfg = load_config(path, kubesched_registry)
    assert effective_profiles(cfg, kubesched_registry)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_example_is_valid_with_the_installed_plugins(path: Path) -> None:
    registry = default_registry()
    built_in = ("PrioritySort", "NodeName", "NodeResourcesFit", "DefaultBinder")
    if not all(name in registry for name in built_in):
        pytest.skip("the built-in plugins are not installed")
    assert effective_profiles(load_config(path, registry), registry)


def test_multipoint_example(kubesched_registry: Registry) -> None:
    cfg = load_config(EXAMPLES / "multipoint.yaml", kubesched_registry)
    [profile] = effective_profiles(cfg, kubesched_registry)
    assert profile.scheduler_name == "minimal-scheduler"
    assert {p: names for p, names in profile.plugins.items() if names} == {
        "queueSort": ("PrioritySort",),
        "preFilter": ("NodeResourcesFit",),
        "filter": ("NodeName", "NodeResourcesFit"),
        "preScore": ("NodeResourcesFit",),
        "score": ("NodeResourcesFit",),
        "bind": ("DefaultBinder",),
    }
    assert dict(profile.score_weights) == {"NodeResourcesFit": 5}
    # Only enabled plugins are built, so only their args are passed.
    assert set(profile.plugin_args) == {"NodeResourcesFit"}


def test_requested_to_capacity_ratio_example(kubesched_registry: Registry) -> None:
    cfg = load_config(EXAMPLES / "requested-to-capacity-ratio.yaml", kubesched_registry)
    [profile] = effective_profiles(cfg, kubesched_registry)
    strategy = profile.plugin_args["NodeResourcesFit"].scoring_strategy
    assert strategy.type == "RequestedToCapacityRatio"
    assert [(r.name, r.weight) for r in strategy.resources] == [
        ("intel.com/foo", 3),
        ("intel.com/bar", 3),
    ]
    assert strategy.requested_to_capacity_ratio == {
        "shape": [{"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}]
    }
