"""The Coscheduling plugin: a pod group is placed all together, or not at all.

After scheduler-plugins' Coscheduling. QueueSort keeps a group's pods
together in the queue; PreFilter turns a pod away while its group cannot
reach its minimum; Permit holds members (reserved on their nodes) until the
minimum is reserved, then lets them all bind at once; a member that waits
too long, or a member PostFilter finds room for nowhere, rejects the group's
waiting members, which Unreserve cleans up and the queue retries.

One addition for simulations: a group rejected as a whole (by PostFilter,
or by a Permit timeout) is not tried again until something outside it
changes (a node, or a pod on a node that is not a member), as nothing else
could make the next attempt end differently.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from attrs import frozen

from kubesched import hookimpl
from kubesched.api import Pod
from kubesched.framework import (
    MAX_PERMIT_TIMEOUT,
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    Code,
    EventResource,
    Handle,
    NodeInfo,
    QueuedPodInfo,
    QueueingHint,
    Status,
)
from kubesched_coscheduling.args import DEFAULT_PERMIT_WAITING_TIME_SECONDS, CoschedulingArgs
from kubesched_coscheduling.groups import (
    PodGroup,
    Surroundings,
    assigned_count,
    full_name_of,
    members,
    pod_group_of,
    surroundings,
)

NAME = "Coscheduling"
NOT_FOUND = "PodGroup not found"
NO_POD_GROUP = "can not find pod group"
POST_FILTER_REJECTION = "optimistic rejection in PostFilter"
UNRESERVE_REJECTION = "rejection in Unreserve"


@frozen
class Rejection:
    """Why a group was rejected as a whole, and what it faced then."""

    cause: str
    faced: Surroundings


@frozen
class GroupFailure:
    """When a group last failed, and its last rejection as a whole, if any."""

    at: float
    rejection: Rejection | None = None


class Coscheduling:
    """Gang scheduling by pod-group label and min-available annotation."""

    name = NAME
    args_type = CoschedulingArgs
    args_kind = "CoschedulingArgs"

    def __init__(self, args: CoschedulingArgs | None, handle: Handle) -> None:
        self._args = args or CoschedulingArgs()
        self._handle = handle
        self._lister = handle.client
        wait = self._args.permit_waiting_time_seconds or DEFAULT_PERMIT_WAITING_TIME_SECONDS
        self._wait = min(float(wait), MAX_PERMIT_TIMEOUT)
        self._queued_at: dict[str, float] = {}
        self._failures: dict[str, GroupFailure] = {}
        self._backoff_until: dict[str, float] = {}
        self._deadlines: dict[str, float] = {}

    # -- what the plugin reads ---------------------------------------------------------

    def _now(self) -> float:
        return self._handle.clock.now()

    def _node_infos(self) -> Sequence[NodeInfo]:
        return self._handle.snapshot_shared_lister().node_infos()

    def _members(self, group: PodGroup) -> list[Pod]:
        return members(self._lister.pods(), group)

    def _reject_waiting(self, group_name: str, message: str) -> None:
        for waiting in self._handle.iterate_over_waiting_pods():
            if full_name_of(waiting.pod) == group_name:
                waiting.reject(NAME, message)

    def _mark_failure(self, group: PodGroup, rejected_because: str | None) -> None:
        """Upstream's MarkPodGroupScheduleFailure. A rejection of the whole group (with its
        cause) also records what the group faced, so it is not retried until that changes;
        other failures, and rejections facing the same, keep what was recorded."""
        previous = self._failures.get(group.full_name)
        rejection = previous.rejection if previous is not None else None
        if rejected_because is not None:
            faced = surroundings(self._node_infos(), group, self._members(group))
            if rejection is None or rejection.faced != faced:
                rejection = Rejection(rejected_because, faced)
        self._failures[group.full_name] = GroupFailure(self._now(), rejection)

    # -- QueueSort ---------------------------------------------------------------------

    def _sort_time(self, info: QueuedPodInfo) -> float:
        """The group's time: its last failure, else when its first member was queued; a pod
        without a group, its own first attempt."""
        queued = info.initial_attempt_timestamp
        if queued is None:
            queued = info.timestamp
        group = full_name_of(info.pod)
        if not group:
            return queued
        failure = self._failures.get(group)
        if failure is not None:
            return failure.at
        return self._queued_at.setdefault(group, queued)

    @hookimpl
    def queue_sort_less(self, pod_info_a: QueuedPodInfo, pod_info_b: QueuedPodInfo) -> bool:
        """Higher priority first; then the earlier group (or lone pod); then by group name
        (a lone pod by its own `namespace/name`), then by pod."""
        priority_a, priority_b = pod_info_a.pod.priority, pod_info_b.pod.priority
        if priority_a != priority_b:
            return priority_a > priority_b
        time_a, time_b = self._sort_time(pod_info_a), self._sort_time(pod_info_b)
        if time_a != time_b:
            return time_a < time_b
        key_a, key_b = pod_info_a.pod.key, pod_info_b.pod.key
        return (full_name_of(pod_info_a.pod) or key_a, key_a) < (
            full_name_of(pod_info_b.pod) or key_b,
            key_b,
        )

    # -- PreFilter, PostFilter ---------------------------------------------------------

    @hookimpl
    def pre_filter(self, pod: Pod, nodes: Sequence[NodeInfo]) -> Status | None:
        """Reject (unresolvably, so no preemption is tried) a member of a group that backs
        off, that has fewer pods than its minimum, that would miss it without its gated pods,
        or that was rejected as a whole and faces the same cluster."""
        group = pod_group_of(pod)
        if group is None:
            return None
        name = group.full_name
        if self._now() < self._backoff_until.get(name, float("-inf")):
            return _unresolvable(f"podGroup {name} failed recently")
        group_pods = self._members(group)
        if len(group_pods) < group.min_member:
            return _unresolvable(
                f"pre-filter pod {pod.metadata.name} cannot find enough sibling pods, "
                f"current pods number: {len(group_pods)}, minMember of group: {group.min_member}"
            )
        gated = sum(1 for member in group_pods if member.spec.scheduling_gates)
        if group.min_member - len(group_pods) + gated > 0:
            return _unresolvable(
                f"pre-filter pod {pod.metadata.name} cannot proceed due to gated pods "
                "in the same PodGroup"
            )
        failure = self._failures.get(name)
        rejection = failure.rejection if failure is not None else None
        if rejection is not None and rejection.faced == surroundings(nodes, group, group_pods):
            return _unresolvable(
                f"podGroup {name} was rejected ({rejection.cause}) and nothing has changed since"
            )
        return None

    @hookimpl
    def post_filter(self, pod: Pod) -> Status:
        """The pod fits nowhere: unless its group already has its minimum placed, or the
        share still missing is small enough to wait for, reject the group's waiting members."""
        group = pod_group_of(pod)
        if group is None:
            return Status(Code.UNSCHEDULABLE, NO_POD_GROUP)
        assigned = assigned_count(self._node_infos(), group, other_than=pod.uid)
        if assigned >= group.min_member:
            return Status(Code.UNSCHEDULABLE)
        missing = group.min_member - assigned
        if missing * 100 <= self._args.pod_group_reject_percentage * group.min_member:
            return Status(Code.UNSCHEDULABLE)
        self._reject_waiting(group.full_name, POST_FILTER_REJECTION)
        backoff = self._args.pod_group_backoff_seconds
        if backoff > 0 and len(self._members(group)) >= group.min_member:
            self._backoff_until[group.full_name] = self._now() + backoff
        self._mark_failure(group, f"Pod {pod.metadata.name} was unschedulable")
        return Status(
            Code.UNSCHEDULABLE,
            f"PodGroup {group.full_name} gets rejected due to Pod {pod.metadata.name} "
            "is unschedulable even after PostFilter",
        )

    # -- Reserve, Permit ---------------------------------------------------------------

    @hookimpl
    def reserve(self) -> None:
        """Nothing to claim: members are counted from the snapshot."""

    @hookimpl
    def unreserve(self, pod: Pod) -> None:
        """A member will not bind: reject the group's other waiting members too."""
        group = pod_group_of(pod)
        if group is None:
            return
        deadline = self._deadlines.pop(pod.uid, None)
        timed_out = deadline is not None and self._now() >= deadline
        self._reject_waiting(group.full_name, UNRESERVE_REJECTION)
        cause = f"Pod {pod.metadata.name} timed out at Permit" if timed_out else None
        self._mark_failure(group, cause)

    @hookimpl
    def permit(self, pod: Pod) -> Status | tuple[Status, float] | None:
        """Allow the group's waiting members and this pod once its minimum is reserved;
        until then, Wait (the first waiting member brings its siblings to the active queue)."""
        name = full_name_of(pod)
        if not name:
            return None
        group = pod_group_of(pod)
        if group is None:
            return Status(Code.UNSCHEDULABLE, NOT_FOUND)
        assigned = assigned_count(self._node_infos(), group, other_than=pod.uid) + 1
        if assigned >= group.min_member:
            self._failures.pop(name, None)
            self._queued_at.pop(name, None)
            for waiting in self._handle.iterate_over_waiting_pods():
                if full_name_of(waiting.pod) == name:
                    self._deadlines.pop(waiting.pod.uid, None)
                    waiting.allow(NAME)
            return None
        if assigned == 1:
            siblings = [p for p in self._members(group) if p.uid != pod.uid]
            if siblings:
                self._handle.activate_pods(siblings)
        self._deadlines[pod.uid] = self._now() + self._wait
        return Status(Code.WAIT), self._wait

    # -- EnqueueExtensions -------------------------------------------------------------

    @hookimpl
    def events_to_register(self) -> Sequence[ClusterEventWithHint]:
        """A new pod (maybe a missing member), a new or changed node, and a pod leaving a node
        (unless it is a member of the rejected pod's own group, released by the rejection)."""
        return (
            ClusterEventWithHint(ClusterEvent(EventResource.POD, ActionType.ADD)),
            ClusterEventWithHint(
                ClusterEvent(EventResource.NODE, ActionType.ADD | ActionType.UPDATE)
            ),
            ClusterEventWithHint(
                ClusterEvent(EventResource.ASSIGNED_POD, ActionType.DELETE), _not_a_sibling
            ),
        )


def _unresolvable(message: str) -> Status:
    return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, message)


def _not_a_sibling(pod: Pod, old: Any, new: Any) -> QueueingHint:
    """Queue unless the pod that left a node is in the same group as `pod`."""
    gone = old if isinstance(old, Pod) else None
    if gone is not None and full_name_of(gone) and full_name_of(gone) == full_name_of(pod):
        return QueueingHint.QUEUE_SKIP
    return QueueingHint.QUEUE
