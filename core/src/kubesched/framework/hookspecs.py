"""The extension points: one pluggy hookspec each, with upstream's meaning.

A plugin is a class with a `name` and methods marked `@hookimpl`, named after
the points it serves. pluggy checks at registration that every hookimpl's
argument names appear in the spec; an implementation may take any subset of
them, by name. Return `None` for Success.

The runtime does not dispatch through `pm.hook`: it compiles each profile into
ordered lists of these functions (profile order, not pluggy's) and calls them
directly. The `*_batch` hooks are optional faster forms that work on the
snapshot's columnar `NodeTable`; the per-node hook stays the reference, and a
batch form must agree with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pluggy
from numpy.typing import NDArray

from kubesched.api import Pod
from kubesched.framework._cycle_state import CycleState
from kubesched.framework._events import ClusterEventWithHint
from kubesched.framework._node_table import NodeTable
from kubesched.framework._status import Status
from kubesched.framework._types import (
    NodeInfo,
    NodeScoreList,
    PodInfo,
    PostFilterResult,
    PreFilterResult,
    QueuedPodInfo,
)

PROJECT_NAME = "kubesched"
hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)


@hookspec
def queue_sort_less(pod_info_a: QueuedPodInfo, pod_info_b: QueuedPodInfo) -> bool:
    """QueueSort: True when `pod_info_a` should be scheduled before `pod_info_b`.

    Exactly one QueueSort plugin per profile, the same in every profile.
    """
    raise NotImplementedError


@hookspec
def pre_enqueue(pod: Pod) -> Status | None:
    """PreEnqueue: may the pod enter the active queue?

    Any non-success keeps the pod gated (not scheduled) until an event the
    plugin registered moves it again.
    """
    raise NotImplementedError


@hookspec
def pre_filter(
    state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
) -> Status | PreFilterResult | None:
    """PreFilter: once per cycle, before Filter; compute state, reject early, or narrow nodes.

    Return a `PreFilterResult` naming the only nodes worth filtering (results of
    several plugins are intersected), a rejecting `Status`
    (UnschedulableAndUnresolvable stops at once; Unschedulable lets the others
    run), `Status(Code.SKIP)` to skip this plugin's Filter for this pod, or
    None.
    """
    raise NotImplementedError


@hookspec
def pre_filter_add_pod(
    state: CycleState, pod_to_schedule: Pod, pod_info_to_add: PodInfo, node_info: NodeInfo
) -> Status | None:
    """PreFilter extension: update this cycle's state as if `pod_info_to_add` ran on the node.

    Used by preemption dry runs and by nominated-pod evaluation.
    """
    raise NotImplementedError


@hookspec
def pre_filter_remove_pod(
    state: CycleState, pod_to_schedule: Pod, pod_info_to_remove: PodInfo, node_info: NodeInfo
) -> Status | None:
    """PreFilter extension: update this cycle's state as if `pod_info_to_remove` were gone."""
    raise NotImplementedError


@hookspec
def filter(state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
    """Filter: can the pod run on this node?

    Reject with Unschedulable (preemption might help) or
    UnschedulableAndUnresolvable (it cannot). Plugins run in order per node
    and the first rejection wins.
    """
    raise NotImplementedError


@hookspec
def filter_batch(state: CycleState, pod: Pod, table: NodeTable) -> NDArray[np.bool_]:
    """Batch Filter (optional): a boolean mask over every row of `table`, True = passes.

    Must agree with `filter` on every node. The runtime asks `filter` (or
    `filter_batch_reasons`) for the reasons of the rejected nodes it reports.
    """
    raise NotImplementedError


@hookspec
def filter_batch_reasons(
    state: CycleState, pod: Pod, table: NodeTable, rows: NDArray[np.intp]
) -> Sequence[Status | None]:
    """Batch Filter reasons (optional, with `filter_batch`): for each of `rows` (rows
    `filter_batch` rejected), in that order, the Status `filter` returns on that row's
    node: same code, same reasons. The runtime uses it instead of calling `filter` row by
    row when it needs the reasons of many rejected nodes; a result of the wrong length, a
    raise, or a row given no rejection falls back to `filter` for those rows.
    """
    raise NotImplementedError


@hookspec
def post_filter(
    state: CycleState, pod: Pod, filtered_node_status_map: Mapping[str, Status]
) -> PostFilterResult | Status | None:
    """PostFilter: runs only when no node fits; may make room (preemption).

    Plugins run in order until one succeeds. Return a `PostFilterResult`
    with the nominated node on success, or a Status saying why not
    (Unschedulable lets the next plugin try).
    """
    raise NotImplementedError


@hookspec
def pre_score(state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status | None:
    """PreScore: once per cycle over the feasible nodes; `Status(Code.SKIP)` skips this
    plugin's Score."""
    raise NotImplementedError


@hookspec
def score(state: CycleState, pod: Pod, node_info: NodeInfo) -> int | Status:
    """Score: an integer for a feasible node (0..100 after NormalizeScore), or an error Status."""
    raise NotImplementedError


@hookspec
def score_batch(
    state: CycleState, pod: Pod, table: NodeTable, rows: NDArray[np.intp]
) -> NDArray[np.int64]:
    """Batch Score (optional): scores for `table` rows `rows`, in that order.

    Must agree with `score` on every node.
    """
    raise NotImplementedError


@hookspec
def normalize_score(state: CycleState, pod: Pod, scores: NodeScoreList) -> Status | None:
    """NormalizeScore: rescale this plugin's scores in place (`scores.scores`) to 0..100."""
    raise NotImplementedError


@hookspec
def reserve(state: CycleState, pod: Pod, node_name: str) -> Status | None:
    """Reserve: claim resources on the chosen node before binding. A failure unreserves."""
    raise NotImplementedError


@hookspec
def unreserve(state: CycleState, pod: Pod, node_name: str) -> None:
    """Unreserve: undo Reserve (runs in reverse order, for every Reserve plugin, idempotently)."""
    raise NotImplementedError


@hookspec
def permit(state: CycleState, pod: Pod, node_name: str) -> Status | tuple[Status, float] | None:
    """Permit: allow, reject, or `(Status(Code.WAIT), timeout_seconds)` to hold the pod.

    A waiting pod binds when every waiting plugin allows it (through
    `handle.get_waiting_pod(uid).allow(name)`) and is rejected on any reject or
    timeout (15 minutes at most).
    """
    raise NotImplementedError


@hookspec
def pre_bind(state: CycleState, pod: Pod, node_name: str) -> Status | None:
    """PreBind: work that must succeed before binding (e.g. provisioning)."""
    raise NotImplementedError


@hookspec
def bind(state: CycleState, pod: Pod, node_name: str) -> Status | None:
    """Bind: bind the pod, or `Status(Code.SKIP)` to leave it to the next Bind plugin."""
    raise NotImplementedError


@hookspec
def post_bind(state: CycleState, pod: Pod, node_name: str) -> None:
    """PostBind: informational, after a successful bind."""
    raise NotImplementedError


@hookspec
def events_to_register() -> Sequence[ClusterEventWithHint]:
    """EnqueueExtensions: the cluster events that may make a pod this plugin rejected
    schedulable again, each with an optional queueing hint."""
    raise NotImplementedError
