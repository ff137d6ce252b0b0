"""examples/openb: one configuration per policy, the same profile the replay builds."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kubesched.cli import main
from kubesched_gpushare.frag import target_workload
from kubesched_gpushare.replay import read_pods
from kubesched_gpushare.replay.profiles import (
    POLICIES,
    WEIGHT,
    policy_config,
    policy_names,
    score_plugins,
    typical_pods_args,
)
from kubesched_gpushare.testing import openb_trace_dir

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "openb"
TRACE = openb_trace_dir(Path(__file__))


@pytest.mark.parametrize("policy", policy_names())
def test_the_example_is_the_profile_the_replay_runs(policy: str) -> None:
    document = yaml.safe_load((EXAMPLES / f"{policy.replace('+', '-')}.yaml").read_text())
    expected = policy_config(policy, [])
    assert document["percentageOfNodesToScore"] == 100
    [profile] = document["profiles"]
    [built] = expected["profiles"]
    assert profile["plugins"] == built["plugins"]
    assert profile["plugins"]["score"]["enabled"] == [
        {"name": plugin, "weight": weight} for plugin, weight in score_plugins(policy)
    ]
    if policy in POLICIES:
        assert score_plugins(policy) == ((POLICIES[policy], WEIGHT),)


@pytest.mark.parametrize("name", ["fgd", "fgd-bestfit"])
def test_the_fgd_example_carries_a_valid_target_workload(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    document = yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text())
    [fgd] = [c for c in document["profiles"][0]["pluginConfig"] if c["name"] == "FGDScore"]
    specs = fgd["args"]["typicalPods"]
    assert len(specs) == 35
    total = 0.0
    for spec in specs:
        total += spec["weight"]
    assert total == pytest.approx(1.0)
    # kubesched's own loader structures and validates the args.
    code = main(["config", "validate", str(EXAMPLES / f"{name}.yaml")])
    assert code in (0, None)
    assert capsys.readouterr().out.strip().endswith("OK (1 profile: default-scheduler)")


@pytest.mark.skipif(TRACE is None, reason="the OpenB trace is not on this machine")
def test_the_fgd_examples_target_workload_is_the_default_traces() -> None:
    assert TRACE is not None
    document = yaml.safe_load((EXAMPLES / "fgd.yaml").read_text())
    [fgd] = [c for c in document["profiles"][0]["pluginConfig"] if c["name"] == "FGDScore"]
    pods = read_pods(TRACE / "openb_pod_list_default.csv")
    assert fgd["args"]["typicalPods"] == typical_pods_args(target_workload(p.spec() for p in pods))


def _seeds(value: str | list[int]) -> set[int]:
    """A grid's `seeds`: a list, or a range written FIRST-LAST."""
    if isinstance(value, list):
        return set(value)
    first, _, last = value.partition("-")
    return set(range(int(first), int(last or first) + 1))


@pytest.mark.parametrize("part", ["study-default.yaml", "study-seed42.yaml", "study-moonshot.yaml"])
def test_a_part_of_the_study_runs_only_study_cells(part: str) -> None:
    """Each part grid's configs, inputs and seeds are study.yaml's, entry for entry, so its
    cells have study.yaml's keys and `--resume` into one folder never runs a cell twice."""
    study = yaml.safe_load((EXAMPLES / "study.yaml").read_text())
    grid = yaml.safe_load((EXAMPLES / part).read_text())
    assert grid["configs"] and all(c in study["configs"] for c in grid["configs"])
    assert grid["inputs"] and all(i in study["inputs"] for i in grid["inputs"])
    assert _seeds(grid["seeds"]) <= _seeds(study["seeds"])
