"""Pods held at Permit: each waiting plugin must allow; any reject or timeout rejects.

Time is the framework clock's, so a simulation times out without waiting.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from kubesched.api import Pod
from kubesched.framework._status import Code, Status

MAX_PERMIT_TIMEOUT = 15 * 60.0
"""Upstream's maxTimeout: a Permit plugin may make a pod wait 15 minutes at most."""


def format_duration(seconds: float) -> str:
    """A duration the way Go's time.Duration prints it ("10s", "1m30s", "500ms")."""
    if seconds == 0:
        return "0s"
    if seconds < 1:
        ms = seconds * 1000
        return f"{ms:g}ms"
    minutes, secs = divmod(seconds, 60)
    hours, minutes = divmod(int(minutes), 60)
    out = ""
    if hours:
        out += f"{hours}h"
    if hours or minutes:
        out += f"{minutes}m"
    return out + f"{secs:g}s"


class WaitingPod:
    """A pod waiting at Permit (upstream's waitingPod).

    `status` is None while the pod waits; then Success (every plugin allowed)
    or Unschedulable (rejected, or a plugin's timeout passed).
    """

    __slots__ = ("_deadlines", "_pod", "_timeouts", "status")

    def __init__(self, pod: Pod, timeouts: Mapping[str, float], now: float) -> None:
        self._pod = pod
        self._timeouts = dict(timeouts)
        self._deadlines = {name: now + t for name, t in timeouts.items()}
        self.status: Status | None = None

    @property
    def pod(self) -> Pod:
        return self._pod

    def pending_plugins(self) -> list[str]:
        return list(self._deadlines)

    def deadline(self) -> float | None:
        """The earliest time a pending plugin times out; None once decided."""
        if self.status is not None or not self._deadlines:
            return None
        return min(self._deadlines.values())

    def allow(self, plugin: str) -> None:
        """`plugin` allows the pod; the last pending plugin to allow lets it bind."""
        if self.status is not None:
            return
        self._deadlines.pop(plugin, None)
        if not self._deadlines:
            self.status = Status(Code.SUCCESS)

    def reject(self, plugin: str, message: str) -> bool:
        """Reject the pod; False when it was already decided."""
        if self.status is not None:
            return False
        self.status = Status(Code.UNSCHEDULABLE, message, plugin=plugin)
        self._deadlines.clear()
        return True

    def expire(self, now: float) -> bool:
        """Reject on the first plugin whose timeout has passed; True if that happened."""
        for name, deadline in sorted(self._deadlines.items(), key=lambda kv: kv[1]):
            if deadline <= now:
                waited = format_duration(self._timeouts[name])
                return self.reject(
                    name, f"rejected due to timeout after waiting {waited} at plugin {name}"
                )
        return False


class WaitingPodsMap:
    """uid -> WaitingPod, shared by every profile's framework (as upstream)."""

    def __init__(self) -> None:
        self._pods: dict[str, WaitingPod] = {}

    def add(self, wp: WaitingPod) -> None:
        self._pods[wp.pod.metadata.uid] = wp

    def remove(self, uid: str) -> None:
        self._pods.pop(uid, None)

    def get(self, uid: str) -> WaitingPod | None:
        return self._pods.get(uid)

    def __iter__(self) -> Iterator[WaitingPod]:
        return iter(list(self._pods.values()))

    def __len__(self) -> int:
        return len(self._pods)
