"""Framework: one profile's plugins, compiled into call plans and run with upstream's semantics.

Construction loads every enabled plugin from the registry, builds it with its
args, registers it with pluggy (which validates its hookimpls against the
hookspecs) and compiles one ordered call plan per hook. Every run_* method
follows upstream's framework runtime: short-circuit rules, Skip, statuses
tagged with the plugin, and a plugin that raises or returns the wrong type
becomes an Error status naming it; the framework itself never raises for a
plugin's fault. The Filter phase lives in `filtering`, the Score phase in
`scoring`; the rest of the pipeline is here.

The Framework is also the Handle plugins receive.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence

import pluggy

from kubesched.api import Pod
from kubesched.errors import KubeschedError, PluginError
from kubesched.framework import hookspecs
from kubesched.framework._cycle_state import CycleState
from kubesched.framework._events import WILDCARD_EVENT, ClusterEventWithHint
from kubesched.framework._filtering import FilterOutcome, FilterPhase
from kubesched.framework._instrumentation import MetricsRecorder
from kubesched.framework._interface import (
    Clock,
    ClusterClient,
    EventRecorder,
    PodNominator,
    SharedLister,
)
from kubesched.framework._plans import PluginCall, compile_plan
from kubesched.framework._plugin_calls import as_status, bad_return, quote, raised, wrap_error
from kubesched.framework._profile import POINT_TITLES, EffectiveProfile
from kubesched.framework._registry import Registry, implements
from kubesched.framework._scoring import ScoreOutcome, ScorePhase
from kubesched.framework._status import Code, Status
from kubesched.framework._types import (
    MAX_NODE_SCORE,
    MAX_TOTAL_SCORE,
    NodeInfo,
    PostFilterResult,
    PreFilterResult,
    QueuedPodInfo,
)
from kubesched.framework._waiting_pods import MAX_PERMIT_TIMEOUT, WaitingPod, WaitingPodsMap

__all__ = ["FilterOutcome", "Framework", "MetricsRecorder", "ScoreOutcome"]

_EVENT_POINTS = ("preEnqueue", "preFilter", "filter", "reserve", "permit")
"""Upstream honours EnqueueExtensions only for plugins at these points."""


class _SystemClock:
    def now(self) -> float:
        return time.monotonic()


class Framework(FilterPhase, ScorePhase):
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
                status = as_status(call.fn(pod), call.plugin, "pre_enqueue")
            except Exception as exc:
                status = raised(call.plugin, "pre_enqueue", exc)
            if status is None or status.code == Code.SUCCESS:
                continue
            if status.is_rejected():
                return status.with_plugin(call.plugin)
            return wrap_error(
                f"running PreEnqueue plugin {quote(call.plugin)}", status, call.plugin
            )
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
                value = raised(call.plugin, "pre_filter", exc)
            status: Status | None
            narrowed: PreFilterResult | None = None
            if isinstance(value, PreFilterResult):
                status, narrowed = None, value
            else:
                status = as_status(value, call.plugin, "pre_filter")
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
                error = wrap_error(
                    f"running PreFilter plugin {quote(call.plugin)}", status, call.plugin
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
                value = raised(call.plugin, "post_filter", exc)
            outcome: PostFilterResult | None = None
            if isinstance(value, PostFilterResult):
                status: Status | None = None
                outcome = value
            else:
                status = as_status(value, call.plugin, "post_filter")
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

    # -- Reserve, Permit ---------------------------------------------------------------

    def run_reserve_plugins_reserve(
        self, state: CycleState, pod: Pod, node_name: str
    ) -> Status | None:
        """Reserve in order; stop at the first failure (the caller then unreserves)."""
        start = time.perf_counter()
        for call in self._reserve:
            try:
                status = as_status(call.fn(state, pod, node_name), call.plugin, "reserve")
            except Exception as exc:
                status = raised(call.plugin, "reserve", exc)
            if status is None or status.code == Code.SUCCESS:
                continue
            if status.is_rejected():
                status.with_plugin(call.plugin)
            else:
                status = wrap_error(
                    f"running Reserve plugin {quote(call.plugin)}", status, call.plugin
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
                value = raised(call.plugin, "permit", exc)
            timeout = MAX_PERMIT_TIMEOUT
            if isinstance(value, tuple) and len(value) == 2:
                value, timeout = value
                try:
                    timeout = float(timeout)
                except (TypeError, ValueError):
                    value = bad_return(call.plugin, "permit", timeout)
            status = as_status(value, call.plugin, "permit")
            if status is None or status.code == Code.SUCCESS:
                continue
            if status.is_rejected():
                self._observe("Permit", status, start)
                return status.with_plugin(call.plugin)
            if status.code == Code.WAIT:
                waits[call.plugin] = min(max(timeout, 0.0), MAX_PERMIT_TIMEOUT)
                continue
            error = wrap_error(f"running Permit plugin {quote(call.plugin)}", status, call.plugin)
            self._observe("Permit", error, start)
            return error
        if waits:
            self.waiting_pods.add(WaitingPod(pod, waits, self._clock.now()))
            status = Status(
                Code.WAIT,
                "one or more plugins asked to wait and no plugin rejected pod "
                + quote(pod.metadata.name),
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
                status = as_status(call.fn(state, pod, node_name), call.plugin, hook)
            except Exception as exc:
                status = raised(call.plugin, hook, exc)
            if status is None or status.code == Code.SUCCESS:
                if hook == "bind":
                    return None
                continue
            if hook == "bind" and status.code == Code.SKIP:
                continue
            if status.is_rejected():
                return status.with_plugin(call.plugin)
            return wrap_error(f"running {title} plugin {quote(call.plugin)}", status, call.plugin)
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
