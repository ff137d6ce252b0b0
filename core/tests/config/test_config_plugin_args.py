"""pluginConfig args: structured strictly into each plugin's args class, defaulted, validated."""

from __future__ import annotations

from typing import Any

import pytest
from attrs import frozen

from kubesched.config import (
    KubeSchedulerConfiguration,
    KubeSchedulerProfile,
    PluginConfig,
    apply_defaults,
    parse_config,
)
from kubesched.config.plugin_args import structure_plugin_args
from kubesched.errors import ConfigError
from kubesched.framework._registry import Registry
from kubesched.profile import check_config, effective_profiles

HEADER = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"


def with_args(name: str, args: str) -> str:
    """A config whose only profile configures `name` with `args` (YAML, indented)."""
    indented = "\n".join("      " + line for line in args.strip().splitlines())
    return HEADER + f"profiles:\n- pluginConfig:\n  - name: {name}\n    args:\n{indented}\n"


def args_of(text: str, registry: Registry, name: str) -> Any:
    cfg = parse_config(text, registry)
    return next(e.args for e in cfg.profiles[0].plugin_config if e.name == name)


def errors_of(text: str, registry: Registry) -> list[str]:
    with pytest.raises(ConfigError) as info:
        parse_config(text, registry)
    return info.value.errors


def test_given_fields_kept_others_defaulted(
    kubesched_registry: Registry, upstream_args: dict[str, type]
) -> None:
    # TestPluginArgsDefaults "DefaultPreemptionArgs with value".
    args = args_of(
        with_args("DefaultPreemption", "minCandidateNodesPercentage: 50"),
        kubesched_registry,
        "DefaultPreemption",
    )
    assert args == upstream_args["DefaultPreemption"](50, 100)


@pytest.mark.parametrize("args", ["{}", "null"], ids=["empty", "null"])
def test_empty_args_are_the_defaults(
    args: str, kubesched_registry: Registry, upstream_args: dict[str, type]
) -> None:
    got = args_of(with_args("DefaultPreemption", args), kubesched_registry, "DefaultPreemption")
    assert got == upstream_args["DefaultPreemption"]()


def test_nested_args_with_type_meta(
    kubesched_registry: Registry, upstream_args: dict[str, type]
) -> None:
    args = args_of(
        with_args(
            "NodeResourcesFit",
            """
apiVersion: kubescheduler.config.k8s.io/v1
kind: NodeResourcesFitArgs
scoringStrategy:
  type: MostAllocated
  resources:
  - name: cpu
    weight: 1
  - name: intel.com/foo
    weight: 3
""",
        ),
        kubesched_registry,
        "NodeResourcesFit",
    )
    fit_args = upstream_args["NodeResourcesFit"]
    assert args.scoring_strategy.type == "MostAllocated"
    assert [(r.name, r.weight) for r in args.scoring_strategy.resources] == [
        ("cpu", 1),
        ("intel.com/foo", 3),
    ]
    assert args.ignored_resources == fit_args().ignored_resources


@pytest.mark.parametrize(
    ("name", "args", "expected"),
    [
        (
            "NodeResourcesFit",
            "scoringStrategy:\n  tpye: MostAllocated",
            [
                "profiles[0].pluginConfig[0].args.scoringStrategy.tpye: "
                'unknown field, did you mean "type"?'
            ],
        ),
        (
            "DefaultPreemption",
            "minCandidateNodesPercentage: ten",
            [
                "profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: "
                'expected an integer, got string "ten"'
            ],
        ),
        (
            "DefaultPreemption",
            "kind: InterPodAffinityArgs",
            [
                'profiles[0].pluginConfig[0].args: Invalid value: "InterPodAffinityArgs": '
                "has to match plugin args"
            ],
        ),
        (
            "DefaultPreemption",
            "apiVersion: kubescheduler.config.k8s.io/v1beta3",
            [
                "profiles[0].pluginConfig[0].args.apiVersion: Invalid value: "
                '"kubescheduler.config.k8s.io/v1beta3": has to be "kubescheduler.config.k8s.io/v1"'
            ],
        ),
        (
            "DefaultPreemption",
            "[1, 2]",
            [
                "profiles[0].pluginConfig[0].args: Invalid value: [1,2]: "
                "expected an object (DefaultPreemptionArgs)"
            ],
        ),
        (
            "NodeResourcesFit",
            "scoringStrategy:\n  type: Random",
            [
                "profiles[0].pluginConfig[0].args.scoringStrategy.type: Unsupported value: "
                '"Random": supported values: "LeastAllocated", "MostAllocated", '
                '"RequestedToCapacityRatio"'
            ],
        ),
        (
            "DefaultPreemption",
            "minCandidateNodesPercentage: 200",
            [
                "profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: 200: "
                "not in valid range [0, 100]"
            ],
        ),
    ],
    ids=[
        "unknown-field",
        "wrong-type",
        "wrong-kind",
        "wrong-api-version",
        "not-an-object",
        "validation-unsupported",
        "validation-range",
    ],
)
def test_bad_args(name: str, args: str, expected: list[str], kubesched_registry: Registry) -> None:
    assert errors_of(with_args(name, args), kubesched_registry) == expected


def test_args_of_a_plugin_enabled_nowhere_are_still_checked(kubesched_registry: Registry) -> None:
    text = HEADER + (
        "profiles:\n- plugins:\n    multiPoint:\n      disabled:\n      - name: DefaultPreemption\n"
        "  pluginConfig:\n  - name: DefaultPreemption\n    args:\n"
        "      minCandidateNodesPercentage: 200\n"
    )
    assert errors_of(text, kubesched_registry) == [
        "profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: 200: "
        "not in valid range [0, 100]"
    ]


def test_args_of_a_plugin_enabled_nowhere_are_not_passed(kubesched_registry: Registry) -> None:
    text = HEADER + (
        "profiles:\n- plugins:\n    multiPoint:\n      disabled:\n      - name: DefaultPreemption\n"
        "  pluginConfig:\n  - name: DefaultPreemption\n    args:\n"
        "      minCandidateNodesPercentage: 20\n"
    )
    cfg = parse_config(text, kubesched_registry)
    [profile] = effective_profiles(cfg, kubesched_registry)
    assert "DefaultPreemption" not in profile.plugin_args
    assert profile.plugins["postFilter"] == ()


def test_args_of_an_unknown_plugin_are_ignored(kubesched_registry: Registry) -> None:
    cfg = parse_config(with_args("FooPlugin", "anything: [1, 2]"), kubesched_registry)
    assert cfg.profiles[0].plugin_config[0] == PluginConfig("FooPlugin", {"anything": [1, 2]})
    [profile] = effective_profiles(cfg, kubesched_registry)
    assert "FooPlugin" not in profile.plugin_args


def test_enabled_plugin_gets_its_args(
    kubesched_registry: Registry, upstream_args: dict[str, type]
) -> None:
    cfg = parse_config(
        with_args("DefaultPreemption", "minCandidateNodesAbsolute: 7"), kubesched_registry
    )
    [profile] = effective_profiles(cfg, kubesched_registry)
    assert profile.plugin_args["DefaultPreemption"] == upstream_args["DefaultPreemption"](10, 7)
    # Defaults appended for the other enabled plugins that declare args.
    assert profile.plugin_args["NodeResourcesFit"] == upstream_args["NodeResourcesFit"]()
    assert set(profile.plugin_args) == {
        "DefaultPreemption",
        "InterPodAffinity",
        "NodeAffinity",
        "NodeResourcesBalancedAllocation",
        "NodeResourcesFit",
        "VolumeBinding",
    }


def test_out_of_tree_plugin_without_args_class_gets_raw_args(
    kubesched_registry: Registry, make_plugin: Any
) -> None:
    kubesched_registry.register("Gang", make_plugin("Gang", "permit"))
    text = HEADER + (
        "profiles:\n- plugins:\n    multiPoint:\n      enabled:\n      - name: Gang\n"
        "  pluginConfig:\n  - name: Gang\n    args:\n      minMembers: 3\n"
    )
    [profile] = effective_profiles(parse_config(text, kubesched_registry), kubesched_registry)
    assert profile.plugins["permit"] == ("Gang",)
    assert profile.plugin_args["Gang"] == {"minMembers": 3}


@frozen
class GangArgs:
    min_members: int = 2


def test_declared_args_kind(kubesched_registry: Registry, make_plugin: Any) -> None:
    plugin = make_plugin("Gang", "permit", args_type=GangArgs, args_kind="PodGroupArgs")
    kubesched_registry.register("Gang", plugin)
    ok = with_args("Gang", "kind: PodGroupArgs\nminMembers: 3")
    assert args_of(ok, kubesched_registry, "Gang") == GangArgs(3)
    assert errors_of(with_args("Gang", "kind: GangArgs"), kubesched_registry) == [
        'profiles[0].pluginConfig[0].args: Invalid value: "GangArgs": has to match plugin args'
    ]


def test_args_object_of_another_plugin(
    kubesched_registry: Registry, upstream_args: dict[str, type]
) -> None:
    # validation_test.go "invalid-plugin-args": DefaultPreemption given InterPodAffinityArgs.
    cfg = KubeSchedulerConfiguration(
        profiles=[
            KubeSchedulerProfile(
                scheduler_name="me",
                plugin_config=[
                    PluginConfig("DefaultPreemption", upstream_args["InterPodAffinity"]())
                ],
            )
        ]
    )
    _, errors = structure_plugin_args(cfg, kubesched_registry)
    assert errors == [
        'profiles[0].pluginConfig[0].args: Invalid value: "InterPodAffinityArgs": '
        "has to match plugin args"
    ]


def test_check_config_structures_args_of_configs_built_in_code(
    kubesched_registry: Registry, upstream_args: dict[str, type]
) -> None:
    cfg = apply_defaults(
        KubeSchedulerConfiguration(
            profiles=[
                KubeSchedulerProfile(
                    plugin_config=[
                        PluginConfig("DefaultPreemption", {"minCandidateNodesAbsolute": 5})
                    ]
                )
            ]
        ),
        kubesched_registry,
    )
    checked, [profile], errors = check_config(cfg, kubesched_registry)
    assert errors == []
    assert checked.profiles[0].plugin_config[0].args == upstream_args["DefaultPreemption"](10, 5)
    assert profile.plugin_args["DefaultPreemption"] == upstream_args["DefaultPreemption"](10, 5)
