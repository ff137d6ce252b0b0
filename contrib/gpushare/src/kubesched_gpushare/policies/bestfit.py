"""BestFitScore: the node the pod leaves the least free on wins.

score = int(100 x (1 - [0.5 x (cpu free - cpu asked) / 128 cores
                        + 0.5 x (GPU milli free - GPU milli asked) / 8000]))

GPU milli are summed over the node's devices; memory is ignored. Devices:
GpuShare's "best" pick.
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


def best_fit_score(cpu_left: int, gpu_left: int) -> int:
    leftover = 0.5 * cpu_left / MAX_SPEC_CPU + 0.5 * gpu_left / MAX_SPEC_GPU
    return max(0, int((1.0 - leftover) * 100))


class BestFitScore:
    """Least leftover CPU and GPU after placement scores highest."""

    name = "BestFitScore"

    def __init__(self, args: object = None, handle: object = None) -> None:
        """No args."""

    @hookimpl
    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> int | Status:
        request = read_request(state, pod)
        if isinstance(request, Status):
            return request
        view = node_view(node_info)
        return best_fit_score(view.cpu_free - pod_cpu(pod), view.gpu_free - request.total_milli)
