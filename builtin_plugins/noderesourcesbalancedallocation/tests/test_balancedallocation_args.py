"""NodeResourcesBalancedAllocationArgs: v1 defaults and upstream's validation
(TestValidateNodeResourcesBalancedAllocationArgs), directly and through a config file."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubesched.errors import ConfigError
from kubesched.testing import PluginHarness, make_node
from kubesched_noderesourcesbalancedallocation import (
    DEFAULT_RESOURCES,
    NodeResourcesBalancedAllocation,
    NodeResourcesBalancedAllocationArgs,
    ResourceSpec,
)


def args(*specs: tuple[str, int]) -> NodeResourcesBalancedAllocationArgs:
    return NodeResourcesBalancedAllocationArgs(tuple(ResourceSpec(n, w) for n, w in specs))


def test_defaults() -> None:
    assert NodeResourcesBalancedAllocationArgs().resources == DEFAULT_RESOURCES
    assert (ResourceSpec("cpu", 1), ResourceSpec("memory", 1)) == DEFAULT_RESOURCES
    assert args(("cpu", 0), ("nvidia.com/gpu", 0)).resources == (
        ResourceSpec("cpu", 1),
        ResourceSpec("nvidia.com/gpu", 1),
    )


@pytest.mark.parametrize(
    ("given", "errors"),
    [
        pytest.param(args(("cpu", 1), ("memory", 1)), [], id="valid config"),
        pytest.param(
            args(("cpu", 2), ("memory", 1)),
            ["args.resources[0].weight: Invalid value: 2: must be 1"],
            id="invalid config",
        ),
        pytest.param(
            args(("cpu", 1), ("cpu", 1)),
            ['args.resources[1].name: Duplicate value: "cpu"'],
            id="repeated resources",
        ),
        pytest.param(
            args(("cpu", 1), ("cpu", -1)),
            [
                'args.resources[1].name: Duplicate value: "cpu"',
                "args.resources[1].weight: Invalid value: -1: must be 1",
            ],
            id="repeated and invalid",
        ),
    ],
)
def test_validate(given: NodeResourcesBalancedAllocationArgs, errors: list[str]) -> None:
    assert given.validate("args") == errors


def test_the_plugin_refuses_invalid_args() -> None:
    with pytest.raises(ConfigError, match="must be 1"):
        NodeResourcesBalancedAllocation(args(("cpu", 3)))


def test_args_structured_from_a_plugin_config_entry() -> None:
    harness = PluginHarness(
        NodeResourcesBalancedAllocation,
        {"resources": [{"name": "cpu"}, {"name": "example.com/foo", "weight": 1}]},
        nodes=[make_node("n").obj()],
    )
    plugin = harness.plugin
    assert isinstance(plugin, NodeResourcesBalancedAllocation)
    assert plugin.args.resources == (ResourceSpec("cpu", 1), ResourceSpec("example.com/foo", 1))


def test_config_file_errors_name_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kubesched.cli import main

    config = tmp_path / "config.yaml"
    config.write_text(
        "apiVersion: kubescheduler.config.k8s.io/v1\n"
        "kind: KubeSchedulerConfiguration\n"
        "profiles:\n"
        "- pluginConfig:\n"
        "  - name: NodeResourcesBalancedAllocation\n"
        "    args:\n"
        "      resources:\n"
        "      - name: cpu\n"
        "        weight: 2\n"
        "      - name: cpu\n"
    )
    assert main(["config", "validate", str(config)]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"{config}: profiles[0].pluginConfig[0].args.resources[0].weight: "
        "Invalid value: 2: must be 1",
        f'{config}: profiles[0].pluginConfig[0].args.resources[1].name: Duplicate value: "cpu"',
    ]
