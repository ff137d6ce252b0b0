"""Upstream's validation rules and messages: validation_test.go's v1 table, as data, and more."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from attrs import evolve, frozen

from kubesched.api._names import qualified_name_errors
from kubesched.config import (
    ClientConnectionConfiguration,
    Extender,
    ExtenderManagedResource,
    KubeSchedulerConfiguration,
    KubeSchedulerProfile,
    LeaderElectionConfiguration,
    Plugin,
    PluginConfig,
    Plugins,
    PluginSet,
)
from kubesched.config.validation import validate_configuration


@frozen
class PreemptionArgs:
    """Stands for DefaultPreemptionArgs: validates its percentage as upstream does."""

    min_candidate_nodes_percentage: int = 10
    min_candidate_nodes_absolute: int = 100

    def validate(self, path: str) -> list[str]:
        value = self.min_candidate_nodes_percentage
        if 0 <= value <= 100:
            return []
        return [
            f"{path}.minCandidateNodesPercentage: Invalid value: {value}: "
            "not in valid range [0, 100]"
        ]


def sort_set(*names: str) -> PluginSet:
    return PluginSet(enabled=[Plugin(n) for n in names])


VALID = KubeSchedulerConfiguration(
    parallelism=8,
    client_connection=ClientConnectionConfiguration(
        accept_content_types="application/json", content_type="application/json", qps=10, burst=10
    ),
    leader_election=LeaderElectionConfiguration(
        resource_lock="leases",
        leader_elect=True,
        lease_duration=timedelta(seconds=30),
        renew_deadline=timedelta(seconds=15),
        retry_period=timedelta(seconds=5),
        resource_namespace="name",
        resource_name="name",
    ),
    pod_initial_backoff_seconds=1,
    pod_max_backoff_seconds=1,
    profiles=[
        KubeSchedulerProfile(
            scheduler_name="me",
            percentage_of_nodes_to_score=35,
            plugins=Plugins(
                queue_sort=sort_set("CustomSort"), score=PluginSet(disabled=[Plugin("*")])
            ),
            plugin_config=[PluginConfig("DefaultPreemption", PreemptionArgs(10, 100))],
        ),
        KubeSchedulerProfile(
            scheduler_name="other",
            percentage_of_nodes_to_score=35,
            plugins=Plugins(queue_sort=sort_set("CustomSort"), bind=sort_set("CustomBind")),
        ),
    ],
    extenders=[Extender(prioritize_verb="prioritize", weight=1)],
)


def profile(i: int, **changes: Any) -> KubeSchedulerConfiguration:
    """VALID with profile i changed."""
    profiles = list(VALID.profiles)
    profiles[i] = evolve(profiles[i], **changes)
    return evolve(VALID, profiles=profiles)


def leader(**changes: Any) -> KubeSchedulerConfiguration:
    return evolve(VALID, leader_election=evolve(VALID.leader_election, **changes))


def extenders(*items: Extender) -> KubeSchedulerConfiguration:
    return evolve(VALID, extenders=list(items))


def score_enabled(*names: str) -> KubeSchedulerConfiguration:
    plugins = evolve(
        VALID.profiles[0].plugins, score=PluginSet(enabled=[Plugin(n, 2) for n in names])
    )
    return profile(0, plugins=plugins)


V1 = '"kubescheduler.config.k8s.io/v1"'
REMOVED = f"was invalid in version {V1} (KubeSchedulerConfiguration is version {V1})"

# TestValidateKubeSchedulerConfigurationV1: (name, config, expected lines).
V1_CASES: list[tuple[str, KubeSchedulerConfiguration, list[str]]] = [
    ("good", VALID, []),
    (
        "bad-parallelism-invalid-value",
        evolve(VALID, parallelism=0),
        ["parallelism: Invalid value: 0: should be an integer value greater than zero"],
    ),
    (
        "bad-resource-name-not-set",
        leader(resource_name=""),
        ['leaderElection.resourceName: Invalid value: "": resourceName is required'],
    ),
    (
        "bad-resource-namespace-not-set",
        leader(resource_namespace=""),
        ['leaderElection.resourceNamespace: Invalid value: "": resourceNamespace is required'],
    ),
    (
        "bad-resource-lock-not-leases",
        leader(resource_lock="configmap"),
        [
            'leaderElection.resourceLock: Invalid value: "configmap": '
            'resourceLock value must be "leases"'
        ],
    ),
    (
        "bad-percentage-of-nodes-to-score",
        evolve(VALID, percentage_of_nodes_to_score=101),
        ["percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]"],
    ),
    (
        "negative-percentage-of-nodes-to-score",
        evolve(VALID, percentage_of_nodes_to_score=-1),
        ["percentageOfNodesToScore: Invalid value: -1: not in valid range [0-100]"],
    ),
    (
        "scheduler-name-not-set",
        profile(1, scheduler_name=""),
        ["profiles[1].schedulerName: Required value"],
    ),
    (
        "repeated-scheduler-name",
        profile(0, scheduler_name="other"),
        ['profiles[1].schedulerName: Duplicate value: "other"'],
    ),
    (
        "greater-than-100-profile-percentage-of-nodes-to-score",
        profile(1, percentage_of_nodes_to_score=101),
        ["profiles[1].percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]"],
    ),
    (
        "negative-profile-percentage-of-nodes-to-score",
        profile(1, percentage_of_nodes_to_score=-1),
        ["profiles[1].percentageOfNodesToScore: Invalid value: -1: not in valid range [0-100]"],
    ),
    (
        "different-queue-sort",
        profile(1, plugins=evolve(VALID.profiles[1].plugins, queue_sort=sort_set("AnotherSort"))),
        [
            'profiles[1].plugins.queueSort: Invalid value: {"enabled":["AnotherSort"],'
            '"disabled":[]}: must be the same for all profiles'
        ],
    ),
    (
        "one-empty-queue-sort",
        profile(0, plugins=None),
        [
            'profiles[1].plugins.queueSort: Invalid value: {"enabled":["CustomSort"],'
            '"disabled":[]}: must be the same for all profiles'
        ],
    ),
    (
        "extender-negative-weight",
        extenders(Extender(prioritize_verb="prioritize", weight=-1)),
        ["extenders[0].weight: Invalid value: -1: must have a positive weight applied to it"],
    ),
    (
        "extender-duplicate-managed-resources",
        extenders(
            Extender(
                prioritize_verb="prioritize",
                weight=1,
                managed_resources=[
                    ExtenderManagedResource("example.com/foo"),
                    ExtenderManagedResource("example.com/foo"),
                ],
            )
        ),
        [
            'extenders[0].managedResources[1].name: Invalid value: "example.com/foo": '
            "duplicate extender managed resource name"
        ],
    ),
    (
        "extender-duplicate-bind",
        extenders(
            Extender(prioritize_verb="prioritize", weight=1, bind_verb="foo"),
            Extender(prioritize_verb="prioritize", weight=1, bind_verb="bar"),
        ),
        [
            'extenders: Invalid value: "found 2 extenders implementing bind": '
            "only one extender can implement bind"
        ],
    ),
    (
        "invalid-node-percentage",
        profile(0, plugin_config=[PluginConfig("DefaultPreemption", PreemptionArgs(200, 100))]),
        [
            "profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: 200: "
            "not in valid range [0, 100]"
        ],
    ),
    (
        "duplicated-plugin-config",
        profile(0, plugin_config=[PluginConfig("config"), PluginConfig("config")]),
        ['profiles[0].pluginConfig[1]: Duplicate value: "config"'],
    ),
    (
        "mismatch-queue-sort",
        evolve(
            VALID,
            profiles=[
                KubeSchedulerProfile(
                    scheduler_name="me",
                    plugins=Plugins(queue_sort=sort_set("PrioritySort")),
                    plugin_config=[PluginConfig("PrioritySort")],
                ),
                KubeSchedulerProfile(
                    scheduler_name="other",
                    plugins=Plugins(queue_sort=sort_set("CustomSort")),
                    plugin_config=[PluginConfig("CustomSort")],
                ),
            ],
        ),
        [
            'profiles[1].plugins.queueSort: Invalid value: {"enabled":["CustomSort"],'
            '"disabled":[]}: must be the same for all profiles'
        ],
    ),
    ("valid-plugins", score_enabled("PodTopologySpread"), []),
    (
        "invalid-plugins",
        score_enabled("EBSLimits"),
        [f'profiles[0].plugins.score.enabled[0]: Invalid value: "EBSLimits": {REMOVED}'],
    ),
]


@pytest.mark.parametrize(
    ("cfg", "expected"), [case[1:] for case in V1_CASES], ids=[case[0] for case in V1_CASES]
)
def test_validate_v1(cfg: KubeSchedulerConfiguration, expected: list[str]) -> None:
    assert validate_configuration(cfg) == expected


@pytest.mark.parametrize("name", ["AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits"])
def test_removed_plugins_are_invalid_anywhere_but_multi_point(name: str) -> None:
    plugins = Plugins(
        queue_sort=sort_set("CustomSort"),
        filter=sort_set("NodeName", name),
        multi_point=sort_set(name),
    )
    cfg = evolve(
        VALID,
        profiles=[
            KubeSchedulerProfile(
                scheduler_name="me", plugins=plugins, plugin_config=[PluginConfig(name)]
            )
        ],
    )
    assert validate_configuration(cfg) == [
        f'profiles[0].plugins.filter.enabled[1]: Invalid value: "{name}": {REMOVED}',
        f'profiles[0].pluginConfig[0]: Invalid value: "{name}": {REMOVED}',
    ]


def test_queue_sort_args_must_match() -> None:
    cfg = evolve(
        VALID,
        profiles=[
            evolve(p, plugin_config=[PluginConfig("CustomSort", {"order": order})])
            for p, order in zip(VALID.profiles, ("fifo", "lifo"), strict=True)
        ],
    )
    assert validate_configuration(cfg) == [
        'profiles[1].pluginConfig.args: Invalid value: {"order":"lifo"}: '
        "queueSort must be the same for all profiles"
    ]


def test_only_one_queue_sort_in_first_profile() -> None:
    cfg = profile(0, plugins=Plugins(queue_sort=sort_set("CustomSort", "OtherSort")))
    assert validate_configuration(cfg) == [
        "profiles[0].plugins.queueSort.enabled: Invalid value: 2: "
        "only one queue sort plugin can be enabled",
        'profiles[1].plugins.queueSort: Invalid value: {"enabled":["CustomSort"],'
        '"disabled":[]}: must be the same for all profiles',
    ]


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"profiles": []}, ["profiles: Required value"]),
        (
            {"pod_initial_backoff_seconds": 0},
            ["podInitialBackoffSeconds: Invalid value: 0: must be greater than 0"],
        ),
        (
            {"pod_initial_backoff_seconds": 5, "pod_max_backoff_seconds": 3},
            [
                "podMaxBackoffSeconds: Invalid value: 3: "
                "must be greater than or equal to PodInitialBackoffSeconds"
            ],
        ),
        (
            {"client_connection": ClientConnectionConfiguration(burst=-1)},
            ["clientConnection.burst: Invalid value: -1: must be non-negative"],
        ),
    ],
    ids=["no-profiles", "initial-backoff-zero", "max-below-initial", "negative-burst"],
)
def test_top_level_rules(changes: dict[str, Any], expected: list[str]) -> None:
    assert validate_configuration(evolve(VALID, **changes)) == expected


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        (
            {"lease_duration": timedelta(0)},
            [
                "leaderElection.leaseDuration: Invalid value: 0s: must be greater than zero",
                "leaderElection.leaseDuration: Invalid value: 15s: "
                "LeaseDuration must be greater than RenewDeadline",
            ],
        ),
        (
            {"renew_deadline": timedelta(seconds=45)},
            [
                "leaderElection.leaseDuration: Invalid value: 45s: "
                "LeaseDuration must be greater than RenewDeadline"
            ],
        ),
        (
            {"retry_period": timedelta(seconds=-45)},
            ["leaderElection.retryPeriod: Invalid value: -45s: must be greater than zero"],
        ),
        ({"leader_elect": False, "lease_duration": timedelta(seconds=-45)}, []),
        (
            {"resource_lock": ""},
            [
                'leaderElection.resourceLock: Invalid value: "": resourceLock is required',
                'leaderElection.resourceLock: Invalid value: "": '
                'resourceLock value must be "leases"',
            ],
        ),
    ],
    ids=["lease-zero", "renew-exceeds-lease", "negative-retry", "not-electing", "no-lock"],
)
def test_leader_election_rules(changes: dict[str, Any], expected: list[str]) -> None:
    assert validate_configuration(leader(**changes)) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("example.com/foo", []),
        ("kubernetes.io/foo", ["is an invalid extended resource name"]),
        ("foo", ["is an invalid extended resource name"]),
        ("requests.example.com/foo", ["is an invalid extended resource name"]),
        ("example.com/-foo", qualified_name_errors("-foo")),
        ("a/b/c", qualified_name_errors("a/b/c")),
    ],
)
def test_extender_managed_resource_names(name: str, expected: list[str]) -> None:
    cfg = extenders(Extender(managed_resources=[ExtenderManagedResource(name)]))
    assert validate_configuration(cfg) == [
        f'extenders[0].managedResources[0].name: Invalid value: "{name}": {message}'
        for message in expected
    ]


@frozen
class BrokenArgs:
    """Args whose validation itself fails."""

    def validate(self, path: str) -> list[str]:
        raise ValueError("boom")


def test_failing_args_validation_is_reported() -> None:
    cfg = profile(0, plugin_config=[PluginConfig("Broken", BrokenArgs())])
    assert validate_configuration(cfg) == [
        'profiles[0].pluginConfig[0].args: validating the args of plugin "Broken" failed: '
        "ValueError: boom"
    ]
