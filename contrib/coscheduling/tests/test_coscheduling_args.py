"""CoschedulingArgs: scheduler-plugins' defaults and validation messages, through the config."""

from __future__ import annotations

import pytest

from kubesched.errors import ConfigError
from kubesched.testing import PluginHarness, make_node
from kubesched_coscheduling import Coscheduling, CoschedulingArgs


def test_defaults_are_upstream_v1_defaults() -> None:
    assert CoschedulingArgs() == CoschedulingArgs(
        permit_waiting_time_seconds=60, pod_group_backoff_seconds=0, pod_group_reject_percentage=10
    )


@pytest.mark.parametrize(
    ("args", "errors"),
    [
        (CoschedulingArgs(), []),
        (CoschedulingArgs(0, 0, 0), []),
        (CoschedulingArgs(1, 1, 100), []),
        (
            CoschedulingArgs(permit_waiting_time_seconds=-1),
            ["p.permitWaitingTimeSeconds: Invalid value: -1: must be greater than 0"],
        ),
        (
            CoschedulingArgs(pod_group_backoff_seconds=-5),
            ["p.podGroupBackoffSeconds: Invalid value: -5: must be greater than 0"],
        ),
        (
            CoschedulingArgs(pod_group_reject_percentage=-1),
            ["p.podGroupRejectPercentage: Invalid value: -1: must be between 0 and 100"],
        ),
        (
            CoschedulingArgs(pod_group_reject_percentage=101),
            ["p.podGroupRejectPercentage: Invalid value: 101: must be between 0 and 100"],
        ),
        (
            CoschedulingArgs(-1, -1, 101),
            [
                "p.permitWaitingTimeSeconds: Invalid value: -1: must be greater than 0",
                "p.podGroupBackoffSeconds: Invalid value: -1: must be greater than 0",
                "p.podGroupRejectPercentage: Invalid value: 101: must be between 0 and 100",
            ],
        ),
    ],
)
def test_validate(args: CoschedulingArgs, errors: list[str]) -> None:
    assert args.validate("p") == errors


def test_args_come_from_plugin_config_fields() -> None:
    harness = PluginHarness(
        Coscheduling,
        {"permitWaitingTimeSeconds": 10, "podGroupRejectPercentage": 100},
        nodes=[make_node("n1").obj()],
    )
    assert harness.framework.profile.plugin_args["Coscheduling"] == CoschedulingArgs(10, 0, 100)


def test_bad_args_are_config_errors_naming_the_field() -> None:
    with pytest.raises(ConfigError) as bad:
        PluginHarness(Coscheduling, {"podGroupBackoffSeconds": -1})
    assert bad.value.errors == [
        "args.podGroupBackoffSeconds: Invalid value: -1: must be greater than 0"
    ]
