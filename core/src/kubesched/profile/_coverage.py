"""Pods that ask for something their profile does not check.

A pod with host ports placed by a profile without NodePorts, or with pod
anti-affinity placed without InterPodAffinity, lands where kube-scheduler
would not put it, and nothing says so. `unchecked_features` names each such
(profile, feature) once, with how many pods and which.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from attrs import frozen

from kubesched.api import Pod
from kubesched.framework._profile import EffectiveProfile

EXAMPLES = 3
"""Pods named per warning."""


def _host_ports(pod: Pod) -> bool:
    containers = (*pod.spec.init_containers, *pod.spec.containers)
    return any(port.host_port for c in containers for port in c.ports)


def _pod_affinity(required: bool, anti: bool) -> Callable[[Pod], bool]:
    def uses(pod: Pod) -> bool:
        affinity = pod.spec.affinity
        terms = None if affinity is None else (
            affinity.pod_anti_affinity if anti else affinity.pod_affinity
        )  # fmt: skip
        if terms is None:
            return False
        if required:
            return bool(terms.required_during_scheduling_ignored_during_execution)
        return bool(terms.preferred_during_scheduling_ignored_during_execution)

    return uses


def _node_affinity(pod: Pod) -> bool:
    affinity = pod.spec.affinity
    node = None if affinity is None else affinity.node_affinity
    return bool(pod.spec.node_selector) or (
        node is not None and node.required_during_scheduling_ignored_during_execution is not None
    )


def _spread(pod: Pod) -> bool:
    return bool(pod.spec.topology_spread_constraints)


def _claims(pod: Pod) -> bool:
    return any(
        v.persistent_volume_claim is not None or v.ephemeral is not None for v in pod.spec.volumes
    )


@frozen
class Feature:
    """Something a pod asks for, and the plugin (at a point) that honours it upstream."""

    description: str
    plugin: str
    point: str
    used_by: Callable[[Pod], bool]


FEATURES: tuple[Feature, ...] = (
    Feature("nodeSelector or required node affinity", "NodeAffinity", "filter", _node_affinity),
    Feature("hostPorts", "NodePorts", "filter", _host_ports),
    Feature("required pod affinity", "InterPodAffinity", "filter", _pod_affinity(True, False)),
    Feature("required pod anti-affinity", "InterPodAffinity", "filter", _pod_affinity(True, True)),
    Feature("preferred pod affinity", "InterPodAffinity", "score", _pod_affinity(False, False)),
    Feature("preferred pod anti-affinity", "InterPodAffinity", "score", _pod_affinity(False, True)),
    Feature("topologySpreadConstraints", "PodTopologySpread", "filter", _spread),
    Feature("PersistentVolumeClaims", "VolumeBinding", "filter", _claims),
)
"""What the default profile's plugins read from a pod, by the plugin that reads it."""


def unchecked_features(pods: Iterable[Pod], profiles: Mapping[str, EffectiveProfile]) -> list[str]:
    """One warning per (profile, feature) that pending pods use and no enabled plugin
    checks: how many pods, a few of them, and the plugin that would."""
    found: dict[tuple[str, Feature], list[str]] = {}
    for pod in pods:
        profile = profiles.get(pod.spec.scheduler_name)
        if pod.spec.node_name or profile is None:
            continue
        for feature in FEATURES:
            if feature.plugin in profile.plugins.get(feature.point, ()):
                continue
            if feature.used_by(pod):
                found.setdefault((profile.scheduler_name, feature), []).append(pod.key)
    warnings = []
    for (name, feature), keys in found.items():
        examples = ", ".join(keys[:EXAMPLES]) + (", ..." if len(keys) > EXAMPLES else "")
        one = len(keys) == 1
        subject = "1 pod uses" if one else f"{len(keys)} pods use"
        warnings.append(
            f'{subject} {feature.description}, which profile "{name}" does not check '
            f"({feature.plugin} is not enabled at {feature.point}), so {'it' if one else 'they'} "
            f"may be placed where kube-scheduler would not place {'it' if one else 'them'}: "
            f"{examples}"
        )
    return warnings
