"""QueueEntry: a pod in the scheduling queue, with the queue's bookkeeping."""

from __future__ import annotations

from kubesched.framework._types import PodInfo, QueuedPodInfo


class QueueEntry(QueuedPodInfo):
    """A QueuedPodInfo plus how often it was rejected and its cached backoff expiry."""

    __slots__ = ("backoff_expiration", "unschedulable_count")

    def __init__(self, pod_info: PodInfo, timestamp: float) -> None:
        super().__init__(pod_info, timestamp)
        self.unschedulable_count = 0
        self.backoff_expiration: float | None = None

    @property
    def uid(self) -> str:
        return self.pod_info.pod.metadata.uid

    def set_gating_plugin(self, plugin: str) -> None:
        self.gating_plugin = plugin
        self.gated = bool(plugin)

    def rejected(self) -> bool:
        """Did plugins reject it (rather than an error ending its attempt)?"""
        return bool(self.unschedulable_plugins or self.pending_plugins)
