"""NodeAffinityArgs validation: upstream's TestValidateNodeAffinityArgs, and the plugin
refusing args that do not validate."""

from __future__ import annotations

import pytest

from kubesched.api import NodeAffinity as Spec
from kubesched.api import NodeSelector, PreferredSchedulingTerm
from kubesched.api import NodeSelectorRequirement as R
from kubesched.api import NodeSelectorTerm as T
from kubesched.errors import ConfigError
from kubesched_nodeaffinity import NodeAffinity, NodeAffinityArgs

VALID = Spec(
    required_during_scheduling_ignored_during_execution=NodeSelector(
        [T([R("label-1", "In", ["label-1-val"])])]
    ),
    preferred_during_scheduling_ignored_during_execution=[
        PreferredSchedulingTerm(1, T(match_fields=[R("metadata.name", "In", ["node-1"])]))
    ],
)
INVALID = Spec(
    required_during_scheduling_ignored_during_execution=NodeSelector(
        [T([R("invalid/label/key", "In", ["label-1-val"])])]
    ),
    preferred_during_scheduling_ignored_during_execution=[
        PreferredSchedulingTerm(1, T(match_fields=[R("metadata.name", "In", ["node-1", "node-2"])]))
    ],
)
INVALID_LINES = [
    "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
    '.matchExpressions[0].key: Invalid value: "invalid/label/key": a valid label key must '
    "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain "
    "prefix and '/' (e.g. 'example.com/MyName')",
    "addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].matchFields[0].values: "
    'Invalid value: []string{"node-1", "node-2"}: must have one element',
]


@pytest.mark.parametrize(
    ("args", "lines"),
    [
        pytest.param(NodeAffinityArgs(), [], id="empty"),
        pytest.param(NodeAffinityArgs(VALID), [], id="valid added affinity"),
        pytest.param(NodeAffinityArgs(INVALID), INVALID_LINES, id="invalid added affinity"),
    ],
)
def test_validate_node_affinity_args(args: NodeAffinityArgs, lines: list[str]) -> None:
    assert args.validate("") == lines


def test_validation_lines_start_with_the_given_path() -> None:
    lines = NodeAffinityArgs(INVALID).validate("profiles[0].pluginConfig[2].args")
    assert lines == [f"profiles[0].pluginConfig[2].args.{line}" for line in INVALID_LINES]


def test_plugin_refuses_invalid_args() -> None:
    with pytest.raises(ConfigError) as raised:
        NodeAffinity(NodeAffinityArgs(INVALID), None)
    assert raised.value.errors == INVALID_LINES


def test_plugin_declares_its_args() -> None:
    assert NodeAffinity.args_type is NodeAffinityArgs
    assert NodeAffinity.args_kind == "NodeAffinityArgs"
    assert NodeAffinity.name == "NodeAffinity"
