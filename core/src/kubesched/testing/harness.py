"""Run one plugin through the real Framework, over a small in-memory cluster.

    harness = PluginHarness(NodeName, nodes=[make_node("n1").obj(), make_node("n2").obj()])
    harness.filter(make_pod("web").node("n1").obj())   # {"n1": None, "n2": Status(...)}

`PluginHarness` puts the plugin, registered in code, in a `Framework` of its
own, so its extension points can be driven in order (PreFilter, Filter,
Score, Reserve, Permit...) with the statuses, normalisation and waiting-pod
machinery the scheduler uses. `run_filter` and `run_score` are one-line
forms of it, and `assert_batch_agrees` holds a plugin's batch hooks equal to
its per-node ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Generic, TypeVar, cast, overload

import numpy as np
from attrs import evolve

from kubesched.api import (
    CSINode,
    Namespace,
    Node,
    PersistentVolume,
    PersistentVolumeClaim,
    Pod,
    StorageClass,
    VolumeAttachment,
    Workload,
)
from kubesched.cluster.memory import InMemoryCluster
from kubesched.cluster.recorder import MemoryEventRecorder
from kubesched.config import DEFAULT_SCHEDULER_NAME
from kubesched.errors import PluginError
from kubesched.features import DEFAULT_FEATURE_GATES, FeatureGates
from kubesched.framework._cycle_state import CycleState
from kubesched.framework._node_table import NodeTable
from kubesched.framework._profile import EffectiveProfile
from kubesched.framework._registry import Registry, hooks_of, points_of
from kubesched.framework._runtime import Framework
from kubesched.framework._status import Code, Status
from kubesched.framework._types import NodeInfo, PostFilterResult, PreFilterResult
from kubesched.scheduler.cache import Cache
from kubesched.scheduler.clock import SimulatedClock
from kubesched.scheduler.nominator import Nominator
from kubesched.scheduler.snapshot import Snapshot
from kubesched.testing._plugin_source import (
    PluginSource,
    _factory_and_name,
    _hook_caller,
    _typed_args,
)

P = TypeVar("P")
"""The plugin's class: `PluginHarness(NodeName).plugin` is a `NodeName`."""


class _Bench:
    """A Framework over an in-memory cluster, its cache and snapshot: what the plugin and
    framework harnesses share."""

    def _build(
        self,
        profile: EffectiveProfile,
        registry: Registry,
        cluster: InMemoryCluster,
        feature_gates: FeatureGates = DEFAULT_FEATURE_GATES,
    ) -> None:
        self.cluster = cluster
        self.clock = SimulatedClock()
        self.cache = Cache()
        for node in cluster.nodes():
            self.cache.add_node(node)
        for pod in cluster.pods():
            if pod.spec.node_name:
                self.cache.add_pod(pod)
        self.snapshot = Snapshot()
        self.activated: list[Pod] = []
        self.framework = Framework(
            profile,
            registry,
            client=cluster,
            snapshot=self.snapshot,
            nominator=Nominator(lambda pod: cluster.get_pod(pod.uid)),
            clock=self.clock,
            event_recorder=MemoryEventRecorder(),
            activate_pods=self.activated.extend,
            feature_gates=feature_gates,
        )
        self.state = CycleState()
        self.new_cycle()

    def new_cycle(self) -> CycleState:
        """Start a scheduling cycle: the snapshot follows the cache, the state is new."""
        self.cache.update_snapshot(self.snapshot)
        self.state = CycleState()
        return self.state

    @property
    def nodes(self) -> Sequence[NodeInfo]:
        """The snapshot's nodes, as plugins see them this cycle."""
        return self.snapshot.node_infos()

    def pre_filter(self, pod: Pod) -> Status | PreFilterResult | None:
        """Every PreFilter plugin: the rejecting status, else the (merged) node narrowing,
        else None."""
        result, status, _ = self.framework.run_pre_filter_plugins(self.state, pod, self.nodes)
        if status is not None and not status.is_success():
            return status
        return result


class PluginHarness(_Bench, Generic[P]):
    """One plugin in a `Framework` of its own, over an in-memory cluster.

    The plugin (a class, or a plugin built already) is enabled at every
    extension point it implements, or only at `points`, with `args`
    structured and validated as a pluginConfig entry would be. Pods in `pods`
    with `spec.nodeName` run on their node, the others are pending (in
    `cluster`, for plugins that list pods); the storage objects, `namespaces`
    and `workloads` (Services, ReplicaSets...) are in `cluster` too, for the
    volume plugins, pod affinity and PodTopologySpread. The framework
    is the plugin's Handle: its client is `cluster`, its clock the simulated
    `clock`, its snapshot `snapshot`; pods it asks to activate are collected in
    `activated`. `hooks` calls the plugin's own hooks by keyword, as pluggy
    does (`harness.hooks.filter_batch(state=..., pod=..., table=...)`).

    Drive a scheduling cycle with the methods named after the extension
    points; they share `state` until `new_cycle()`. `reserve` assumes the pod
    on its node in `cache` first, as the scheduler does, and `unreserve`
    forgets it after; `new_cycle()` brings `snapshot` up to date with `cache`.
    """

    @overload
    def __init__(
        self,
        plugin: type[P],
        args: Any = None,
        *,
        nodes: Iterable[Node] = (),
        pods: Iterable[Pod] = (),
        namespaces: Iterable[Namespace] = (),
        workloads: Iterable[Workload] = (),
        points: Iterable[str] | None = None,
        name: str | None = None,
        persistent_volumes: Iterable[PersistentVolume] = (),
        persistent_volume_claims: Iterable[PersistentVolumeClaim] = (),
        storage_classes: Iterable[StorageClass] = (),
        csi_nodes: Iterable[CSINode] = (),
        volume_attachments: Iterable[VolumeAttachment] = (),
        feature_gates: FeatureGates = DEFAULT_FEATURE_GATES,
    ) -> None: ...

    @overload
    def __init__(
        self,
        plugin: P,
        args: Any = None,
        *,
        nodes: Iterable[Node] = (),
        pods: Iterable[Pod] = (),
        namespaces: Iterable[Namespace] = (),
        workloads: Iterable[Workload] = (),
        points: Iterable[str] | None = None,
        name: str | None = None,
        persistent_volumes: Iterable[PersistentVolume] = (),
        persistent_volume_claims: Iterable[PersistentVolumeClaim] = (),
        storage_classes: Iterable[StorageClass] = (),
        csi_nodes: Iterable[CSINode] = (),
        volume_attachments: Iterable[VolumeAttachment] = (),
        feature_gates: FeatureGates = DEFAULT_FEATURE_GATES,
    ) -> None: ...

    def __init__(
        self,
        plugin: PluginSource,
        args: Any = None,
        *,
        nodes: Iterable[Node] = (),
        pods: Iterable[Pod] = (),
        namespaces: Iterable[Namespace] = (),
        workloads: Iterable[Workload] = (),
        points: Iterable[str] | None = None,
        name: str | None = None,
        persistent_volumes: Iterable[PersistentVolume] = (),
        persistent_volume_claims: Iterable[PersistentVolumeClaim] = (),
        storage_classes: Iterable[StorageClass] = (),
        csi_nodes: Iterable[CSINode] = (),
        volume_attachments: Iterable[VolumeAttachment] = (),
        feature_gates: FeatureGates = DEFAULT_FEATURE_GATES,
    ) -> None:
        factory, self.name = _factory_and_name(plugin, name)
        registry = Registry()
        registry.register(self.name, factory)
        enabled = tuple(points) if points is not None else tuple(points_of(plugin))
        plugin_args = {} if args is None else {self.name: _typed_args(self.name, registry, args)}
        profile = EffectiveProfile(
            DEFAULT_SCHEDULER_NAME,
            plugins={point: (self.name,) for point in enabled},
            plugin_args=plugin_args,
        )
        cluster = InMemoryCluster(
            nodes=nodes,
            pods=pods,
            persistent_volumes=persistent_volumes,
            persistent_volume_claims=persistent_volume_claims,
            storage_classes=storage_classes,
            csi_nodes=csi_nodes,
            volume_attachments=volume_attachments,
            namespaces=namespaces,
            workloads=workloads,
        )
        self._build(profile, registry, cluster, feature_gates)
        self.plugin = cast(P, self.framework.plugins[self.name])
        self.hooks = _hook_caller(self.plugin, self.name)

    def filter(self, pod: Pod) -> dict[str, Status | None]:
        """Filter on every node (after PreFilter, if the plugin has one, in this cycle)."""
        run = self.framework.run_filter_plugins
        return {ni.name: run(self.state, pod, ni) for ni in self.nodes}

    def score(self, pod: Pod, *, normalize: bool = True) -> dict[str, int]:
        """PreScore then Score on every node: normalised scores (the plugin's NormalizeScore,
        range-checked), or with `normalize=False` the Score hook's own values. Empty when
        PreScore skips the plugin; a PluginError when the plugin fails."""
        if "score" not in hooks_of(self.plugin):
            raise PluginError(f"{self.name} has no score hook")
        fw, state = self.framework, self.state
        _raise_on_error(fw.run_pre_score_plugins(state, pod, self.nodes))
        if self.name in state.skip_score_plugins:
            return {}
        if not normalize:
            return {
                ni.name: _raise_on_error(self.hooks.score(state=state, pod=pod, node_info=ni)[0])
                for ni in self.nodes
            }
        table = self.snapshot.node_table
        outcome = fw.run_score_plugins(state, pod, table, np.arange(len(table), dtype=np.intp))
        normalized, _weighted = _raise_on_error(outcome).plugins[self.name]
        return dict(zip(table.names, normalized.tolist(), strict=True))

    def post_filter(
        self, pod: Pod, statuses: Mapping[str, Status] | None = None
    ) -> PostFilterResult | Status | None:
        """PostFilter, given each node's Filter status: the rejecting status, else the result."""
        result, status = self.framework.run_post_filter_plugins(self.state, pod, statuses or {})
        return result if status.is_success() else status

    def reserve(self, pod: Pod, node_name: str) -> Status | None:
        """Assume the pod on the node, as the scheduler does, then Reserve."""
        assumed = _on_node(pod, node_name)
        self.cache.assume_pod(assumed)
        return self.framework.run_reserve_plugins_reserve(self.state, assumed, node_name)

    def unreserve(self, pod: Pod, node_name: str) -> None:
        """Unreserve, then forget the assumed pod."""
        assumed = _on_node(pod, node_name)
        self.framework.run_reserve_plugins_unreserve(self.state, assumed, node_name)
        self.cache.forget_pod(assumed)

    def permit(self, pod: Pod, node_name: str) -> Status | None:
        """Permit; a Wait status means the pod is now in `framework`'s waiting pods."""
        return self.framework.run_permit_plugins(self.state, _on_node(pod, node_name), node_name)

    def advance(self, seconds: float) -> None:
        """Move the clock on; waiting pods whose Permit timeout passed are rejected."""
        self.clock.advance_to(self.clock.now() + seconds)
        for waiting in self.framework.waiting_pods:
            waiting.expire(self.clock.now())


def _on_node(pod: Pod, node_name: str) -> Pod:
    if pod.spec.node_name == node_name:
        return pod
    return evolve(pod, spec=evolve(pod.spec, node_name=node_name))


def _raise_on_error(value: Any) -> Any:
    """`value`, unless it is an Error status: then a PluginError with its message."""
    if isinstance(value, Status) and value.code == Code.ERROR:
        raise PluginError(value.message)
    return value


def run_filter(
    plugin: PluginSource,
    pod: Pod,
    nodes: Iterable[Node],
    args: Any = None,
    *,
    pods: Iterable[Pod] = (),
    namespaces: Iterable[Namespace] = (),
) -> dict[str, Status | None]:
    """Each node's Filter status (None: it fits) after the plugin's PreFilter, if any.

    A PreFilter rejection is every node's status, as the scheduler reports it.
    """
    harness = PluginHarness(plugin, args, nodes=nodes, pods=pods, namespaces=namespaces)
    rejected = _pre_filter_rejection(harness, pod)
    if rejected is not None:
        return dict.fromkeys((ni.name for ni in harness.nodes), rejected)
    return harness.filter(pod)


def run_score(
    plugin: PluginSource,
    pod: Pod,
    nodes: Iterable[Node],
    args: Any = None,
    *,
    pods: Iterable[Pod] = (),
    namespaces: Iterable[Namespace] = (),
    normalize: bool = True,
) -> dict[str, int]:
    """Each node's score after PreScore (see `PluginHarness.score`)."""
    harness = PluginHarness(plugin, args, nodes=nodes, pods=pods, namespaces=namespaces)
    return harness.score(pod, normalize=normalize)


def _pre_filter_rejection(harness: PluginHarness[Any], pod: Pod) -> Status | None:
    outcome = harness.pre_filter(pod)
    if isinstance(outcome, Status):
        _raise_on_error(outcome)
        return outcome
    return None


def assert_batch_agrees(
    plugin: PluginSource,
    pod: Pod,
    nodes: Iterable[Node],
    args: Any = None,
    *,
    pods: Iterable[Pod] = (),
    namespaces: Iterable[Namespace] = (),
) -> None:
    """Assert that the plugin's batch forms give what its per-node forms give, node by node.

    `filter_batch`'s mask must be True exactly where `filter` passes, and
    `score_batch` must equal `score` (before NormalizeScore), after PreFilter
    and PreScore as the scheduler runs them. Nothing is compared when PreFilter
    rejects the pod or skips the plugin. AssertionError naming the nodes that
    disagree; also when the plugin has no batch form.
    """
    harness = PluginHarness(plugin, args, nodes=nodes, pods=pods, namespaces=namespaces)
    implemented = hooks_of(harness.plugin)
    if not implemented & {"filter_batch", "score_batch"}:
        raise AssertionError(f"{harness.name} has no filter_batch or score_batch hook")
    if _pre_filter_rejection(harness, pod) is not None:
        return
    table = harness.snapshot.node_table
    if "filter_batch" in implemented and harness.name not in harness.state.skip_filter_plugins:
        mask = harness.hooks.filter_batch(state=harness.state, pod=pod, table=table)[0]
        passes = {name: status is None for name, status in harness.filter(pod).items()}
        batch = dict(zip(table.names, np.asarray(mask, dtype=bool).tolist(), strict=True))
        _assert_same(harness.name, "filter_batch", batch, "filter", passes)
        if "filter_batch_reasons" in implemented:
            _assert_reasons_agree(harness, pod, table, batch)
    if "score_batch" in implemented:
        per_node = harness.score(pod, normalize=False)
        if harness.name in harness.state.skip_score_plugins:
            return
        rows = np.arange(len(table), dtype=np.intp)
        scores = harness.hooks.score_batch(state=harness.state, pod=pod, table=table, rows=rows)[0]
        batch = dict(zip(table.names, np.asarray(scores).tolist(), strict=True))
        _assert_same(harness.name, "score_batch", batch, "score", per_node)


def _assert_reasons_agree(
    harness: PluginHarness[Any], pod: Pod, table: NodeTable, passes: Mapping[str, bool]
) -> None:
    """`filter_batch_reasons` on the rows `filter_batch` rejected gives, row by row, the
    code and reasons `filter` gives."""
    rejected = [table.index[name] for name in table.names if not passes[name]]
    rows = np.asarray(rejected, dtype=np.intp)
    found = harness.hooks.filter_batch_reasons(
        state=harness.state, pod=pod, table=table, rows=rows
    )[0]
    per_node = harness.filter(pod)

    def shown(status: Status | None) -> tuple[str, tuple[str, ...]] | None:
        return None if status is None else (status.code.name, tuple(status.reasons))

    batch = {table.names[r]: shown(s) for r, s in zip(rejected, list(found), strict=True)}
    expected = {table.names[r]: shown(per_node[table.names[r]]) for r in rejected}
    _assert_same(harness.name, "filter_batch_reasons", batch, "filter", expected)


def _assert_same(
    plugin: str, batch_hook: str, batch: Mapping[str, Any], hook: str, per_node: Mapping[str, Any]
) -> None:
    differ = [name for name in per_node if batch.get(name) != per_node[name]]
    if differ:
        lines = [f"  {n}: {batch_hook} {batch.get(n)!r}, {hook} {per_node[n]!r}" for n in differ]
        heading = f"{plugin}: {batch_hook} disagrees with {hook} on"
        raise AssertionError("\n".join([heading, *lines]))
