"""What the score policies (their own distributions) read of a node and a pod: free milli
per GPU, free CPU, GPU model, the pod's request; and the study's normalisers."""

from __future__ import annotations

import numpy as np
from attrs import frozen
from numpy.typing import NDArray

from kubesched.api import CPU, Pod, pod_requests
from kubesched.errors import PluginError
from kubesched.framework import CycleState, NodeInfo, NodeTable, Status
from kubesched_gpushare.devices import device_free
from kubesched_gpushare.resources import GpuRequest, GpuRequestError, node_gpu_model
from kubesched_gpushare.state import request_of

MAX_SPEC_CPU = 128_000
"""CPU milli of the largest node shape, the study's normaliser."""
MAX_SPEC_GPU = 8_000
"""GPU milli of the largest node shape (8 GPUs), the study's normaliser."""


@frozen
class NodeView:
    free: tuple[int, ...]
    cpu_free: int
    model: str

    @property
    def gpu_free(self) -> int:
        return sum(self.free)


def node_view(node_info: NodeInfo) -> NodeView:
    node = node_info.node
    cpu_free = node_info.allocatable.get(CPU, 0) - node_info.requested.get(CPU, 0)
    model = node_gpu_model(node) if node is not None else ""
    return NodeView(device_free(node_info), cpu_free, model)


def pod_cpu(pod: Pod) -> int:
    """The pod's CPU request in milli (requests equal limits in the trace)."""
    return pod_requests(pod).get(CPU, 0)


def read_request(state: CycleState, pod: Pod) -> GpuRequest | Status:
    try:
        return request_of(state, pod)
    except GpuRequestError as error:
        return Status.error(str(error))


def cpu_free_column(table: NodeTable) -> NDArray[np.int64]:
    """Allocatable minus requested CPU milli of every row."""
    free: NDArray[np.int64] = table.resource("allocatable", CPU) - table.resource("requested", CPU)
    return free


def request_or_raise(state: CycleState, pod: Pod) -> GpuRequest:
    """The pod's request in a batch hook, where a failure is raised."""
    request = read_request(state, pod)
    if isinstance(request, Status):
        raise PluginError(request.message)
    return request
