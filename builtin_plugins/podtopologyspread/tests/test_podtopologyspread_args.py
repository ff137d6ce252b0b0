"""PodTopologySpreadArgs: defaults and upstream's validation messages and field paths,
and the queueing hints."""

from __future__ import annotations

import pytest

from kubesched.api import LabelSelector, TopologySpreadConstraint
from kubesched.errors import ConfigError
from kubesched.framework import QueueingHint
from kubesched.testing import make_node, make_pod
from kubesched_podtopologyspread import PodTopologySpread, PodTopologySpreadArgs

P = "profiles[0].pluginConfig[0].args"


def tsc(
    key: str = "zone", action: str = "ScheduleAnyway", skew: int = 1, **kw: object
) -> TopologySpreadConstraint:
    return TopologySpreadConstraint(
        max_skew=skew, topology_key=key, when_unsatisfiable=action, **kw
    )  # type: ignore[arg-type]


def test_defaults_are_system_defaulting() -> None:
    assert PodTopologySpreadArgs() == PodTopologySpreadArgs([], "System")
    assert PodTopologySpreadArgs().validate(P) == []


@pytest.mark.parametrize(
    ("args", "errors"),
    [
        (PodTopologySpreadArgs([tsc()], "List"), []),
        (
            PodTopologySpreadArgs([tsc()], "System"),
            [
                f'{P}.defaultingType: Invalid value: "System": '
                "when .defaultConstraints are not empty"
            ],
        ),
        (
            PodTopologySpreadArgs([], "Random"),
            [
                f'{P}.defaultingType: Unsupported value: "Random": '
                'supported values: "System", "List"'
            ],
        ),
        (
            PodTopologySpreadArgs([tsc(skew=0)], "List"),
            [f"{P}.defaultConstraints[0].maxSkew: Invalid value: 0: not in valid range (0, inf)"],
        ),
        (
            PodTopologySpreadArgs([tsc(key="")], "List"),
            [f"{P}.defaultConstraints[0].topologyKey: Required value: can not be empty"],
        ),
        (
            PodTopologySpreadArgs([tsc(action="")], "List"),
            [f"{P}.defaultConstraints[0].whenUnsatisfiable: Required value: can not be empty"],
        ),
        (
            PodTopologySpreadArgs([tsc(action="Sometimes")], "List"),
            [
                f'{P}.defaultConstraints[0].whenUnsatisfiable: Unsupported value: "Sometimes": '
                'supported values: "DoNotSchedule", "ScheduleAnyway"'
            ],
        ),
        (
            PodTopologySpreadArgs([tsc(), tsc(key="node"), tsc()], "List"),
            [f'{P}.defaultConstraints[2]: Duplicate value: "{{zone, ScheduleAnyway}}"'],
        ),
        (
            PodTopologySpreadArgs([tsc(label_selector=LabelSelector())], "List"),
            [
                f"{P}.defaultConstraints[0].labelSelector: Forbidden: "
                "constraint must not define a selector, as they deduced for each pod"
            ],
        ),
    ],
)
def test_validation(args: PodTopologySpreadArgs, errors: list[str]) -> None:
    assert args.validate(P) == errors


def test_invalid_args_fail_the_plugin() -> None:
    with pytest.raises(ConfigError, match="defaultingType"):
        PodTopologySpread(PodTopologySpreadArgs([tsc()], "System"))


def _hints() -> tuple[object, object]:
    events = PodTopologySpread().events_to_register()
    return events[0].hint, events[1].hint


POD = (
    make_pod("p")
    .label("foo", "")
    .spread_constraint(1, "zone", "DoNotSchedule", LabelSelector(match_labels={"foo": ""}))
    .obj()
)


def test_pod_hint() -> None:
    pod_hint, _ = _hints()
    matching = make_pod("m").node("n1").label("foo", "").obj()
    other = make_pod("o").node("n1").label("bar", "").obj()
    unscheduled = make_pod("u").label("foo", "").obj()
    assert pod_hint(POD, None, matching) == QueueingHint.QUEUE  # type: ignore[operator]
    assert pod_hint(POD, None, other) == QueueingHint.QUEUE_SKIP  # type: ignore[operator]
    assert pod_hint(POD, None, unscheduled) == QueueingHint.QUEUE_SKIP  # type: ignore[operator]
    assert pod_hint(POD, matching, None) == QueueingHint.QUEUE  # type: ignore[operator]
    other_relabelled = make_pod("o").node("n1").label("bar", "").label("x", "1").obj()
    assert pod_hint(POD, other, other_relabelled) == QueueingHint.QUEUE_SKIP  # type: ignore[operator]
    relabelled = make_pod("o").node("n1").label("foo", "").obj()
    assert pod_hint(POD, other, relabelled) == QueueingHint.QUEUE  # type: ignore[operator]


def test_node_hint() -> None:
    _, node_hint = _hints()
    zoned = make_node("n").label("zone", "z1").obj()
    bare = make_node("n").obj()
    moved = make_node("n").label("zone", "z2").obj()
    assert node_hint(POD, None, zoned) == QueueingHint.QUEUE  # type: ignore[operator]
    assert node_hint(POD, None, bare) == QueueingHint.QUEUE_SKIP  # type: ignore[operator]
    assert node_hint(POD, bare, zoned) == QueueingHint.QUEUE  # type: ignore[operator]
    assert node_hint(POD, zoned, moved) == QueueingHint.QUEUE  # type: ignore[operator]
    assert node_hint(POD, zoned, zoned) == QueueingHint.QUEUE_SKIP  # type: ignore[operator]
    assert node_hint(POD, zoned, None) == QueueingHint.QUEUE  # type: ignore[operator]
