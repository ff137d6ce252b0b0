"""The PrioritySort plugin: the scheduling queue's order."""

from __future__ import annotations

from kubesched import hookimpl
from kubesched.framework import QueuedPodInfo


class PrioritySort:
    """Orders the active queue by priority, then by queue time (upstream's PrioritySort)."""

    name = "PrioritySort"

    def __init__(self, args: object = None, handle: object = None) -> None:
        """No args; the handle is not needed."""

    @hookimpl
    def queue_sort_less(self, pod_info_a: QueuedPodInfo, pod_info_b: QueuedPodInfo) -> bool:
        """True when `pod_info_a` goes first: higher `spec.priority` (unset is 0), or equal
        priority and an earlier queue timestamp."""
        priority_a = pod_info_a.pod.priority
        priority_b = pod_info_b.pod.priority
        return priority_a > priority_b or (
            priority_a == priority_b and pod_info_a.timestamp < pod_info_b.timestamp
        )
