"""The GpuShare plugin: Filter on GPU count, card model and free milli per device; Reserve
assigns devices and records them on the pod.

After Open-Gpu-Share, the GPU-sharing plugin of the FGD study's simulator.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from kubesched import hookimpl
from kubesched.api import Pod
from kubesched.framework import (
    Code,
    CycleState,
    Handle,
    NodeInfo,
    NodeTable,
    PreFilterResult,
    Status,
)
from kubesched_gpushare.args import GpuShareArgs
from kubesched_gpushare.devices import (
    MAX_GPUS,
    device_free,
    free_rank_matrix,
    gpu_counts,
    gpu_models,
)
from kubesched_gpushare.resources import (
    GPU_INDEX,
    GpuRequest,
    GpuRequestError,
    best_devices,
    fitting,
    format_indices,
    gpu_request,
    node_gpu_model,
)
from kubesched_gpushare.state import REQUEST_KEY, RequestState, chosen, request_of

NAME = "GpuShare"
REASON_NO_GPU = "node(s) had no GPU"
REASON_MODEL = "node(s) had no GPU of the requested card model"
REASON_TOO_FEW = "node(s) had fewer GPUs than requested"
REASON_NO_ROOM = "node(s) did not have enough GPUs with the requested milli free"


def check(request: GpuRequest, model: str, free: tuple[int, ...]) -> Status | None:
    """The Filter verdict for a node with GPUs of `model` and these free milli."""
    if request.count == 0:
        return None
    if not free:
        return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_NO_GPU)
    if not request.accepts(model):
        return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_MODEL)
    if len(free) < request.count:
        return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_TOO_FEW)
    if len(fitting(free, request)) < request.count:
        return Status(Code.UNSCHEDULABLE, REASON_NO_ROOM)
    return None


class GpuShare:
    """GPU sharing: Filter and Reserve on per-device milli (see the module docstring)."""

    name = NAME
    args_type = GpuShareArgs
    args_kind = "GpuShareArgs"

    def __init__(self, args: GpuShareArgs | None = None, handle: Handle | None = None) -> None:
        self._args = args or GpuShareArgs()
        self._handle = handle

    @hookimpl
    def pre_filter(self, state: CycleState, pod: Pod) -> Status | PreFilterResult | None:
        """Read the pod's GPU annotations once (unreadable ones make the pod unschedulable);
        with `narrowNodes`, name the nodes with room for its GPUs."""
        try:
            request = gpu_request(pod)
        except GpuRequestError as error:
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, str(error))
        state.write(REQUEST_KEY, RequestState(request))
        if not self._args.narrow_nodes or request.count == 0 or self._handle is None:
            return None
        table = self._handle.snapshot_shared_lister().node_table
        mask = self.filter_batch(state, pod, table)
        return PreFilterResult(frozenset(table.names[r] for r in np.flatnonzero(mask).tolist()))

    @hookimpl
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        node = node_info.node
        if node is None:
            return Status.error("invalid nodeInfo")
        return check(request_of(state, pod), node_gpu_model(node), device_free(node_info))

    @hookimpl
    def filter_batch(self, state: CycleState, pod: Pod, table: NodeTable) -> NDArray[np.bool_]:
        """The same verdicts over every row, from the rank columns of free milli."""
        request = request_of(state, pod)
        if request.count == 0:
            return np.ones(len(table), dtype=np.bool_)
        if request.count > MAX_GPUS:
            return np.zeros(len(table), dtype=np.bool_)
        ok: NDArray[np.bool_] = free_rank_matrix(table)[:, request.count - 1] >= request.milli
        if request.models:
            ok &= np.isin(gpu_models(table), list(request.models))
        over = gpu_counts(table) > MAX_GPUS
        if over.any():
            for row in np.flatnonzero(over):
                ni = table.node_infos[row]
                ok[row] = check(request, gpu_models(table)[row], device_free(ni)) is None
        return ok

    @hookimpl
    def reserve(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        """Give the pod the devices its policy chose on this node (the "best" ones when none
        did) and record them in its `alibabacloud.com/gpu-index` annotation."""
        request = request_of(state, pod)
        if request.count == 0:
            return None
        node_info = self._node_info(node_name)
        if node_info is None:
            return Status.error(f"node {node_name} not found in the snapshot")
        free = device_free(node_info)
        devices = chosen(state, node_name)
        if devices is None or not _fits(free, request, devices):
            devices = best_devices(free, request)
        if devices is None:
            return Status(Code.UNSCHEDULABLE, REASON_NO_ROOM)
        pod.metadata.annotations[GPU_INDEX] = format_indices(devices)
        return None

    @hookimpl
    def unreserve(self, pod: Pod) -> None:
        """Forget the devices recorded on the pod."""
        pod.metadata.annotations.pop(GPU_INDEX, None)

    def _node_info(self, node_name: str) -> NodeInfo | None:
        if self._handle is None:
            return None
        return self._handle.snapshot_shared_lister().get(node_name)


def _fits(free: tuple[int, ...], request: GpuRequest, devices: tuple[int, ...]) -> bool:
    return (
        len(devices) == request.count
        and len(set(devices)) == len(devices)
        and all(0 <= i < len(free) and free[i] >= request.milli for i in devices)
    )
