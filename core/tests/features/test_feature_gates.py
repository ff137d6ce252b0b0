"""`--feature-gates` parsing with upstream's syntax and messages (component-base's
featuregate.Set / SetFromMap), and the table of known gates."""

from __future__ import annotations

import pytest

from kubesched.features import (
    BEHAVIOUR,
    DEFAULT_FEATURE_GATES,
    KNOWN_FEATURES,
    TRACKED_RELEASE,
    FeatureGateError,
    Stage,
    parse_feature_gates,
    parse_feature_gates_flag,
)


@pytest.mark.parametrize(
    ("flag", "message"),
    [
        ("PodLevelResources", "missing bool value for PodLevelResources"),
        (" Foo ", "missing bool value for Foo"),
        (
            "PodLevelResources=yes",
            'invalid value of PodLevelResources=yes, err: strconv.ParseBool: parsing "yes": '
            "invalid syntax",
        ),
        (
            "PodLevelResources=",
            'invalid value of PodLevelResources=, err: strconv.ParseBool: parsing "": '
            "invalid syntax",
        ),
        ("NoSuchGate=true", "unrecognized feature gate: NoSuchGate"),
        ("podlevelresources=true", "unrecognized feature gate: podlevelresources"),
        (
            "DynamicResourceAllocation=false",
            "cannot set feature gate DynamicResourceAllocation to false, feature is locked to true",
        ),
        (
            "AllowOverwriteTerminationGracePeriodSeconds=true",
            "cannot set feature gate AllowOverwriteTerminationGracePeriodSeconds to true, "
            "feature is locked to false",
        ),
    ],
)
def test_errors_carry_upstreams_messages(flag: str, message: str) -> None:
    with pytest.raises(FeatureGateError) as raised:
        parse_feature_gates(flag)
    assert str(raised.value) == message


def test_several_locked_gates_are_all_reported_as_an_aggregate() -> None:
    with pytest.raises(FeatureGateError) as raised:
        parse_feature_gates("DynamicResourceAllocation=false,SidecarContainers=false")
    assert raised.value.errors == [
        "cannot set feature gate DynamicResourceAllocation to false, feature is locked to true",
        "cannot set feature gate SidecarContainers to false, feature is locked to true",
    ]
    assert str(raised.value).startswith("[cannot set feature gate DynamicResourceAllocation")


def test_an_unknown_gate_wins_over_a_locked_one() -> None:
    with pytest.raises(FeatureGateError, match=r"^unrecognized feature gate: Nope$"):
        parse_feature_gates("DynamicResourceAllocation=false,Nope=true")


def test_setting_a_locked_gate_to_its_default_is_accepted() -> None:
    assert parse_feature_gates("DynamicResourceAllocation=true").enabled(
        "DynamicResourceAllocation"
    )


@pytest.mark.parametrize("spelling", ["1", "t", "T", "TRUE", "true", "True"])
def test_go_parse_bool_true_spellings(spelling: str) -> None:
    assert parse_feature_gates_flag(f"A={spelling}") == {"A": True}


@pytest.mark.parametrize("spelling", ["0", "f", "F", "FALSE", "false", "False"])
def test_go_parse_bool_false_spellings(spelling: str) -> None:
    assert parse_feature_gates_flag(f"A={spelling}") == {"A": False}


def test_spaces_and_empty_items_are_ignored_and_the_last_setting_wins() -> None:
    flag = " PodLevelResources = false ,,TaintTolerationComparisonOperators=true,"
    gates = parse_feature_gates(flag + "PodLevelResources=true")
    assert gates.enabled("PodLevelResources") is True
    assert gates.enabled("TaintTolerationComparisonOperators") is True


def test_no_flag_means_every_default() -> None:
    assert parse_feature_gates(None) is DEFAULT_FEATURE_GATES
    assert parse_feature_gates("") is DEFAULT_FEATURE_GATES
    for name, spec in KNOWN_FEATURES.items():
        assert DEFAULT_FEATURE_GATES.enabled(name) is spec.default


def test_all_alpha_sets_unnamed_alpha_gates_only() -> None:
    gates = parse_feature_gates("AllAlpha=true,StorageCapacityScoring=false")
    assert gates.enabled("TaintTolerationComparisonOperators") is True
    assert gates.enabled("StorageCapacityScoring") is False
    assert gates.enabled("PodLevelResources") is True  # Beta: untouched
    assert gates.enabled("ClusterTrustBundle") is False  # Beta, off by default: untouched


def test_all_beta_false_turns_beta_gates_off() -> None:
    gates = parse_feature_gates("AllBeta=false")
    assert gates.enabled("PodLevelResources") is False
    assert gates.enabled("SchedulerQueueingHints") is True  # GA


def test_unknown_names_in_code_are_a_key_error() -> None:
    with pytest.raises(KeyError):
        DEFAULT_FEATURE_GATES.enabled("NoSuchGate")


def test_gates_are_read_only_and_hashable() -> None:
    gates = parse_feature_gates("PodLevelResources=false")
    assert gates == parse_feature_gates("PodLevelResources=false")
    assert hash(gates) == hash(parse_feature_gates("PodLevelResources=false"))
    with pytest.raises(TypeError):
        gates.values["PodLevelResources"] = True  # type: ignore[index]
    assert gates.as_flag() == "PodLevelResources=false"


def test_the_table_holds_v1_35_facts() -> None:
    assert TRACKED_RELEASE == "v1.35"
    facts = {
        "PodLevelResources": (True, Stage.BETA, False),
        "TaintTolerationComparisonOperators": (False, Stage.ALPHA, False),
        "DynamicResourceAllocation": (True, Stage.GA, True),
        "SchedulerQueueingHints": (True, Stage.GA, True),
        "SchedulerAsyncPreemption": (True, Stage.BETA, False),
        "DRAExtendedResource": (False, Stage.ALPHA, False),
        "GangScheduling": (False, Stage.ALPHA, False),
        "AllAlpha": (False, Stage.ALPHA, False),
        "AllBeta": (False, Stage.BETA, False),
        "ContextualLogging": (True, Stage.BETA, False),
        "WatchListClient": (True, Stage.BETA, False),
        "KMSv1": (False, Stage.DEPRECATED, False),
        "CustomCPUCFSQuotaPeriod": (False, Stage.ALPHA, False),
    }
    for name, (default, stage, locked) in facts.items():
        spec = KNOWN_FEATURES[name]
        assert (spec.default, spec.stage, spec.locked) == (default, stage, locked), name
    assert len(KNOWN_FEATURES) == 217
    assert list(KNOWN_FEATURES) == sorted(KNOWN_FEATURES)


def test_the_gates_kubesched_honours_are_known() -> None:
    assert set(BEHAVIOUR) == {
        "PodLevelResources",
        "TaintTolerationComparisonOperators",
        "DRAAdminAccess",
        "DRAPrioritizedList",
        "DRADeviceTaints",
        "DRAPartitionableDevices",
        "DRAConsumableCapacity",
        "DRASchedulerFilterTimeout",
        "DRADeviceBindingConditions",
    }
    assert set(BEHAVIOUR) <= set(KNOWN_FEATURES)


def test_setting_ga_and_deprecated_gates_warns_as_upstream_logs() -> None:
    gates = parse_feature_gates("SchedulerQueueingHints=true,KMSv1=false,PodLevelResources=true")
    assert gates.warnings() == [
        "Setting GA feature gate SchedulerQueueingHints=true. "
        "It will be removed in a future release.",
        "Setting deprecated feature gate KMSv1=false. It will be removed in a future release.",
    ]
