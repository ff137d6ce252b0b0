"""Priority admission: class value, global default, system classes, unknown class."""

from __future__ import annotations

import pytest

from kubesched.api import ObjectMeta, PriorityClass
from kubesched.cluster.admission import admit_priority, priority_classes_by_name
from kubesched.errors import InputError
from kubesched.testing import make_pod


def _classes(*classes: PriorityClass) -> dict[str, PriorityClass]:
    return priority_classes_by_name(classes)


def _pc(name: str, value: int, default: bool = False, policy: str | None = None) -> PriorityClass:
    return PriorityClass(
        metadata=ObjectMeta(name=name),
        value=value,
        global_default=default,
        preemption_policy=policy,
    )


def test_named_class_sets_priority_and_policy() -> None:
    pod = make_pod("p").priority_class_name("high").obj()
    admitted = admit_priority(pod, _classes(_pc("high", 1000, policy="Never")))
    assert admitted.spec.priority == 1000 and admitted.spec.preemption_policy == "Never"


def test_pod_policy_wins_over_the_class() -> None:
    pod = make_pod("p").priority_class_name("high").preemption_policy("PreemptLowerPriority").obj()
    admitted = admit_priority(pod, _classes(_pc("high", 7, policy="Never")))
    assert admitted.spec.preemption_policy == "PreemptLowerPriority"


def test_global_default_lowest_value_wins_and_none_means_zero() -> None:
    classes = _classes(_pc("a", 50, default=True), _pc("b", 20, default=True), _pc("c", 99))
    admitted = admit_priority(make_pod("p").obj(), classes)
    assert (admitted.spec.priority, admitted.spec.priority_class_name) == (20, "b")
    assert admit_priority(make_pod("p").obj(), _classes()).spec.priority == 0


def test_existing_priority_is_kept_and_system_classes_exist() -> None:
    assert admit_priority(make_pod("p").priority(5).obj(), _classes()).spec.priority == 5
    classes = _classes()
    assert classes["system-node-critical"].value == 2_000_001_000
    assert classes["system-cluster-critical"].value == 2_000_000_000


def test_unknown_class_is_an_input_error_naming_pod_and_field() -> None:
    pod = make_pod("p").namespace("ns").priority_class_name("nope").obj()
    with pytest.raises(InputError) as info:
        admit_priority(pod, _classes())
    assert str(info.value) == (
        "Pod ns/p: field spec.priorityClassName: no PriorityClass with name nope was found"
    )
