"""Queueing hints: which cluster events may make a rejected pod schedulable again.

Each profile's plugins register the events that may help the pods they
reject (EnqueueExtensions), each with an optional hint function. When an
event happens, the hints of the plugins that rejected a pod decide whether
to move it, and how (upstream's isPodWorthRequeuing).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from attrs import frozen

from kubesched.api import Pod
from kubesched.framework._events import (
    ClusterEvent,
    ClusterEventWithHint,
    QueueingHint,
    event_label,
)
from kubesched.framework._plugin_calls import PluginCall
from kubesched.scheduler.entry import QueueEntry

SKIP, AFTER_BACKOFF, IMMEDIATELY = 0, 1, 2
"""Queueing strategies: stay, requeue after backoff, requeue to activeQ now."""


@frozen
class _Registration:
    event: ClusterEvent
    plugin: str
    hint: PluginCall | None


class QueueingHints:
    """Every profile's registered events, asked when a cluster event happens."""

    def __init__(
        self,
        events: Mapping[str, Mapping[str, list[ClusterEventWithHint]]],
        observe: Callable[[str, str, str, float], None] | None = None,
    ) -> None:
        """`events`: profile name -> plugin -> the events it registered. `observe` receives
        (plugin, event, hint, seconds) of every hint run
        (scheduler_queueing_hint_execution_duration_seconds)."""
        self._observe = observe
        self._registrations: dict[str, list[_Registration]] = {
            profile: [
                _Registration(
                    ev.event,
                    plugin,
                    None if ev.hint is None else PluginCall(plugin, "queueing_hint", ev.hint),
                )
                for plugin, registered in by_plugin.items()
                for ev in registered
            ]
            for profile, by_plugin in events.items()
        }
        self._interest: dict[ClusterEvent, bool] = {}
        self._gating_interest: dict[tuple[str, str, ClusterEvent], bool] = {}
        self._by_event: dict[tuple[str, ClusterEvent], list[_Registration]] = {}

    def of_interest(self, event: ClusterEvent) -> bool:
        """Did any plugin of any profile register an event matching this one?"""
        known = self._interest.get(event)
        if known is None:
            known = self._interest[event] = event.is_wildcard() or any(
                reg.event.matches(event) for regs in self._registrations.values() for reg in regs
            )
        return known

    def worth_requeuing(self, entry: QueueEntry, event: ClusterEvent, old: Any, new: Any) -> int:
        """Upstream's isPodWorthRequeuing: ask the hints of the plugins that rejected the pod."""
        if not entry.rejected():
            return AFTER_BACKOFF
        rejectors = entry.unschedulable_plugins | entry.pending_plugins
        if event.is_wildcard():
            if new is not None and (not isinstance(new, Pod) or new.uid != entry.uid):
                return SKIP
            return AFTER_BACKOFF
        registrations = self._matching(entry.pod.spec.scheduler_name, event)
        if registrations is None:
            return AFTER_BACKOFF
        strategy = SKIP
        for reg in registrations:
            if reg.plugin not in rejectors:
                continue
            # A hint that fails (returns an error Status) must not strand the pod: Queue.
            if (
                reg.hint is not None
                and self._hint(reg, event, entry, old, new) is QueueingHint.QUEUE_SKIP
            ):
                continue
            if reg.plugin in entry.pending_plugins:
                return IMMEDIATELY
            if not entry.pending_plugins:
                return AFTER_BACKOFF
            strategy = AFTER_BACKOFF
        return strategy

    def _matching(self, profile: str, event: ClusterEvent) -> list[_Registration] | None:
        """The profile's registrations matching `event`, in registration order (None: no such
        profile). Remembered per profile and event: every event asks it of every pod."""
        key = (profile, event)
        known = self._by_event.get(key)
        if known is None:
            registrations = self._registrations.get(profile)
            if registrations is None:
                return None
            known = self._by_event[key] = [r for r in registrations if r.event.matches(event)]
        return known

    def _hint(
        self, reg: _Registration, event: ClusterEvent, entry: QueueEntry, old: Any, new: Any
    ) -> Any:
        assert reg.hint is not None
        if self._observe is None:
            return reg.hint(entry.pod, old, new)
        start = time.perf_counter()
        hint = reg.hint(entry.pod, old, new)
        name = "QueueSkip" if hint is QueueingHint.QUEUE_SKIP else "Queue"
        self._observe(reg.plugin, event_label(event), name, time.perf_counter() - start)
        return hint

    def gating_plugin_interested(self, entry: QueueEntry, event: ClusterEvent) -> bool:
        """Did the plugin gating this pod at PreEnqueue register this event?"""
        return self.gating_key_interested(entry.pod.spec.scheduler_name, entry.gating_plugin, event)

    def gating_key_interested(self, profile: str, plugin: str, event: ClusterEvent) -> bool:
        """Did this profile's `plugin` register this event? (Remembered per profile, plugin
        and event.)"""
        key = (profile, plugin, event)
        known = self._gating_interest.get(key)
        if known is None:
            registrations = self._registrations.get(profile, [])
            known = self._gating_interest[key] = any(
                reg.plugin == plugin and reg.event.matches(event) for reg in registrations
            )
        return known
