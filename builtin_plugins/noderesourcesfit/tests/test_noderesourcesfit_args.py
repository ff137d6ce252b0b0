"""NodeResourcesFitArgs: v1 defaults and upstream's validation (validation_pluginargs_test.go's
TestValidateFitArgs, TestValidate{Least,Most}Allocated- and
TestValidateRequestedToCapacityRatioScoringStrategy, and the invalid-weight cases of
least/most_allocated_test.go), every case that applies.

Weight 0 is not an error here: these args are upstream's v1 (external) type,
whose defaulting turns a 0 or unset weight into 1 before validation, exactly
what kube-scheduler does with a config file. Upstream's "ScoringStrategy field
is required" case cannot arise: defaulting always sets a strategy. Name messages
follow the newest apimachinery wording ("63 bytes", "a valid label key") where that
table still says "63 characters" and "a qualified name".
"""

from __future__ import annotations

import cattrs
import pytest

from kubesched.errors import ConfigError
from kubesched_noderesourcesfit import (
    LEAST_ALLOCATED,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    NodeResourcesFit,
    NodeResourcesFitArgs,
    RequestedToCapacityRatioParam,
    ResourceSpec,
    ScoringStrategy,
    UtilizationShapePoint,
)

NAME_RE = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
NAME_MSG = (
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', "
    f"regex used for validation is '{NAME_RE}')"
)
LONG_NAME = "longvalue" + "a" * 64
TYPES = '"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"'


def strategy(
    type_: str = LEAST_ALLOCATED,
    resources: tuple[ResourceSpec, ...] = (),
    requested_to_capacity_ratio: RequestedToCapacityRatioParam | None = None,
) -> ScoringStrategy:
    return ScoringStrategy(type_, resources, requested_to_capacity_ratio)


@pytest.mark.parametrize(
    ("args", "want"),
    [
        pytest.param(
            NodeResourcesFitArgs(ignored_resources=[LONG_NAME]),
            [
                f'ignoredResources[0]: Invalid value: "{LONG_NAME}": '
                "name part must be no more than 63 bytes"
            ],
            id="IgnoredResources: too long value",
        ),
        pytest.param(
            NodeResourcesFitArgs(ignored_resources=["example.com/"]),
            [
                'ignoredResources[0]: Invalid value: "example.com/": name part must be non-empty',
                f'ignoredResources[0]: Invalid value: "example.com/": name part {NAME_MSG}',
            ],
            id="IgnoredResources: name is empty",
        ),
        pytest.param(
            NodeResourcesFitArgs(ignored_resources=["example.com/aaa/bbb"]),
            [
                'ignoredResources[0]: Invalid value: "example.com/aaa/bbb": a valid label key '
                f"{NAME_MSG} with an optional DNS subdomain prefix and '/' "
                "(e.g. 'example.com/MyName')"
            ],
            id="IgnoredResources: name has too many slash",
        ),
        pytest.param(
            NodeResourcesFitArgs(ignored_resources=["example.com"]),
            [],
            id="IgnoredResources: valid args",
        ),
        pytest.param(
            NodeResourcesFitArgs(ignored_resource_groups=["example.com"]),
            [],
            id="IgnoredResourceGroups: valid args",
        ),
        pytest.param(
            NodeResourcesFitArgs(ignored_resource_groups=["example.com/"]),
            [
                'ignoredResourceGroups[0]: Invalid value: "example.com/": '
                "resource group name can't contain '/'",
                'ignoredResourceGroups[0]: Invalid value: "example.com/": '
                "name part must be non-empty",
                f'ignoredResourceGroups[0]: Invalid value: "example.com/": name part {NAME_MSG}',
            ],
            id="IgnoredResourceGroups: illegal args",
        ),
        pytest.param(
            NodeResourcesFitArgs(ignored_resource_groups=["a" * 64]),
            [
                f'ignoredResourceGroups[0]: Invalid value: "{"a" * 64}": '
                "name part must be no more than 63 bytes"
            ],
            id="IgnoredResourceGroups: name is too long",
        ),
        pytest.param(
            NodeResourcesFitArgs(ignored_resource_groups=["example.com/aa"]),
            [
                'ignoredResourceGroups[0]: Invalid value: "example.com/aa": '
                "resource group name can't contain '/'"
            ],
            id="IgnoredResourceGroups: name cannot be contain slash",
        ),
        pytest.param(
            NodeResourcesFitArgs(scoring_strategy=strategy("Invalid")),
            [f'scoringStrategy.type: Unsupported value: "Invalid": supported values: {TYPES}'],
            id="ScoringStrategy: type is unsupported",
        ),
        pytest.param(
            NodeResourcesFitArgs(ignored_resources=["Upper.Case/x"]),
            [
                'ignoredResources[0]: Invalid value: "Upper.Case/x": prefix part a lowercase '
                "RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
                "'.', and must start and end with an alphanumeric character (e.g. "
                "'example.com', regex used for validation is "
                r"'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
            ],
            id="IgnoredResources: prefix must be a DNS subdomain",
        ),
    ],
)
def test_validate_fit_args(args: NodeResourcesFitArgs, want: list[str]) -> None:
    assert args.validate() == want


def weight_error(index: int, name: str, weight: int) -> str:
    return (
        f"scoringStrategy.resources[{index}].weight: Invalid value: {weight}: "
        f"resource weight of {name} not in valid range (0, 100]"
    )


WEIGHT_CASES = [
    pytest.param((), [], id="default config"),
    pytest.param(
        (ResourceSpec("cpu", 1), ResourceSpec("memory", 10)), [], id="multi valid resources"
    ),
    pytest.param((ResourceSpec("cpu", 0),), [], id="weight less than min (0 defaults to 1)"),
    pytest.param(
        (ResourceSpec("cpu", 101),), [weight_error(0, "cpu", 101)], id="weight greater than max"
    ),
    pytest.param(
        (ResourceSpec("cpu", 0), ResourceSpec("memory", 101)),
        [weight_error(1, "memory", 101)],
        id="multi invalid resources",
    ),
    pytest.param(
        (ResourceSpec("memory", -1), ResourceSpec("cpu", 1)),
        [weight_error(0, "memory", -1)],
        id="resource with negative weight",
    ),
]


@pytest.mark.parametrize("type_", [LEAST_ALLOCATED, MOST_ALLOCATED])
@pytest.mark.parametrize(("resources", "want"), WEIGHT_CASES)
def test_validate_allocated_scoring_strategy(type_, resources, want) -> None:
    args = NodeResourcesFitArgs(scoring_strategy=strategy(type_, resources=resources))
    assert args.validate() == want


def shape_args(
    points: list[tuple[int, int]], resources: tuple[ResourceSpec, ...] = ()
) -> NodeResourcesFitArgs:
    curve = RequestedToCapacityRatioParam([UtilizationShapePoint(u, s) for u, s in points])
    return NodeResourcesFitArgs(
        scoring_strategy=strategy(
            REQUESTED_TO_CAPACITY_RATIO, resources=resources, requested_to_capacity_ratio=curve
        )
    )


@pytest.mark.parametrize(
    ("args", "want"),
    [
        pytest.param(
            shape_args([]),
            ["scoringStrategy.shape: Required value: at least one point must be specified"],
            id="no shapes",
        ),
        pytest.param(
            shape_args([(30, 3)], (ResourceSpec("cpu", 101),)),
            [weight_error(0, "cpu", 101)],
            id="weight greater than max",
        ),
        pytest.param(
            shape_args([(30, 3)], (ResourceSpec("cpu", 0),)),
            [],
            id="weight less than min (0 defaults to 1)",
        ),
        pytest.param(shape_args([(30, 3)]), [], id="valid shapes"),
        pytest.param(
            shape_args([(-1, 3)]),
            [
                "scoringStrategy.shape[0].utilization: Invalid value: -1: "
                "not in valid range [0, 100]"
            ],
            id="utilization less than min",
        ),
        pytest.param(
            shape_args([(101, 3)]),
            [
                "scoringStrategy.shape[0].utilization: Invalid value: 101: "
                "not in valid range [0, 100]"
            ],
            id="utilization greater than max",
        ),
        pytest.param(
            shape_args([(10, 3), (10, 3)]),
            [
                "scoringStrategy.shape[1].utilization: Invalid value: 10: "
                "values must be sorted in increasing order"
            ],
            id="duplicated utilization values",
        ),
        pytest.param(
            shape_args([(10, 3), (20, 3), (30, 3)]), [], id="increasing utilization values"
        ),
        pytest.param(
            shape_args([(10, 3), (20, 3), (15, 3)]),
            [
                "scoringStrategy.shape[2].utilization: Invalid value: 15: "
                "values must be sorted in increasing order"
            ],
            id="non-increasing utilization values",
        ),
        pytest.param(
            shape_args([(10, -1)]),
            ["scoringStrategy.shape[0].score: Invalid value: -1: not in valid range [0, 10]"],
            id="score less than min",
        ),
        pytest.param(
            shape_args([(10, 11)]),
            ["scoringStrategy.shape[0].score: Invalid value: 11: not in valid range [0, 10]"],
            id="score greater than max",
        ),
    ],
)
def test_validate_requested_to_capacity_ratio_scoring_strategy(args, want) -> None:
    assert args.validate() == want


def test_requested_to_capacity_ratio_needs_its_curve() -> None:
    # Upstream's validation misses this and kube-scheduler then fails on a nil pointer.
    args = NodeResourcesFitArgs(scoring_strategy=strategy(REQUESTED_TO_CAPACITY_RATIO))
    assert args.validate() == [
        "scoringStrategy.requestedToCapacityRatio: Required value: "
        "must be specified when type is RequestedToCapacityRatio"
    ]


def test_validate_prefixes_the_given_path() -> None:
    args = NodeResourcesFitArgs(ignored_resource_groups=["a/b"], scoring_strategy=strategy("Nope"))
    assert args.validate("profiles[0].pluginConfig[1].args") == [
        'profiles[0].pluginConfig[1].args.ignoredResourceGroups[0]: Invalid value: "a/b": '
        "resource group name can't contain '/'",
        'profiles[0].pluginConfig[1].args.scoringStrategy.type: Unsupported value: "Nope": '
        f"supported values: {TYPES}",
    ]


@pytest.mark.parametrize(
    ("type_", "resources", "want"),
    [
        pytest.param(
            LEAST_ALLOCATED,
            (ResourceSpec("memory", -1), ResourceSpec("cpu", 1)),
            weight_error(0, "memory", -1),
            id="least allocated: resource with negative weight",
        ),
        pytest.param(
            LEAST_ALLOCATED,
            (ResourceSpec("memory", 1), ResourceSpec("cpu", 101)),
            weight_error(1, "cpu", 101),
            id="least allocated: resource weight larger than MaxNodeScore",
        ),
        pytest.param(
            MOST_ALLOCATED,
            (ResourceSpec("memory", -1), ResourceSpec("cpu", 1)),
            weight_error(0, "memory", -1),
            id="most allocated: resource with negative weight",
        ),
        pytest.param(
            MOST_ALLOCATED,
            (ResourceSpec("memory", 101),),
            weight_error(0, "memory", 101),
            id="most allocated: resource weight larger than MaxNodeScore",
        ),
    ],
)
def test_plugin_rejects_invalid_args(type_, resources, want) -> None:
    args = NodeResourcesFitArgs(scoring_strategy=strategy(type_, resources=resources))
    with pytest.raises(ConfigError) as excinfo:
        NodeResourcesFit(args, None)
    assert excinfo.value.errors == [want]


def test_defaults() -> None:
    default = NodeResourcesFitArgs()
    assert default.ignored_resources == ()
    assert default.ignored_resource_groups == ()
    assert default.scoring_strategy == ScoringStrategy(
        type=LEAST_ALLOCATED,
        resources=(ResourceSpec("cpu", 1), ResourceSpec("memory", 1)),
        requested_to_capacity_ratio=None,
    )
    assert default.validate() == []
    assert NodeResourcesFit(None, None).args == default


def test_v1_defaulting_when_structured() -> None:
    """What a pluginConfig entry becomes: upstream's SetDefaults_NodeResourcesFitArgs."""
    converter = cattrs.Converter(forbid_extra_keys=True)
    assert converter.structure({}, NodeResourcesFitArgs) == NodeResourcesFitArgs()
    most = converter.structure(
        {"scoring_strategy": {"type": "MostAllocated"}}, NodeResourcesFitArgs
    )
    assert most.scoring_strategy.resources == (ResourceSpec("cpu", 1), ResourceSpec("memory", 1))
    weighted = converter.structure(
        {"scoring_strategy": {"type": "MostAllocated", "resources": [{"name": "example.com/x"}]}},
        NodeResourcesFitArgs,
    )
    assert weighted.scoring_strategy.resources == (ResourceSpec("example.com/x", 1),)
    untyped = converter.structure(
        {"scoring_strategy": {"resources": [{"name": "cpu", "weight": 2}]}}, NodeResourcesFitArgs
    )
    assert untyped.validate() == [
        f'scoringStrategy.type: Unsupported value: "": supported values: {TYPES}'
    ]
