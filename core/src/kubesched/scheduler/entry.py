"""QueueEntry: a pod in the scheduling queue, with the queue's bookkeeping."""

from __future__ import annotations

from kubesched.framework._status import Status
from kubesched.framework._types import PodInfo, QueuedPodInfo


class QueueEntry(QueuedPodInfo):
    """A QueuedPodInfo plus how often it was rejected and its cached backoff expiry."""

    __slots__ = ("backoff_expiration", "gating_status", "unschedulable_count")

    def __init__(self, pod_info: PodInfo, timestamp: float) -> None:
        super().__init__(pod_info, timestamp)
        self.unschedulable_count = 0
        self.backoff_expiration: float | None = None
        self.gating_status: Status | None = None
        """Why a PreEnqueue plugin keeps the pod out of activeQ (None: it does not)."""

    @property
    def uid(self) -> str:
        return self.pod_info.pod.metadata.uid

    def set_gating(self, status: Status | None) -> None:
        """Gate the pod with a PreEnqueue plugin's non-success status, or (None) let it go."""
        self.gating_status = status
        self.gating_plugin = status.plugin if status is not None else ""
        self.gated = status is not None

    def rejected(self) -> bool:
        """Did plugins reject it (rather than an error ending its attempt)?"""
        return bool(self.unschedulable_plugins or self.pending_plugins)
