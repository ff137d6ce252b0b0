"""Which victims a PostFilter named the cluster has really deleted: a plugin's claim is
checked, not taken on trust."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from kubesched.api import Pod
from kubesched.scheduler.snapshot import Snapshot


class PodReader(Protocol):
    """What the check reads of the cluster."""

    def pods(self) -> Sequence[Pod]: ...
    def get_pod(self, uid: str) -> Pod | None: ...


def evicted(
    cluster: PodReader, snapshot: Snapshot, claimed: Sequence[str], node_name: str
) -> list[str]:
    """The `claimed` victims (pod keys) that are gone from the cluster or being deleted.

    Each is looked up by uid among the snapshot's pods on `node_name` (where preemption
    evicts); only keys not found there make the check read every pod."""
    uids: dict[str, str] = {}
    node_info = snapshot.get(node_name) if node_name else None
    if node_info is not None:
        wanted = set(claimed)
        uids = {pi.pod.key: pi.uid for pi in node_info.pods if pi.pod.key in wanted}
    alive: set[str] = set()
    for key, uid in uids.items():
        pod = cluster.get_pod(uid)
        if pod is not None and pod.metadata.deletion_timestamp is None:
            alive.add(key)
    rest = {key.rpartition("/")[2] for key in claimed if key not in uids}
    if rest:
        named = [p for p in cluster.pods() if p.metadata.name in rest]
        alive.update(p.key for p in named if p.metadata.deletion_timestamp is None)
    return [key for key in claimed if key not in alive]
