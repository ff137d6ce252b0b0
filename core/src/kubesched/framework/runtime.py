"""Framework: one profile's plugins, compiled into call plans and run with upstream's semantics.

Construction loads every enabled plugin from the registry, builds it with its
args, registers it with pluggy (which validates its hookimpls against the
hookspecs) and compiles one ordered call plan per hook. Every run_* method
follows upstream's framework runtime: short-circuit rules, Skip, statuses
tagged with the plugin, and a plugin that raises or returns the wrong type
becomes an Error status naming it; the framework itself never raises for a
plugin's fault.

The Framework is also the Handle plugins receive.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol, overload

import numpy as np
import pluggy
from attrs import define, field
from numpy.typing import NDArray

from kubesched.api import Pod
from kubesched.errors import KubeschedError, PluginError
from kubesched.framework import hookspecs
from kubesched.framework.cycle_state import CycleState
from kubesched.framework.events import WILDCARD_EVENT, ClusterEventWithHint
from kubesched.framework.interface import (
    Clock,
    ClusterClient,
    EventRecorder,
    PodNominator,
    SharedLister,
)
from kubesched.framework.node_table import NodeTable
from kubesched.framework.plans import PluginCall, compile_plan
from kubesched.framework.profile import POINT_TITLES, EffectiveProfile
from kubesched.framework.registry import Registry, implements
from kubesched.framework.status import Code, Status
from kubesched.framework.types import (
    MAX_NODE_SCORE,
    MAX_TOTAL_SCORE,
    MIN_NODE_SCORE,
    NodeInfo,
    NodeScoreList,
    PodInfo,
    PostFilterResult,
    PreFilterResult,
    QueuedPodInfo,
)
from kubesched.framework.waiting_pods import MAX_PERMIT_TIMEOUT, WaitingPod, WaitingPodsMap

_EVENT_POINTS = ("preEnqueue", "preFilter", "filter", "reserve", "permit")
"""Upstream honours EnqueueExtensions only for plugins at these points."""


class MetricsRecorder(Protocol):
    """Receives durations for upstream's framework metrics."""

    def observe_extension_point(
        self, point: str, status: str, profile: str, seconds: float
    ) -> None: ...

    def observe_plugin(self, plugin: str, point: str, status: str, seconds: float) -> None: ...


class _SystemClock:
    def now(self) -> float:
        return time.monotonic()


@define
class FilterOutcome:
    """What Filter found: feasible rows in visiting order and the rejected nodes' statuses.

    `error` is set when a plugin failed (not rejected): the cycle must stop.
    """

    rows: NDArray[np.intp]
    statuses: dict[str, Status] = field(factory=dict)
    processed: int = 0
    error: Status | None = None


@define
class ScoreOutcome:
    """Per-node totals (aligned with the scored rows) and each plugin's normalized and weighted
    scores."""

    totals: NDArray[np.int64]
    plugins: dict[str, tuple[NDArray[np.int64], NDArray[np.int64]]] = field(factory=dict)


def _q(text: str) -> str:
    """Go's %q for plain names: the text in double quotes (upstream's messages use it)."""
    return f'"{text}"'


def _bad_return(plugin: str, hook: str, value: object) -> Status:
    return Status.error(
        f"plugin {_q(plugin)} returned {type(value).__name__} from {hook}, "
        "expected a Status or None",
        plugin=plugin,
    )


def _raised(plugin: str, hook: str, exc: BaseException) -> Status:
    return Status.error(
        f"plugin {_q(plugin)} raised {type(exc).__name__} in {hook}: {exc}", plugin=plugin
    )


def _as_status(value: object, plugin: str, hook: str) -> Status | None:
    """Check a hook's return: None or a Status, anything else is an Error naming the plugin."""
    if value is None or type(value) is Status:
        return value
    return _bad_return(plugin, hook, value)


def _wrap_error(message: str, status: Status, plugin: str) -> Status:
    """Upstream's AsStatus(fmt.Errorf(message + ": %w", status.AsError())).WithPlugin(plugin)."""
    return Status(Code.ERROR, f"{message}: {status.message()}", plugin=plugin, err=status.err)


class _RowNames(Sequence[str]):
    """The node names of some table rows, looked up on access (NormalizeScore's `names`)."""

    __slots__ = ("_names", "_rows")

    def __init__(self, names: Sequence[str], rows: NDArray[np.intp]) -> None:
        self._names = names
        self._rows = rows

    def __len__(self) -> int:
        return len(self._rows)

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> list[str]: ...

    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self._names[r] for r in self._rows[i].tolist()]
        return self._names[int(self._rows[i])]


class Framework:
    """The runtime of one profile; also the Handle its plugins hold."""

    def __init__(
        self,
        profile: EffectiveProfile,
        registry: Registry,
        *,
        client: ClusterClient | None = None,
        snapshot: SharedLister | None = None,
        nominator: PodNominator | None = None,
        clock: Clock | None = None,
        event_recorder: EventRecorder | None = None,
        activate_pods: Callable[[Sequence[Pod]], None] | None = None,
        metrics: MetricsRecorder | None = None,
        waiting_pods: WaitingPodsMap | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self._profile = profile
        self._rng = rng if rng is not None else random.Random(0)
        self._client = client
        self._snapshot = snapshot
        self._nominator = nominator
        self._clock: Clock = clock if clock is not None else _SystemClock()
        self._event_recorder = event_recorder
        self._activate_pods = activate_pods
        self._metrics = metrics
        self.waiting_pods = waiting_pods if waiting_pods is not None else WaitingPodsMap()
        self._pm = pluggy.PluginManager(hookspecs.PROJECT_NAME)
        self._pm.add_hookspecs(hookspecs)
        self.plugins: dict[str, object] = {}
        for name in profile.enabled():
            self._build_plugin(name, registry)
        self._compile()

    # -- construction ------------------------------------------------------------------

    def _where(self, name: str, registry: Registry) -> str:
        source = registry.get(name).describe() if name in registry else "not installed"
        return f'plugin "{name}" ({source}) in profile "{self.profile_name}"'

    def _build_plugin(self, name: str, registry: Registry) -> None:
        try:
            factory = registry.load(name)
        except PluginError as exc:
            raise PluginError(f'{exc} (enabled in profile "{self.profile_name}")') from exc
        try:
            plugin = factory(self._profile.plugin_args.get(name), self)
        except KubeschedError as exc:
            raise PluginError(f"initializing {self._where(name, registry)}: {exc}") from exc
        except Exception as exc:
            raise PluginError(
                f"initializing {self._where(name, registry)}: {type(exc).__name__}: {exc}"
            ) from exc
        for point, names in self._profile.plugins.items():
            if name in names and not implements(plugin, point):
                raise PluginError(
                    f"{self._where(name, registry)} does not extend {POINT_TITLES[point]} plugin"
                )
        try:
            self._pm.register(plugin, name=name)
            self._pm.check_pending()
        except (pluggy.PluginValidationError, ValueError) as exc:
            raise PluginError(f"{self._where(name, registry)}: {exc}") from exc
        self.plugins[name] = plugin

    def _plan(self, point: str, hook: str) -> tuple[PluginCall, ...]:
        return compile_plan(self._pm, hook, self._profile.plugins.get(point, ()))

    def _compile(self) -> None:
        plan = self._plan
        self._pre_enqueue = plan("preEnqueue", "pre_enqueue")
        queue_sort = plan("queueSort", "queue_sort_less")
        self._queue_sort = queue_sort[0] if queue_sort else None
        self._pre_filter = plan("preFilter", "pre_filter")
        self._add_pod = plan("preFilter", "pre_filter_add_pod")
        self._remove_pod = plan("preFilter", "pre_filter_remove_pod")
        self._filter = plan("filter", "filter")
        batch = {c.plugin: c.fn for c in plan("filter", "filter_batch")}
        self._filter_batch = tuple(batch.get(c.plugin) for c in self._filter)
        self._post_filter = plan("postFilter", "post_filter")
        self._pre_score = plan("preScore", "pre_score")
        self._score = plan("score", "score")
        self._score_batch = {c.plugin: c.fn for c in plan("score", "score_batch")}
        self._normalize = {c.plugin: c.fn for c in plan("score", "normalize_score")}
        self._weights = {
            c.plugin: self._profile.score_weights.get(c.plugin, 1) or 1 for c in self._score
        }
        if sum(self._weights.values()) * MAX_NODE_SCORE > MAX_TOTAL_SCORE:
            raise PluginError("total score of Score plugins could overflow")
        self._reserve = plan("reserve", "reserve")
        self._unreserve = plan("reserve", "unreserve")
        self._permit = plan("permit", "permit")
        self._pre_bind = plan("preBind", "pre_bind")
        self._bind = plan("bind", "bind")
        self._post_bind = plan("postBind", "post_bind")

    # -- Handle ------------------------------------------------------------------------

    @property
    def profile_name(self) -> str:
        return self._profile.scheduler_name

    @property
    def profile(self) -> EffectiveProfile:
        return self._profile

    @property
    def percentage_of_nodes_to_score(self) -> int | None:
        return self._profile.percentage_of_nodes_to_score

    @property
    def client(self) -> ClusterClient:
        if self._client is None:
            raise KubeschedError("this framework has no cluster client")
        return self._client

    @property
    def event_recorder(self) -> EventRecorder:
        if self._event_recorder is None:
            raise KubeschedError("this framework has no event recorder")
        return self._event_recorder

    @property
    def nominator(self) -> PodNominator:
        if self._nominator is None:
            raise KubeschedError("this framework has no pod nominator")
        return self._nominator

    @property
    def clock(self) -> Clock:
        return self._clock

    @property
    def rng(self) -> random.Random:
        """A seeded random source (the scheduler's `--seed`), for plugins that sample."""
        return self._rng

    def snapshot_shared_lister(self) -> SharedLister:
        if self._snapshot is None:
            raise KubeschedError("this framework has no snapshot")
        return self._snapshot

    def set_snapshot(self, snapshot: SharedLister) -> None:
        self._snapshot = snapshot

    def activate_pods(self, pods: Sequence[Pod]) -> None:
        if self._activate_pods is not None:
            self._activate_pods(pods)

    def iterate_over_waiting_pods(self) -> Iterator[WaitingPod]:
        return iter(self.waiting_pods)

    def get_waiting_pod(self, uid: str) -> WaitingPod | None:
        return self.waiting_pods.get(uid)

    def reject_waiting_pod(self, uid: str) -> bool:
        wp = self.waiting_pods.get(uid)
        if wp is None:
            return False
        wp.reject("", "removed")
        return True

    def has_filter_plugins(self) -> bool:
        return bool(self._filter)

    def has_score_plugins(self) -> bool:
        return bool(self._score)

    def has_post_filter_plugins(self) -> bool:
        return bool(self._post_filter)

    # -- metrics -----------------------------------------------------------------------

    def _observe(self, point: str, status: Status | None, start: float) -> None:
        if self._metrics is not None:
            code = str(status.code) if status is not None else "Success"
            self._metrics.observe_extension_point(
                point, code, self.profile_name, time.perf_counter() - start
            )

    def _observe_plugin(
        self, state: CycleState, plugin: str, point: str, status: Status | None, start: float
    ) -> None:
        if self._metrics is not None and state.record_plugin_metrics:
            code = str(status.code) if status is not None else "Success"
            self._metrics.observe_plugin(plugin, point, code, time.perf_counter() - start)

    # -- queue -------------------------------------------------------------------------

    def queue_sort_less(self, a: QueuedPodInfo, b: QueuedPodInfo) -> bool:
        """The profile's QueueSort (`a` before `b`)."""
        if self._queue_sort is None:
            raise PluginError(f'no queue sort plugin in profile "{self.profile_name}"')
        return bool(self._queue_sort.fn(a, b))

    def run_pre_enqueue_plugins(self, pod: Pod) -> Status | None:
        """Every PreEnqueue plugin in order; the first non-success, with its plugin."""
        for call in self._pre_enqueue:
            try:
                status = _as_status(call.fn(pod), call.plugin, "pre_enqueue")
            except Exception as exc:
                status = _raised(call.plugin, "pre_enqueue", exc)
            if status is None or status.code == Code.SUCCESS:
                continue
            if status.is_rejected():
                return status.with_plugin(call.plugin)
            return _wrap_error(f"running PreEnqueue plugin {_q(call.plugin)}", status, call.plugin)
        return None

    def events_to_register(self) -> dict[str, list[ClusterEventWithHint]]:
        """Per plugin at PreEnqueue/PreFilter/Filter/Reserve/Permit, the events that may
        requeue a pod it rejected; a plugin that registers none gets every event."""
        out: dict[str, list[ClusterEventWithHint]] = {}
        for point in _EVENT_POINTS:
            for name in self._profile.plugins.get(point, ()):
                if name in out:
                    continue
                plugin = self.plugins[name]
                register = getattr(plugin, "events_to_register", None)
                events: list[ClusterEventWithHint] = [ClusterEventWithHint(WILDCARD_EVENT)]
                if register is not None:
                    try:
                        events = list(register())
                    except Exception:
                        events = [ClusterEventWithHint(WILDCARD_EVENT)]
                out[name] = events
        return out

    # -- PreFilter ---------------------------------------------------------------------

    def run_pre_filter_plugins(
        self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> tuple[PreFilterResult | None, Status | None, set[str]]:
        """Every PreFilter plugin in order (upstream's RunPreFilterPlugins).

        Returns the merged node narrowing, the status (UnschedulableAndUnresolvable stops at
        once; Unschedulable lets the rest run) and the plugins that narrowed the nodes.
        """
        start = time.perf_counter()
        result: PreFilterResult | None = None
        plugins_with_nodes: set[str] = set()
        skip: set[str] = set()
        returned: Status | None = None
        for call in self._pre_filter:
            t0 = time.perf_counter()
            try:
                value = call.fn(state, pod, nodes)
            except Exception as exc:
                value = _raised(call.plugin, "pre_filter", exc)
            status: Status | None
            narrowed: PreFilterResult | None = None
            if isinstance(value, PreFilterResult):
                status, narrowed = None, value
            else:
                status = _as_status(value, call.plugin, "pre_filter")
            self._observe_plugin(state, call.plugin, "PreFilter", status, t0)
            if status is not None and status.code == Code.SKIP:
                skip.add(call.plugin)
                continue
            if status is not None and status.code != Code.SUCCESS:
                status.with_plugin(call.plugin)
                if status.code == Code.UNSCHEDULABLE_AND_UNRESOLVABLE:
                    state.skip_filter_plugins = skip
                    self._observe("PreFilter", status, start)
                    return None, status, plugins_with_nodes
                if status.code == Code.UNSCHEDULABLE:
                    returned = status
                    continue
                error = _wrap_error(
                    f"running PreFilter plugin {_q(call.plugin)}", status, call.plugin
                )
                self._observe("PreFilter", error, start)
                return None, error, plugins_with_nodes
            if narrowed is None or narrowed.all_nodes():
                continue
            plugins_with_nodes.add(call.plugin)
            result = narrowed if result is None else result.merge(narrowed)
            if result.node_names is not None and not result.node_names:
                names = sorted(plugins_with_nodes)
                if len(names) == 1:
                    msg = f"node(s) didn't satisfy plugin {names[0]}"
                else:
                    msg = f"node(s) didn't satisfy plugin(s) [{' '.join(names)}] simultaneously"
                state.skip_filter_plugins = skip
                status = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, msg)
                self._observe("PreFilter", status, start)
                return result, status, plugins_with_nodes
        state.skip_filter_plugins = skip
        self._observe("PreFilter", returned, start)
        return result, returned, plugins_with_nodes

    def _run_extension(
        self,
        plan: tuple[PluginCall, ...],
        hook: str,
        label: str,
        state: CycleState,
        pod: Pod,
        pod_info: PodInfo,
        node_info: NodeInfo,
    ) -> Status | None:
        for call in plan:
            if call.plugin in state.skip_filter_plugins:
                continue
            try:
                status = _as_status(call.fn(state, pod, pod_info, node_info), call.plugin, hook)
            except Exception as exc:
                status = _raised(call.plugin, hook, exc)
            if status is not None and status.code != Code.SUCCESS:
                return _wrap_error(
                    f"running {label} on PreFilter plugin {_q(call.plugin)}", status, call.plugin
                )
        return None

    def run_pre_filter_extension_add_pod(
        self, state: CycleState, pod_to_schedule: Pod, pod_info_to_add: PodInfo, node_info: NodeInfo
    ) -> Status | None:
        """Every PreFilter plugin's AddPod: update the state as if the pod ran on the node."""
        return self._run_extension(
            self._add_pod,
            "pre_filter_add_pod",
            "AddPod",
            state,
            pod_to_schedule,
            pod_info_to_add,
            node_info,
        )

    def run_pre_filter_extension_remove_pod(
        self,
        state: CycleState,
        pod_to_schedule: Pod,
        pod_info_to_remove: PodInfo,
        node_info: NodeInfo,
    ) -> Status | None:
        """Every PreFilter plugin's RemovePod: update the state as if the pod were gone."""
        return self._run_extension(
            self._remove_pod,
            "pre_filter_remove_pod",
            "RemovePod",
            state,
            pod_to_schedule,
            pod_info_to_remove,
            node_info,
        )

    # -- Filter ------------------------------------------------------------------------

    def _filter_status(self, plugin: str, value: object) -> Status | None:
        """Normalise one Filter result: rejections keep their code, anything else is an Error."""
        status = _as_status(value, plugin, "filter")
        if status is None or status.code == Code.SUCCESS:
            return None
        if not status.is_rejected():
            status = _wrap_error(f"running {_q(plugin)} filter plugin", status, plugin)
        return status.with_plugin(plugin)

    def run_filter_plugins(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        """Every Filter plugin in order on one node; the first rejection or error wins."""
        skip = state.skip_filter_plugins
        for call in self._filter:
            if call.plugin in skip:
                continue
            try:
                value = call.fn(state, pod, node_info)
            except Exception as exc:
                return _raised(call.plugin, "filter", exc)
            if value is not None:
                status = self._filter_status(call.plugin, value)
                if status is not None:
                    return status
        return None

    def _add_nominated_pods(
        self, state: CycleState, pod: Pod, node_info: NodeInfo
    ) -> tuple[bool, CycleState, NodeInfo, Status | None]:
        """Upstream's addGENominatedPods: nominated pods of >= priority added to copies."""
        if self._nominator is None:
            return False, state, node_info, None
        nominated = self._nominator.nominated_pods_for_node(node_info.name)
        if not nominated:
            return False, state, node_info, None
        node_out = node_info.snapshot()
        state_out = state.clone()
        added = False
        priority = pod.priority
        for pi in nominated:
            if pi.pod.priority >= priority and pi.uid != pod.metadata.uid:
                node_out.add_pod_info(pi)
                status = self.run_pre_filter_extension_add_pod(state_out, pod, pi, node_out)
                if status is not None:
                    return False, state, node_info, status
                added = True
        return added, state_out, node_out, None

    def run_filter_plugins_with_nominated_pods(
        self, state: CycleState, pod: Pod, node_info: NodeInfo
    ) -> Status | None:
        """Filter with higher-or-equal-priority nominated pods counted, then (if that passed
        and any were added) without them: both must pass."""
        added, state_with, node_with, error = self._add_nominated_pods(state, pod, node_info)
        if error is not None:
            return error
        status = self.run_filter_plugins(state_with, pod, node_with)
        if status is not None and not status.is_rejected():
            return status
        if added and status is None:
            status = self.run_filter_plugins(state, pod, node_info)
        return status

    def candidate_rows(
        self, table: NodeTable, pre_filter_result: PreFilterResult | None
    ) -> NDArray[np.intp]:
        """The table rows Filter should visit: all, or those PreFilter narrowed to."""
        if pre_filter_result is None or pre_filter_result.node_names is None:
            return np.arange(len(table), dtype=np.intp)
        index = table.index
        return np.array(
            sorted(index[n] for n in pre_filter_result.node_names if n in index), dtype=np.intp
        )

    def find_feasible_nodes(
        self,
        state: CycleState,
        pod: Pod,
        table: NodeTable,
        *,
        rows: NDArray[np.intp] | None = None,
        start: int = 0,
        num_to_find: int | None = None,
    ) -> FilterOutcome:
        """Visit `rows` (default: all) from `start`, round robin, until `num_to_find` nodes pass.

        Batch Filter forms compute masks over the whole table; the per-node form is asked only
        for the reasons of the rejected nodes it reports, and for nodes with nominated pods.
        """
        t0 = time.perf_counter()
        if rows is None:
            rows = np.arange(len(table), dtype=np.intp)
        n = len(rows)
        offset = start % n if n else 0
        order = np.concatenate((rows[offset:], rows[:offset])) if offset else rows
        limit = n if num_to_find is None else min(num_to_find, n)
        active = [
            (call, batch)
            for call, batch in zip(self._filter, self._filter_batch, strict=True)
            if call.plugin not in state.skip_filter_plugins
        ]
        if not active:
            outcome = FilterOutcome(rows=order[:limit], processed=limit)
        else:
            outcome = self._filter_rows(state, pod, table, order, limit, active)
        self._observe("Filter", outcome.error, t0)
        return outcome

    def _nominated_rows(self, table: NodeTable) -> set[int]:
        nominator = self._nominator
        if nominator is None:
            return set()
        names_fn = getattr(nominator, "nominated_node_names", None)
        names: Any = names_fn() if names_fn is not None else table.names
        index = table.index
        return {
            index[name]
            for name in names
            if name in index and nominator.nominated_pods_for_node(name)
        }

    def _filter_rows(
        self,
        state: CycleState,
        pod: Pod,
        table: NodeTable,
        order: NDArray[np.intp],
        limit: int,
        active: list[tuple[PluginCall, Any]],
    ) -> FilterOutcome:
        masks: dict[int, NDArray[np.bool_]] = {}
        for j, (call, batch) in enumerate(active):
            if batch is None:
                continue
            t0 = time.perf_counter()
            try:
                mask = np.asarray(batch(state, pod, table), dtype=bool)
            except Exception as exc:
                return FilterOutcome(
                    rows=order[:0], error=_raised(call.plugin, "filter_batch", exc)
                )
            self._observe_plugin(state, call.plugin, "Filter", None, t0)
            if mask.shape != (len(table),):
                error = Status.error(
                    f"plugin {_q(call.plugin)} returned a filter_batch mask of shape {mask.shape}, "
                    f"expected ({len(table)},)",
                    plugin=call.plugin,
                )
                return FilterOutcome(rows=order[:0], error=error)
            masks[j] = mask
        special = self._nominated_rows(table)
        if len(masks) == len(active) and not special:
            return self._filter_vectorized(state, pod, table, order, limit, active, masks)
        return self._filter_per_node(state, pod, table, order, limit, active, masks, special)

    def _batch_reason(
        self, state: CycleState, pod: Pod, call: PluginCall, node_info: NodeInfo
    ) -> Status:
        """The per-node reason for a node a batch form rejected (they must agree)."""
        try:
            status = self._filter_status(call.plugin, call.fn(state, pod, node_info))
        except Exception as exc:
            return _raised(call.plugin, "filter", exc)
        if status is None:
            return Status.error(
                f"plugin {_q(call.plugin)}: filter_batch rejected node {_q(node_info.name)} "
                "but filter accepts it",
                plugin=call.plugin,
            )
        return status

    def _filter_vectorized(
        self,
        state: CycleState,
        pod: Pod,
        table: NodeTable,
        order: NDArray[np.intp],
        limit: int,
        active: list[tuple[PluginCall, Any]],
        masks: dict[int, NDArray[np.bool_]],
    ) -> FilterOutcome:
        alive = masks[0].copy()
        for j in range(1, len(active)):
            alive &= masks[j]
        flags = alive[order]
        processed = len(order)
        if limit < len(order):
            found = np.flatnonzero(flags)
            if len(found) >= limit:
                processed = int(found[limit - 1]) + 1 if limit > 0 else 0
        visited = order[:processed]
        outcome = FilterOutcome(rows=visited[flags[:processed]], processed=processed)
        for r in visited[~flags[:processed]]:
            row = int(r)
            j = next(j for j in range(len(active)) if not masks[j][row])
            status = self._batch_reason(state, pod, active[j][0], table.node_infos[row])
            if not status.is_rejected():
                outcome.error = status
                outcome.rows = order[:0]
                return outcome
            outcome.statuses[table.names[row]] = status
        return outcome

    def _filter_per_node(
        self,
        state: CycleState,
        pod: Pod,
        table: NodeTable,
        order: NDArray[np.intp],
        limit: int,
        active: list[tuple[PluginCall, Any]],
        masks: dict[int, NDArray[np.bool_]],
        special: set[int],
    ) -> FilterOutcome:
        if not masks and not special:
            return self._filter_plain(state, pod, table, order, limit, active)
        feasible: list[int] = []
        statuses: dict[str, Status] = {}
        processed = 0
        node_infos = table.node_infos
        for r in order.tolist():
            if len(feasible) >= limit:
                break
            processed += 1
            node_info = node_infos[r]
            status: Status | None = None
            if r in special:
                status = self.run_filter_plugins_with_nominated_pods(state, pod, node_info)
            else:
                for j, (call, _batch) in enumerate(active):
                    mask = masks.get(j)
                    if mask is not None:
                        if mask[r]:
                            continue
                        status = self._batch_reason(state, pod, call, node_info)
                        break
                    try:
                        value = call.fn(state, pod, node_info)
                    except Exception as exc:
                        status = _raised(call.plugin, "filter", exc)
                        break
                    if value is not None:
                        status = self._filter_status(call.plugin, value)
                        if status is not None:
                            break
            if status is None:
                feasible.append(r)
            elif status.is_rejected():
                statuses[node_info.name] = status
            else:
                return FilterOutcome(
                    rows=order[:0], statuses=statuses, processed=processed, error=status
                )
        return FilterOutcome(
            rows=np.array(feasible, dtype=np.intp), statuses=statuses, processed=processed
        )

    def _filter_plain(
        self,
        state: CycleState,
        pod: Pod,
        table: NodeTable,
        order: NDArray[np.intp],
        limit: int,
        active: list[tuple[PluginCall, Any]],
    ) -> FilterOutcome:
        """Per-node Filter only (no batch forms, no nominated pods): the tight loop."""
        fns = [call.fn for call, _batch in active]
        plugin_of = {id(call.fn): call.plugin for call, _batch in active}
        rows = order.tolist()
        nodes = map(table.node_infos.__getitem__, rows)
        feasible: list[int] = []
        statuses: dict[str, Status] = {}
        processed = 0
        fn: Any = None
        try:
            for processed, node_info in enumerate(nodes, 1):
                for fn in fns:
                    value = fn(state, pod, node_info)
                    if value is not None:
                        status = self._filter_status(plugin_of[id(fn)], value)
                        if status is not None:
                            break
                else:
                    feasible.append(rows[processed - 1])
                    if len(feasible) >= limit:
                        break
                    continue
                if not status.is_rejected():
                    return FilterOutcome(order[:0], statuses, processed, error=status)
                statuses[node_info.name] = status
        except Exception as exc:
            plugin = plugin_of.get(id(fn), "")
            return FilterOutcome(order[:0], statuses, processed, _raised(plugin, "filter", exc))
        return FilterOutcome(np.array(feasible, dtype=np.intp), statuses, processed)

    # -- PostFilter --------------------------------------------------------------------

    def run_post_filter_plugins(
        self, state: CycleState, pod: Pod, filtered_node_status_map: Mapping[str, Status]
    ) -> tuple[PostFilterResult | None, Status]:
        """PostFilter plugins in order until one succeeds, is unresolvable or errs."""
        start = time.perf_counter()
        result: PostFilterResult | None = None
        reasons: list[str] = []
        rejector = ""
        for call in self._post_filter:
            try:
                value = call.fn(state, pod, filtered_node_status_map)
            except Exception as exc:
                value = _raised(call.plugin, "post_filter", exc)
            outcome: PostFilterResult | None = None
            if isinstance(value, PostFilterResult):
                status: Status | None = None
                outcome = value
            else:
                status = _as_status(value, call.plugin, "post_filter")
            if status is None or status.code == Code.SUCCESS:
                final = Status(Code.SUCCESS)
                self._observe("PostFilter", final, start)
                return outcome, final
            if status.code == Code.UNSCHEDULABLE_AND_UNRESOLVABLE:
                self._observe("PostFilter", status, start)
                return outcome, status.with_plugin(call.plugin)
            if not status.is_rejected():
                error = Status(Code.ERROR, *status.reasons, plugin=call.plugin, err=status.err)
                self._observe("PostFilter", error, start)
                return None, error
            reasons.extend(status.reasons)
            rejector = rejector or call.plugin
        final = Status(Code.UNSCHEDULABLE, *reasons, plugin=rejector)
        self._observe("PostFilter", final, start)
        return result, final

    # -- Score -------------------------------------------------------------------------

    def run_pre_score_plugins(
        self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> Status | None:
        """Every PreScore plugin; Skip skips that plugin's Score, anything else fails."""
        start = time.perf_counter()
        skip: set[str] = set()
        try:
            for call in self._pre_score:
                try:
                    status = _as_status(call.fn(state, pod, nodes), call.plugin, "pre_score")
                except Exception as exc:
                    status = _raised(call.plugin, "pre_score", exc)
                if status is None or status.code == Code.SUCCESS:
                    continue
                if status.code == Code.SKIP:
                    skip.add(call.plugin)
                    continue
                error = _wrap_error(
                    f"running PreScore plugin {_q(call.plugin)}", status, call.plugin
                )
                self._observe("PreScore", error, start)
                return error
        finally:
            state.skip_score_plugins = skip
        self._observe("PreScore", None, start)
        return None

    def _raw_scores(
        self,
        state: CycleState,
        pod: Pod,
        table: NodeTable,
        rows: NDArray[np.intp],
        nodes: list[NodeInfo],
        call: PluginCall,
    ) -> NDArray[np.int64] | Status:
        batch = self._score_batch.get(call.plugin)
        if batch is not None:
            try:
                scores = np.asarray(batch(state, pod, table, rows), dtype=np.int64)
            except Exception as exc:
                return _raised(call.plugin, "score_batch", exc)
            if scores.shape != (len(rows),):
                return Status.error(
                    f"plugin {_q(call.plugin)} returned {scores.shape} scores "
                    f"for {len(rows)} nodes",
                    plugin=call.plugin,
                )
            return scores
        fn = call.fn
        try:
            values = [fn(state, pod, node_info) for node_info in nodes]
        except Exception as exc:
            return _raised(call.plugin, "score", exc)
        try:
            return np.fromiter(values, dtype=np.int64, count=len(values))
        except (TypeError, ValueError, OverflowError):
            pass
        for value in values:
            if isinstance(value, Status):
                return value
        bad = next((v for v in values if not isinstance(v, (int, float, np.number))), None)
        if bad is None:
            return Status.error(
                f"plugin {_q(call.plugin)} returned a score outside the int64 range",
                plugin=call.plugin,
            )
        return Status.error(
            f"plugin {_q(call.plugin)} returned {type(bad).__name__} from score, "
            "expected an int or a Status",
            plugin=call.plugin,
        )

    def run_score_plugins(
        self, state: CycleState, pod: Pod, table: NodeTable, rows: NDArray[np.intp]
    ) -> ScoreOutcome | Status:
        """Score, NormalizeScore, range check and weights, over `rows` (upstream's
        RunScorePlugins); an error Status when any plugin fails."""
        start = time.perf_counter()
        calls = [c for c in self._score if c.plugin not in state.skip_score_plugins]
        raw: dict[str, NDArray[np.int64]] = {}
        nodes = list(map(table.node_infos.__getitem__, rows.tolist()))
        for call in calls:
            t0 = time.perf_counter()
            scores = self._raw_scores(state, pod, table, rows, nodes, call)
            if isinstance(scores, Status):
                error = Status(
                    Code.ERROR,
                    f"running Score plugins: plugin {_q(call.plugin)} "
                    f"failed with: {scores.message()}",
                    plugin=call.plugin,
                    err=scores.err,
                )
                self._observe("Score", error, start)
                return error
            self._observe_plugin(state, call.plugin, "Score", None, t0)
            raw[call.plugin] = scores
        names: _RowNames | None = None
        for call in calls:
            normalize = self._normalize.get(call.plugin)
            if normalize is None:
                continue
            if names is None:
                names = _RowNames(table.names, rows)
            score_list = NodeScoreList(names, raw[call.plugin])
            try:
                status = _as_status(
                    normalize(state, pod, score_list), call.plugin, "normalize_score"
                )
            except Exception as exc:
                status = _raised(call.plugin, "normalize_score", exc)
            if status is not None and status.code != Code.SUCCESS:
                error = Status(
                    Code.ERROR,
                    "running Normalize on Score plugins: "
                    f"plugin {_q(call.plugin)} failed with: {status.message()}",
                    plugin=call.plugin,
                    err=status.err,
                )
                self._observe("Score", error, start)
                return error
            raw[call.plugin] = np.asarray(score_list.scores, dtype=np.int64)
        outcome = ScoreOutcome(totals=np.zeros(len(rows), dtype=np.int64))
        for call in calls:
            scores = raw[call.plugin]
            bad = np.flatnonzero((scores > MAX_NODE_SCORE) | (scores < MIN_NODE_SCORE))
            if len(bad):
                error = Status(
                    Code.ERROR,
                    "applying score defaultWeights on Score plugins: "
                    f"plugin {_q(call.plugin)} returns an invalid score {int(scores[bad[0]])}, "
                    f"it should in the range of [{MIN_NODE_SCORE}, {MAX_NODE_SCORE}] "
                    "after normalizing",
                    plugin=call.plugin,
                )
                self._observe("Score", error, start)
                return error
            weighted = scores * self._weights[call.plugin]
            outcome.plugins[call.plugin] = (scores, weighted)
            outcome.totals += weighted
        self._observe("Score", None, start)
        return outcome

    # -- Reserve, Permit ---------------------------------------------------------------

    def run_reserve_plugins_reserve(
        self, state: CycleState, pod: Pod, node_name: str
    ) -> Status | None:
        """Reserve in order; stop at the first failure (the caller then unreserves)."""
        start = time.perf_counter()
        for call in self._reserve:
            try:
                status = _as_status(call.fn(state, pod, node_name), call.plugin, "reserve")
            except Exception as exc:
                status = _raised(call.plugin, "reserve", exc)
            if status is None or status.code == Code.SUCCESS:
                continue
            if status.is_rejected():
                status.with_plugin(call.plugin)
            else:
                status = _wrap_error(
                    f"running Reserve plugin {_q(call.plugin)}", status, call.plugin
                )
            self._observe("Reserve", status, start)
            return status
        self._observe("Reserve", None, start)
        return None

    def run_reserve_plugins_unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        """Unreserve of every Reserve plugin, in reverse order; failures are ignored."""
        start = time.perf_counter()
        for call in reversed(self._unreserve):
            try:
                call.fn(state, pod, node_name)
            except Exception:  # Unreserve must not fail; a plugin that raises is ignored
                continue
        self._observe("Unreserve", None, start)

    def run_permit_plugins(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        """Permit in order: a rejection or error stops; Wait makes the pod a WaitingPod."""
        start = time.perf_counter()
        waits: dict[str, float] = {}
        for call in self._permit:
            try:
                value = call.fn(state, pod, node_name)
            except Exception as exc:
                value = _raised(call.plugin, "permit", exc)
            timeout = MAX_PERMIT_TIMEOUT
            if isinstance(value, tuple) and len(value) == 2:
                value, timeout = value
                try:
                    timeout = float(timeout)
                except (TypeError, ValueError):
                    value = _bad_return(call.plugin, "permit", timeout)
            status = _as_status(value, call.plugin, "permit")
            if status is None or status.code == Code.SUCCESS:
                continue
            if status.is_rejected():
                self._observe("Permit", status, start)
                return status.with_plugin(call.plugin)
            if status.code == Code.WAIT:
                waits[call.plugin] = min(max(timeout, 0.0), MAX_PERMIT_TIMEOUT)
                continue
            error = _wrap_error(f"running Permit plugin {_q(call.plugin)}", status, call.plugin)
            self._observe("Permit", error, start)
            return error
        if waits:
            self.waiting_pods.add(WaitingPod(pod, waits, self._clock.now()))
            status = Status(
                Code.WAIT,
                "one or more plugins asked to wait and no plugin rejected pod "
                + _q(pod.metadata.name),
            )
            self._observe("Permit", status, start)
            return status
        self._observe("Permit", None, start)
        return None

    def wait_on_permit(self, pod: Pod) -> Status | None:
        """The outcome of a decided waiting pod (removing it), or None if it was not waiting.

        Call it once `get_waiting_pod(uid).status` is set (or after `expire`).
        """
        wp = self.waiting_pods.get(pod.metadata.uid)
        if wp is None:
            return None
        if wp.status is None:
            raise KubeschedError(f"pod {pod.key} is still waiting on permit")
        self.waiting_pods.remove(pod.metadata.uid)
        status = wp.status
        if status.code == Code.SUCCESS:
            return None
        if status.is_rejected():
            return status
        return Status(
            Code.ERROR, f"waiting on permit for pod: {status.message()}", plugin=status.plugin
        )

    # -- binding cycle -----------------------------------------------------------------

    def _run_bind_like(
        self,
        plan: tuple[PluginCall, ...],
        hook: str,
        title: str,
        state: CycleState,
        pod: Pod,
        node_name: str,
    ) -> Status | None:
        for call in plan:
            try:
                status = _as_status(call.fn(state, pod, node_name), call.plugin, hook)
            except Exception as exc:
                status = _raised(call.plugin, hook, exc)
            if status is None or status.code == Code.SUCCESS:
                if hook == "bind":
                    return None
                continue
            if hook == "bind" and status.code == Code.SKIP:
                continue
            if status.is_rejected():
                return status.with_plugin(call.plugin)
            return _wrap_error(f"running {title} plugin {_q(call.plugin)}", status, call.plugin)
        if hook == "bind":
            return Status(Code.SKIP)
        return None

    def run_pre_bind_plugins(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        """PreBind in order; stop at the first failure."""
        start = time.perf_counter()
        status = self._run_bind_like(self._pre_bind, "pre_bind", "PreBind", state, pod, node_name)
        self._observe("PreBind", status, start)
        return status

    def run_bind_plugins(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        """Bind plugins in order until one does not Skip; all Skip (or none) is Skip."""
        start = time.perf_counter()
        status = self._run_bind_like(self._bind, "bind", "Bind", state, pod, node_name)
        self._observe("Bind", status, start)
        return status

    def run_post_bind_plugins(self, state: CycleState, pod: Pod, node_name: str) -> None:
        """PostBind: informational, every plugin, failures ignored."""
        start = time.perf_counter()
        for call in self._post_bind:
            try:
                call.fn(state, pod, node_name)
            except Exception:  # PostBind is informational; a plugin that raises is ignored
                continue
        self._observe("PostBind", None, start)
