"""DefaultPreemptionArgs: upstream's v1 defaults, validation and candidate count."""

from __future__ import annotations

import pytest

from kubesched.errors import ConfigError
from kubesched_defaultpreemption import DefaultPreemption, DefaultPreemptionArgs

PCT = "minCandidateNodesPercentage"
ABS = "minCandidateNodesAbsolute"


def test_defaults_are_upstreams() -> None:
    args = DefaultPreemptionArgs()
    assert (args.min_candidate_nodes_percentage, args.min_candidate_nodes_absolute) == (10, 100)
    assert DefaultPreemption.args_kind == "DefaultPreemptionArgs"
    assert DefaultPreemption.args_type is DefaultPreemptionArgs


# upstream: TestValidateDefaultPreemptionArgs (validation_pluginargs_test.go)
@pytest.mark.parametrize(
    ("percentage", "absolute", "errors"),
    [
        pytest.param(10, 100, [], id="valid args (default)"),
        pytest.param(
            -1, 100, [f"{PCT}: Invalid value: -1: not in valid range [0, 100]"], id="negative pct"
        ),
        pytest.param(
            900, 100, [f"{PCT}: Invalid value: 900: not in valid range [0, 100]"], id="pct over 100"
        ),
        pytest.param(
            20, -1, [f"{ABS}: Invalid value: -1: not in valid range [0, inf)"], id="negative abs"
        ),
        pytest.param(
            0,
            0,
            [
                f"{PCT}: Invalid value: 0: cannot be zero at the same time as {ABS}",
                f"{ABS}: Invalid value: 0: cannot be zero at the same time as {PCT}",
            ],
            id="all zero",
        ),
        pytest.param(
            -1,
            -1,
            [
                f"{PCT}: Invalid value: -1: not in valid range [0, 100]",
                f"{ABS}: Invalid value: -1: not in valid range [0, inf)",
            ],
            id="both negative",
        ),
        pytest.param(0, 5, [], id="zero percentage alone"),
        pytest.param(100, 0, [], id="zero absolute alone"),
    ],
)
def test_validate(percentage: int, absolute: int, errors: list[str]) -> None:
    assert DefaultPreemptionArgs(percentage, absolute).validate("") == errors


def test_validate_prefixes_the_path() -> None:
    path = "profiles[0].pluginConfig[1].args"
    assert DefaultPreemptionArgs(101, 1).validate(path) == [
        f"{path}.{PCT}: Invalid value: 101: not in valid range [0, 100]"
    ]


def test_plugin_refuses_invalid_args() -> None:
    with pytest.raises(ConfigError, match="not in valid range"):
        DefaultPreemption(DefaultPreemptionArgs(-5, 100), handle=None)  # type: ignore[arg-type]


# upstream: calculateNumCandidates, exercised through TestDryRunPreemption's args and the
# defaults (10 %, at least 100, never more than the nodes there are).
@pytest.mark.parametrize(
    ("percentage", "absolute", "num_nodes", "expected"),
    [
        (10, 100, 10, 10),
        (10, 100, 100, 100),
        (10, 100, 1000, 100),
        (10, 100, 5000, 500),
        (10, 100, 1, 1),
        (40, 1, 5, 2),
        (40, 2, 5, 2),
        (100, 0, 7, 7),
        (0, 3, 10, 3),
        (1, 0, 50, 0),
    ],
)
def test_num_candidates(percentage: int, absolute: int, num_nodes: int, expected: int) -> None:
    assert DefaultPreemptionArgs(percentage, absolute).num_candidates(num_nodes) == expected
