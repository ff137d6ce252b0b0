"""InterPodAffinityArgs: v1 defaults, upstream's TestValidateInterPodAffinityArgs, and args
loaded from a KubeSchedulerConfiguration with their field paths."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubesched.errors import ConfigError
from kubesched.framework import default_registry
from kubesched.profile import load_profiles
from kubesched_interpodaffinity import InterPodAffinity, InterPodAffinityArgs

WEIGHT = "hardPodAffinityWeight"


def test_defaults_are_upstreams() -> None:
    args = InterPodAffinityArgs()
    assert (args.hard_pod_affinity_weight, args.ignore_preferred_terms_of_existing_pods) == (
        1,
        False,
    )
    assert InterPodAffinity.args_type is InterPodAffinityArgs
    assert InterPodAffinity.args_kind == "InterPodAffinityArgs"


@pytest.mark.parametrize(
    ("weight", "errors"),
    [
        pytest.param(10, [], id="valid args"),
        pytest.param(0, [], id="zero"),
        pytest.param(100, [], id="hundred"),
        pytest.param(-1, [f"{WEIGHT}: Invalid value: -1: not in valid range [0, 100]"], id="neg"),
        pytest.param(101, [f"{WEIGHT}: Invalid value: 101: not in valid range [0, 100]"], id="101"),
    ],
)
def test_validate(weight: int, errors: list[str]) -> None:
    assert InterPodAffinityArgs(hard_pod_affinity_weight=weight).validate("") == errors


def test_plugin_refuses_invalid_args() -> None:
    with pytest.raises(ConfigError) as raised:
        InterPodAffinity(InterPodAffinityArgs(hard_pod_affinity_weight=-5), None)  # type: ignore[arg-type]
    assert raised.value.errors == [f"{WEIGHT}: Invalid value: -5: not in valid range [0, 100]"]


CONFIG = """\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: InterPodAffinity
    args:
      {args}
"""


def _load(tmp_path: Path, args: str) -> object:
    path = tmp_path / "config.yaml"
    path.write_text(CONFIG.format(args=args))
    loaded = load_profiles(path, default_registry())
    return loaded


def test_config_args_load_and_default(tmp_path: Path) -> None:
    loaded = _load(tmp_path, "ignorePreferredTermsOfExistingPods: true")
    text = repr(loaded)
    assert "InterPodAffinityArgs(hard_pod_affinity_weight=1, " in text
    assert "ignore_preferred_terms_of_existing_pods=True" in text


def test_config_args_errors_name_the_field(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as raised:
        _load(tmp_path, f"{WEIGHT}: 200")
    path = f"profiles[0].pluginConfig[0].args.{WEIGHT}"
    assert f"{path}: Invalid value: 200: not in valid range [0, 100]" in raised.value.errors


def test_config_args_unknown_field(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as raised:
        _load(tmp_path, "hardPodAffinityWeigth: 2")
    assert any("hardPodAffinityWeigth" in e for e in raised.value.errors)
