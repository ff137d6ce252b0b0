"""What the DefaultPreemption tests share: upstream's test resources and priorities, and
a small fake Handle (a snapshot of nodes and pods, Filter plugins and PreFilter
extensions run in order, a cluster client that records what preemption does)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from attrs import evolve

from kubesched.api import (
    CPU,
    EPHEMERAL_STORAGE,
    MEMORY,
    LabelSelector,
    Namespace,
    Node,
    ObjectMeta,
    Pod,
    PodCondition,
    PodDisruptionBudget,
    PodDisruptionBudgetSpec,
    PodDisruptionBudgetStatus,
    Time,
    pod_requests,
)
from kubesched.framework import Code, CycleState, NodeInfo, PodInfo, Status, is_success
from kubesched.scheduler.snapshot import Snapshot
from kubesched_defaultpreemption import DefaultPreemption, DefaultPreemptionArgs

# upstream's default_preemption_test.go resources and priorities
SMALL = {"cpu": "100m", "memory": "100"}
MEDIUM = {"cpu": "200m", "memory": "200"}
LARGE = {"cpu": "300m", "memory": "300"}
VERY_LARGE = {"cpu": "500m", "memory": "500"}
NEG, LOW, MID, HIGH, VERY_HIGH = -100, 0, 100, 1000, 10000

NODE_NAME_REASON = "node(s) didn't match the requested node name"


class FitFilter:
    """Enough of NodeResourcesFit's Filter for preemption: pod count, cpu, memory,
    ephemeral storage and extended resources, with upstream's reasons."""

    name = "NodeResourcesFit"

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        reasons = []
        if len(node_info.pods) + 1 > node_info.allowed_pod_number:
            reasons.append("Too many pods")
        requests = pod_requests(pod)
        others = sorted(set(requests) - {CPU, MEMORY, EPHEMERAL_STORAGE})
        for resource in (CPU, MEMORY, EPHEMERAL_STORAGE, *others):
            wanted = requests.get(resource, 0)
            free = node_info.allocatable.get(resource, 0) - node_info.requested.get(resource, 0)
            if wanted and wanted > free:
                reasons.append(f"Insufficient {resource}")
        return Status(Code.UNSCHEDULABLE, *reasons) if reasons else None


class FakeFilter:
    """Upstream's FakeFilterPlugin: the code to return for each node name."""

    name = "FakeFilter"

    def __init__(self, codes: Mapping[str, Code]) -> None:
        self.codes = dict(codes)

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        code = self.codes.get(node_info.name, Code.SUCCESS)
        if code == Code.SUCCESS:
            return None
        return Status(code, f"injecting failure for pod {pod.metadata.name}")


class ConstFilter:
    """Upstream's TrueFilter / FalseFilter."""

    def __init__(self, passes: bool) -> None:
        self.passes = passes
        self.name = "TrueFilter" if passes else "FalseFilter"

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        return None if self.passes else Status(Code.UNSCHEDULABLE, NODE_NAME_REASON)


class MatchFilter:
    """Upstream's MatchFilter: the pod fits only on the node named like it."""

    name = "MatchFilter"

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        if pod.metadata.name == node_info.name:
            return None
        return Status(Code.UNSCHEDULABLE, NODE_NAME_REASON)


class ErrorOnLabelExtensions:
    """Upstream's TestPlugin: AddPod/RemovePod fail on nodes labelled error=true."""

    name = "test-plugin"

    def pre_filter_add_pod(
        self, state: CycleState, pod_to_schedule: Pod, pod_info: PodInfo, node_info: NodeInfo
    ) -> Status | None:
        return self._check(node_info, f"failed to add pod: {pod_to_schedule.metadata.name}")

    def pre_filter_remove_pod(
        self, state: CycleState, pod_to_schedule: Pod, pod_info: PodInfo, node_info: NodeInfo
    ) -> Status | None:
        return self._check(node_info, f"failed to remove pod: {pod_to_schedule.metadata.name}")

    @staticmethod
    def _check(node_info: NodeInfo, message: str) -> Status | None:
        assert node_info.node is not None
        if node_info.node.metadata.labels.get("error") == "true":
            return Status.error(message)
        return None


class ClientError(Exception):
    pass


class FakeClient:
    """Records deletions and status patches; fails for the pod names it is told to."""

    def __init__(
        self,
        pdbs: Sequence[PodDisruptionBudget] = (),
        *,
        fail_delete: Iterable[str] = (),
        fail_patch: Iterable[str] = (),
    ) -> None:
        self.pdbs = list(pdbs)
        self.fail_delete = set(fail_delete)
        self.fail_patch = set(fail_patch)
        self.deleted: list[str] = []
        self.patched: list[tuple[str, PodCondition | None, str | None]] = []

    def bind(self, pod: Pod, node_name: str) -> None:
        raise AssertionError("preemption never binds")

    def delete_pod(self, pod: Pod, reason: str = "") -> None:
        if pod.metadata.name in self.fail_delete:
            raise ClientError("delete pod failed")
        self.deleted.append(pod.metadata.name)

    def update_pod_status(
        self,
        pod: Pod,
        *,
        condition: PodCondition | None = None,
        nominated_node_name: str | None = None,
    ) -> Pod:
        if pod.metadata.name in self.fail_patch:
            raise ClientError("patch pod status failed")
        self.patched.append((pod.metadata.name, condition, nominated_node_name))
        status = pod.status
        if condition is not None:
            status = evolve(status, conditions=[*status.conditions, condition])
        if nominated_node_name is not None:
            status = evolve(status, nominated_node_name=nominated_node_name)
        return evolve(pod, status=status)

    def pod_disruption_budgets(self) -> list[PodDisruptionBudget]:
        return self.pdbs

    def namespaces(self) -> list[Namespace]:
        return []


class FakeRecorder:
    def __init__(self) -> None:
        self.events: list[tuple[str, str, str, str, str]] = []

    def event(self, obj: Any, event_type: str, reason: str, action: str, message: str) -> None:
        self.events.append((obj.metadata.name, event_type, reason, action, message))


class FakeNominator:
    def __init__(self, nominated: Mapping[str, Sequence[Pod]]) -> None:
        self.nominated = {node: [PodInfo(p) for p in pods] for node, pods in nominated.items()}

    def add_nominated_pod(self, pod_info: PodInfo, node_name: str) -> None:
        self.nominated.setdefault(node_name, []).append(pod_info)

    def delete_nominated_pod_if_exists(self, pod: Pod) -> None:
        for infos in self.nominated.values():
            infos[:] = [i for i in infos if i.uid != pod.uid]

    def nominated_pods_for_node(self, node_name: str) -> list[PodInfo]:
        return list(self.nominated.get(node_name, []))


class FakeClock:
    def now(self) -> float:
        return 0.0


class FakeWaitingPod:
    def __init__(self, pod: Pod) -> None:
        self._pod = pod
        self.rejected: list[tuple[str, str]] = []

    @property
    def pod(self) -> Pod:
        return self._pod

    def pending_plugins(self) -> list[str]:
        return ["Waiter"]

    def allow(self, plugin: str) -> None:
        raise AssertionError("preemption never allows")

    def reject(self, plugin: str, message: str) -> bool:
        self.rejected.append((plugin, message))
        return True


class FakeHandle:
    """The Handle as DefaultPreemption uses it, over a fixed snapshot.

    `filter_calls` counts the runs of the Filter plugins on one node (upstream's
    NumFilterCalled of a FakeFilter registered first).
    """

    profile_name = "default-scheduler"

    def __init__(
        self,
        nodes: Sequence[Node],
        pods: Sequence[Pod] = (),
        *,
        filters: Sequence[Any] = (),
        extensions: Sequence[Any] = (),
        pdbs: Sequence[PodDisruptionBudget] = (),
        nominated: Mapping[str, Sequence[Pod]] | None = None,
        waiting: Sequence[Pod] = (),
        fail_delete: Iterable[str] = (),
        fail_patch: Iterable[str] = (),
    ) -> None:
        infos = [
            NodeInfo(n, [PodInfo(p) for p in pods if p.spec.node_name == n.metadata.name])
            for n in nodes
        ]
        self.lister = Snapshot(infos)
        self.filters = list(filters) if filters else [FitFilter()]
        self.extensions = list(extensions)
        self.client = FakeClient(pdbs, fail_delete=fail_delete, fail_patch=fail_patch)
        self.event_recorder = FakeRecorder()
        self.nominator = FakeNominator(nominated or {})
        self.waiting = {p.uid: FakeWaitingPod(p) for p in waiting}
        self.filter_calls = 0

    @property
    def clock(self) -> FakeClock:
        return FakeClock()

    def snapshot_shared_lister(self) -> Snapshot:
        return self.lister

    def activate_pods(self, pods: Sequence[Pod]) -> None:
        raise AssertionError("preemption activates no pods")

    def reject_waiting_pod(self, uid: str) -> bool:
        raise AssertionError("preemption rejects waiting pods through the WaitingPod")

    def iterate_over_waiting_pods(self) -> Iterator[FakeWaitingPod]:
        return iter(self.waiting.values())

    def get_waiting_pod(self, uid: str) -> FakeWaitingPod | None:
        return self.waiting.get(uid)

    def _run_extension(
        self, hook: str, title: str, state: CycleState, pod: Pod, info: PodInfo, node: NodeInfo
    ) -> Status | None:
        for ext in self.extensions:
            status = getattr(ext, hook)(state, pod, info, node)
            if not is_success(status):
                return Status.error(
                    f'running {title} on PreFilter plugin "{ext.name}": {status.message}'
                )
        return None

    def run_pre_filter_extension_add_pod(
        self, state: CycleState, pod_to_schedule: Pod, pod_info_to_add: PodInfo, node_info: NodeInfo
    ) -> Status | None:
        return self._run_extension(
            "pre_filter_add_pod", "AddPod", state, pod_to_schedule, pod_info_to_add, node_info
        )

    def run_pre_filter_extension_remove_pod(
        self,
        state: CycleState,
        pod_to_schedule: Pod,
        pod_info_to_remove: PodInfo,
        node_info: NodeInfo,
    ) -> Status | None:
        return self._run_extension(
            "pre_filter_remove_pod",
            "RemovePod",
            state,
            pod_to_schedule,
            pod_info_to_remove,
            node_info,
        )

    def run_filter_plugins(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        self.filter_calls += 1
        for plugin in self.filters:
            status = plugin.filter(state, pod, node_info)
            if status is not None and not status.is_success():
                return status.with_plugin(plugin.name)
        return None

    def run_filter_plugins_with_nominated_pods(
        self, state: CycleState, pod: Pod, node_info: NodeInfo
    ) -> Status | None:
        """Filter with the node's equal-or-higher-priority nominated pods added, then
        (if any were added and that passed) without them, as upstream does."""
        others = [
            p
            for p in self.nominator.nominated_pods_for_node(node_info.name)
            if p.pod.priority >= pod.priority and p.uid != pod.uid
        ]
        if others:
            with_nominated = node_info.snapshot()
            state_with = state.clone()
            for p in others:
                with_nominated.add_pod_info(p)
                status = self.run_pre_filter_extension_add_pod(state_with, pod, p, with_nominated)
                if not is_success(status):
                    return status
            status = self.run_filter_plugins(state_with, pod, with_nominated)
            if not is_success(status):
                return status
        return self.run_filter_plugins(state, pod, node_info)


class QueuedOffsets(random.Random):
    """Stands in for the plugin's random generator: `randrange(n)` hands out the given
    offsets in turn (upstream's tests fix its generator's seed to the same end)."""

    def __new__(cls, *offsets: int) -> QueuedOffsets:
        # Python 3.10's Random.__new__ takes at most a seed; 3.11 ignores a subclass's arguments
        return super().__new__(cls)

    def __init__(self, *offsets: int) -> None:
        super().__init__()
        self.offsets = list(offsets)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        offset = self.offsets.pop(0)
        assert stop is None and 0 <= offset < start
        return offset


def make_plugin(
    nodes: Sequence[Node],
    pods: Sequence[Pod] = (),
    *,
    args: DefaultPreemptionArgs | None = None,
    **handle_options: Any,
) -> tuple[DefaultPreemption, FakeHandle]:
    """A DefaultPreemption over a FakeHandle built from these objects."""
    handle = FakeHandle(nodes, pods, **handle_options)
    return DefaultPreemption(args, handle), handle


def make_pdb(
    name: str = "",
    namespace: str = "default",
    *,
    match_labels: Mapping[str, str] | None = None,
    disruptions_allowed: int = 0,
    disrupted_pods: Iterable[str] = (),
    min_available: int | str | None = None,
) -> PodDisruptionBudget:
    """A PodDisruptionBudget as upstream's MakePDB builds one."""
    return PodDisruptionBudget(
        metadata=ObjectMeta(name=name, namespace=namespace),
        spec=PodDisruptionBudgetSpec(
            selector=LabelSelector(match_labels=dict(match_labels or {})),
            min_available=min_available,
        ),
        status=PodDisruptionBudgetStatus(
            disruptions_allowed=disruptions_allowed,
            disrupted_pods={p: Time.parse("2024-01-01T00:00:00Z") for p in disrupted_pods},
        ),
    )
