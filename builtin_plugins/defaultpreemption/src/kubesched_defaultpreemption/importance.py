"""Which pods matter more: priority first, then how long they have been running.

Upstream (pkg/scheduler/util) treats a pod without `status.startTime` as
started "now", i.e. later than any pod that has one. Here such pods start at
`NOT_STARTED`, after every real start time, and two of them tie (upstream
compares two calls of time.Now(), which depends on call order). Start times
compare to the nanosecond, as upstream's `metav1.Time` values do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cmp_to_key

from kubesched.api import Pod, Time
from kubesched.framework import PodInfo

MoreImportantPod = Callable[[Pod, Pod], bool]
"""True when the first pod is more important (it is reprieved before the second)."""

NOT_STARTED = Time(10**21)
"""The start time of a pod that has not started yet: later than any real one (past the
latest time RFC 3339 can write, 9999-12-31T23:59:59.999999999-24:00)."""


def pod_start_time(pod: Pod) -> Time:
    """`status.startTime`, or `NOT_STARTED`."""
    started = pod.status.start_time
    return NOT_STARTED if started is None else started


def more_important_pod(pod1: Pod, pod2: Pod) -> bool:
    """Higher priority wins; on equal priority the pod that started earlier wins."""
    if pod1.priority != pod2.priority:
        return pod1.priority > pod2.priority
    return pod_start_time(pod1) < pod_start_time(pod2)


def _importance_key(pod_info: PodInfo) -> tuple[int, int]:
    """Sorts as `more_important_pod` orders: higher priority, then earlier start, first."""
    pod = pod_info.pod
    return -pod.priority, pod_start_time(pod).unix_nanos


def by_importance(pods: Sequence[PodInfo], more_important: MoreImportantPod) -> list[PodInfo]:
    """The pods from most to least important; pods that tie keep their order."""
    if more_important is more_important_pod:  # the same order, by key: no call per comparison
        return sorted(pods, key=_importance_key)

    def compare(a: PodInfo, b: PodInfo) -> int:
        if more_important(a.pod, b.pod):
            return -1
        return 1 if more_important(b.pod, a.pod) else 0

    return sorted(pods, key=cmp_to_key(compare))


def earliest_start_of_highest_priority(victims: Sequence[Pod]) -> Time:
    """The earliest start time among the victims of the highest priority
    (upstream's GetEarliestPodStartTime); `victims` must not be empty."""
    top = max(v.priority for v in victims)
    return min(pod_start_time(v) for v in victims if v.priority == top)
