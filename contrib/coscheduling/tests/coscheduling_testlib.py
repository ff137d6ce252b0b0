"""Builders the Coscheduling tests share: group members, gangs, nodes, the enabling config."""

from __future__ import annotations

from typing import Any

from kubesched.api import Node, Pod
from kubesched.testing import PodBuilder, make_node, make_pod
from kubesched_coscheduling import MIN_AVAILABLE_ANNOTATION, POD_GROUP_LABEL


def member(name: str, group: str, min_available: int | None = None, ns: str = "ns") -> PodBuilder:
    """A pod of `group` in `ns`, carrying the minimum when given."""
    builder = make_pod(name).namespace(ns).label(POD_GROUP_LABEL, group)
    if min_available is not None:
        builder = builder.annotation(MIN_AVAILABLE_ANNOTATION, str(min_available))
    return builder


def gang(group: str, size: int, min_available: int, cpu: str = "1") -> list[Pod]:
    """`size` pending pods `<group>-<i>` in namespace "default", each asking for `cpu`."""
    return [
        member(f"{group}-{i}", group, min_available, ns="default").req(cpu=cpu).obj()
        for i in range(size)
    ]


def nodes(count: int, cpu: str = "1") -> list[Node]:
    """`count` nodes `n<i>`, each with `cpu` CPUs."""
    return [make_node(f"n{i}").capacity(cpu=cpu, memory="8Gi").obj() for i in range(count)]


def config(**args: Any) -> dict[str, Any]:
    """The default profile with Coscheduling everywhere it serves, replacing PrioritySort."""
    profile: dict[str, Any] = {
        "schedulerName": "default-scheduler",
        "plugins": {
            "multiPoint": {"enabled": [{"name": "Coscheduling"}]},
            "queueSort": {"enabled": [{"name": "Coscheduling"}], "disabled": [{"name": "*"}]},
        },
    }
    if args:
        profile["pluginConfig"] = [{"name": "Coscheduling", "args": args}]
    return {"profiles": [profile]}
