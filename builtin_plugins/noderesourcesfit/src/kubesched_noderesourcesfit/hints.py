"""Queueing hints: may a cluster event make a pod this plugin rejected fit again?

Upstream's isSchedulableAfterPodEvent and isSchedulableAfterNodeChange, with
the InPlacePodVerticalScaling and SchedulingQueueHint features on (their
upstream defaults). An object of the wrong type means Queue, as upstream's
error path does.
"""

from __future__ import annotations

from kubesched.api import PODS, Node, Pod, is_scalar_resource_name, pod_requests
from kubesched.framework import NodeInfo, QueueingHint
from kubesched_noderesourcesfit.fit import (
    NATIVE_RESOURCES,
    compute_fit_request,
    fit_check,
    fits_request,
)


def is_fit(pod: Pod, node: Node | None) -> bool:
    """Would the pod fit on this node if it were empty?"""
    if node is None:
        return False
    return not fits_request(compute_fit_request(pod), NodeInfo(node))


def have_any_requested_resources_increased(pod: Pod, original: Node, modified: Node) -> bool:
    """Did the node gain pod slots, or allocatable in a resource the pod requests?"""
    before, after = original.status.allocatable, modified.status.allocatable
    if after.get(PODS, 0) > before.get(PODS, 0):
        return True
    checked = fit_check(compute_fit_request(pod)).checked
    return any(after.get(name, 0) > before.get(name, 0) for name, _ in checked)


def scale_down_may_help(target: Pod, original: Pod, modified: Pod) -> bool:
    """Did this update free something the target pod requests (or scale the target itself)?"""
    if modified.uid == target.uid:
        return True
    if not modified.spec.node_name:
        return False
    before, after = pod_requests(original), pod_requests(modified)
    for name, amount in pod_requests(target).items():
        tracked = name in NATIVE_RESOURCES or is_scalar_resource_name(name)
        if amount != 0 and tracked and before.get(name, 0) > after.get(name, 0):
            return True
    return False


def after_pod_event(pod: Pod, old: object, new: object) -> QueueingHint:
    """A pod was deleted or scaled down."""
    if not isinstance(old, Pod) or not (new is None or isinstance(new, Pod)):
        return QueueingHint.QUEUE
    if new is None:
        if not old.spec.node_name and not old.status.nominated_node_name:
            return QueueingHint.QUEUE_SKIP
        return QueueingHint.QUEUE
    if scale_down_may_help(pod, old, new):
        return QueueingHint.QUEUE
    return QueueingHint.QUEUE_SKIP


def after_node_change(pod: Pod, old: object, new: object) -> QueueingHint:
    """A node was added or its allocatable changed."""
    if not isinstance(new, Node) or not (old is None or isinstance(old, Node)):
        return QueueingHint.QUEUE
    if not is_fit(pod, new):
        return QueueingHint.QUEUE_SKIP
    if old is None or have_any_requested_resources_increased(pod, old, new):
        return QueueingHint.QUEUE
    return QueueingHint.QUEUE_SKIP
