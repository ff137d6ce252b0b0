"""examples/openb: one configuration per policy, the same profile the replay builds."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kubesched_gpushare.replay.profiles import POLICIES, WEIGHT, policy_config

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "openb"


@pytest.mark.parametrize("policy", list(POLICIES))
def test_the_example_is_the_profile_the_replay_runs(policy: str) -> None:
    document = yaml.safe_load((EXAMPLES / f"{policy}.yaml").read_text())
    expected = policy_config(policy, [])
    assert document["percentageOfNodesToScore"] == 100
    [profile] = document["profiles"]
    [built] = expected["profiles"]
    assert profile["plugins"] == built["plugins"]
    assert profile["plugins"]["score"]["enabled"] == [{"name": POLICIES[policy], "weight": WEIGHT}]
