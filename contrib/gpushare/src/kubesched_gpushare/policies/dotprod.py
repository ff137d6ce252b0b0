"""DotProductScore: Tetris-style alignment of the pod's demand with the node's free room.

With CPU and GPU milli (summed over devices) each divided by the largest
node shape (128 cores, 8000 milli):

score = int(100 x (1 - (cpu asked x cpu free + gpu asked x gpu free) / 2))

so a node with less room along the pod's demand (a tighter fit) wins.
Devices: GpuShare's "best" pick.
"""

from __future__ import annotations

from kubesched import hookimpl
from kubesched.api import Pod
from kubesched.framework import CycleState, NodeInfo, Status
from kubesched_gpushare.policies.common import (
    MAX_SPEC_CPU,
    MAX_SPEC_GPU,
    node_view,
    pod_cpu,
    read_request,
)


def dot_product_score(cpu_asked: int, cpu_free: int, gpu_asked: int, gpu_free: int) -> int:
    product = (cpu_asked / MAX_SPEC_CPU) * (cpu_free / MAX_SPEC_CPU) + (
        gpu_asked / MAX_SPEC_GPU
    ) * (gpu_free / MAX_SPEC_GPU)
    return max(0, int(100 * (1 - product / 2)))


class DotProductScore:
    """A smaller dot product of demand and free room scores higher."""

    name = "DotProductScore"

    def __init__(self, args: object = None, handle: object = None) -> None:
        """No args."""

    @hookimpl
    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> int | Status:
        request = read_request(state, pod)
        if isinstance(request, Status):
            return request
        view = node_view(node_info)
        return dot_product_score(pod_cpu(pod), view.cpu_free, request.total_milli, view.gpu_free)
