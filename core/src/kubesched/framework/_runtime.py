"""Framework: one profile's plugins, compiled into call plans and run with upstream's semantics.

Construction loads every enabled plugin from the registry, builds it with its
args, registers it with pluggy (which validates its hookimpls against the
hookspecs) and compiles one ordered call plan per hook. Every run_* method
follows upstream's framework runtime: short-circuit rules, Skip, statuses
tagged with the plugin; plugin code is only ever called through a
`PluginCall`, so a plugin that raises or returns the wrong type becomes an
Error status naming it. The phases live beside this module: `_filtering`
(PreFilter, Filter), `_scoring` (PreScore, Score), `_binding` (Reserve to
PostBind); the queue's points and PostFilter are here.

The Framework is also the Handle plugins receive.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence

import pluggy

from kubesched.api import Pod
from kubesched.errors import KubeschedError, PluginCrash, PluginError
from kubesched.features import DEFAULT_FEATURE_GATES, FeatureGates
from kubesched.framework import hookspecs
from kubesched.framework._binding import BindingPhase
from kubesched.framework._cycle_state import CycleState
from kubesched.framework._deprecations import register_plugin
from kubesched.framework._events import WILDCARD_EVENT, ClusterEventWithHint
from kubesched.framework._extender import EXTENDER_NAME, Extender
from kubesched.framework._feasible_mask import FeasibleMaskPhase
from kubesched.framework._filter_outcome import FilterOutcome
from kubesched.framework._instrumentation import MetricsRecorder
from kubesched.framework._interface import (
    Clock,
    ClusterClient,
    EventRecorder,
    PodNominator,
)
from kubesched.framework._lister import SharedLister
from kubesched.framework._plans import compile_plans
from kubesched.framework._plugin_calls import PluginCall, as_status, first_failure
from kubesched.framework._points import ENQUEUE_EXTENSIONS_HOOK, EXTENSION_POINTS, POINTS
from kubesched.framework._profile import EffectiveProfile
from kubesched.framework._registry import Registry, implements
from kubesched.framework._scoring import ScoreOutcome, ScorePhase
from kubesched.framework._status import Code, Status
from kubesched.framework._time_limit import PLUGIN_INIT_TIMEOUT, time_limit
from kubesched.framework._types import PostFilterResult, QueuedPodInfo
from kubesched.framework._waiting_pods import WaitingPod, WaitingPodsMap

__all__ = ["FilterOutcome", "Framework", "MetricsRecorder", "ScoreOutcome"]


class _SystemClock:
    def now(self) -> float:
        return time.monotonic()


class Framework(FeasibleMaskPhase, ScorePhase, BindingPhase):
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
        extenders: Sequence[Extender] = (),
        feature_gates: FeatureGates = DEFAULT_FEATURE_GATES,
    ) -> None:
        self._profile = profile
        self._feature_gates = feature_gates
        self._extenders = tuple(extenders)
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
        self._plans = compile_plans(self._pm, profile.plugins)
        self._events = self._registered_events()
        if self._extenders:
            self._events.setdefault(EXTENDER_NAME, [ClusterEventWithHint(WILDCARD_EVENT)])
        self._prepare_filter(self._plans)
        self._prepare_score(self._plans, profile.score_weights)

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
            with time_limit(PLUGIN_INIT_TIMEOUT):
                plugin = factory(self._profile.plugin_args.get(name), self)
        except KubeschedError as exc:
            raise PluginError(f"initializing {self._where(name, registry)}: {exc}") from exc
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            raise PluginCrash(
                f"initializing {self._where(name, registry)}: {type(exc).__name__}: {exc}"
            ) from exc
        for point, names in self._profile.plugins.items():
            if name in names and not implements(plugin, point):
                raise PluginError(
                    f"{self._where(name, registry)} does not extend {POINTS[point].title} plugin"
                )
        try:
            register_plugin(self._pm, plugin, name, self._where(name, registry))
            self._pm.check_pending()
        except (pluggy.PluginValidationError, ValueError) as exc:
            one_line = "; ".join(line.strip() for line in str(exc).splitlines() if line.strip())
            raise PluginError(f"{self._where(name, registry)}: {one_line}") from exc
        self.plugins[name] = plugin

    def _registered_events(self) -> dict[str, list[ClusterEventWithHint]]:
        """Per plugin at a point that honours EnqueueExtensions, the events that may requeue
        a pod it rejected; a plugin that registers none gets every event. A plugin whose
        `events_to_register` fails cannot be built (as upstream's NewFramework fails)."""
        out: dict[str, list[ClusterEventWithHint]] = {}
        for point in EXTENSION_POINTS:
            if not point.registers_events:
                continue
            for name in self._profile.plugins.get(point.name, ()):
                if name in out:
                    continue
                register = getattr(self.plugins[name], ENQUEUE_EXTENSIONS_HOOK, None)
                if register is None:
                    out[name] = [ClusterEventWithHint(WILDCARD_EVENT)]
                    continue
                events = PluginCall(name, ENQUEUE_EXTENSIONS_HOOK, register)()
                if isinstance(events, Status):
                    raise PluginError(
                        f'plugin "{name}" in profile "{self.profile_name}": {events.message}'
                    )
                try:
                    out[name] = [_event_with_hint(e) for e in events]
                except TypeError as exc:
                    raise PluginError(
                        f'plugin "{name}" in profile "{self.profile_name}": {exc}'
                    ) from None
        return out

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
    def feature_gates(self) -> FeatureGates:
        """The scheduler's feature gates; plugins read them with `enabled(name)`."""
        return self._feature_gates

    @property
    def rng(self) -> random.Random:
        """A seeded random source (the scheduler's `--seed`), for plugins that sample."""
        return self._rng

    def extenders(self) -> Sequence[Extender]:
        """The scheduler's extenders, in configuration order."""
        return self._extenders

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
        return bool(self._plans["filter"])

    def has_score_plugins(self) -> bool:
        return bool(self._plans["score"])

    def has_post_filter_plugins(self) -> bool:
        return bool(self._plans["post_filter"])

    # -- queue -------------------------------------------------------------------------

    def queue_sort_less(self, a: QueuedPodInfo, b: QueuedPodInfo) -> bool:
        """The profile's QueueSort (`a` before `b`)."""
        plan = self._plans["queue_sort_less"]
        if not plan:
            raise PluginError(f'no queue sort plugin in profile "{self.profile_name}"')
        try:
            return bool(plan[0].fn(a, b))
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # the order of the queue cannot be made up (a hang too)
            plugin = plan[0].plugin
            raise PluginCrash(
                f'QueueSort plugin "{plugin}" of profile "{self.profile_name}" failed: '
                f"{type(exc).__name__}: {exc}"
            ) from None

    def run_pre_enqueue_plugins(self, pod: Pod) -> Status | None:
        """Every PreEnqueue plugin in order; the first non-success, with its plugin."""
        return first_failure(self._plans["pre_enqueue"], "PreEnqueue", pod)

    def events_to_register(self) -> Mapping[str, list[ClusterEventWithHint]]:
        """Per plugin at PreEnqueue/PreFilter/Filter/Reserve/Permit, the events that may
        requeue a pod it rejected; a plugin that registers none gets every event."""
        return self._events

    # -- PostFilter --------------------------------------------------------------------

    def run_post_filter_plugins(
        self, state: CycleState, pod: Pod, filtered_node_status_map: Mapping[str, Status]
    ) -> tuple[PostFilterResult | None, Status]:
        """PostFilter plugins in order until one succeeds, is unresolvable or errs."""
        start = time.perf_counter()
        reasons: list[str] = []
        rejector = ""
        for call in self._plans["post_filter"]:
            value = call(state, pod, filtered_node_status_map)
            result = value if isinstance(value, PostFilterResult) else None
            status = None if result is not None else as_status(value, call.plugin, call.hook)
            if status is None or status.code == Code.SUCCESS:
                final = Status(Code.SUCCESS)
            elif status.code == Code.UNSCHEDULABLE_AND_UNRESOLVABLE:
                final = status.with_plugin(call.plugin)
            elif not status.is_rejected():
                result = None
                final = Status(Code.ERROR, *status.reasons, plugin=call.plugin, err=status.err)
            else:
                reasons.extend(status.reasons)
                rejector = rejector or call.plugin
                continue
            self._observe("PostFilter", final, start)
            return result, final
        final = Status(Code.UNSCHEDULABLE, *reasons, plugin=rejector)
        self._observe("PostFilter", final, start)
        return None, final


def _event_with_hint(event: object) -> ClusterEventWithHint:
    if not isinstance(event, ClusterEventWithHint):
        raise TypeError(
            f"events_to_register returned {type(event).__name__}, "
            "expected ClusterEventWithHint items"
        )
    return event
