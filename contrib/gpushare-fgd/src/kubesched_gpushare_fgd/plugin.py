"""FGDScore: fragmentation gradient descent.

The pod goes where it grows the fragmentation against the target workload
the least (see `kubesched_gpushare.frag`). For node n, with F_n(M) before and
after placing the pod:

score = int(100 x sigmoid((F_before - F_after) / 1000))

A pod sharing one GPU is tried on every device with enough milli free; the
node scores its best device (the lowest-numbered on ties), which FGD records
as its choice for GpuShare's Reserve. Whole GPUs take the lowest-numbered
fully free devices (GpuShare's own pick; which ones does not change F).
The batch form computes every feasible node's candidates in a few array
operations and must agree with `score`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from kubesched import hookimpl
from kubesched.api import Pod
from kubesched.errors import PluginError
from kubesched.framework import CycleState, Handle, NodeInfo, NodeTable, Status
from kubesched_gpushare.frag import TypicalPod, target_workload
from kubesched_gpushare.published import PublishedWorkloadError, published_workload
from kubesched_gpushare.resources import GpuRequestError, gpu_request
from kubesched_gpushare.scoring import node_view, pod_cpu, read_request
from kubesched_gpushare.state import choose, choose_many
from kubesched_gpushare_fgd.args import FGDScoreArgs
from kubesched_gpushare_fgd.batch import batch_scores
from kubesched_gpushare_fgd.kernel import score_node


class FGDScore:
    """Least growth of GPU fragmentation wins (see the module docstring)."""

    name = "FGDScore"
    args_type = FGDScoreArgs
    args_kind = "FGDScoreArgs"

    def __init__(self, args: FGDScoreArgs | None, handle: Handle) -> None:
        self._args = args or FGDScoreArgs()
        self._handle = handle
        self._workload: list[TypicalPod] | None = [
            spec.typical() for spec in self._args.typical_pods
        ] or None

    @property
    def workload(self) -> list[TypicalPod]:
        """The target workload: from the args, else the one a Namespace publishes
        (`kubesched_gpushare.published`), else from the cluster's pods (once)."""
        if self._workload is None:
            try:
                self._workload = published_workload(self._handle.client.namespaces())
            except PublishedWorkloadError as exc:
                raise PluginError(f"{self.name}: {exc}") from None
        if self._workload is None:
            specs = []
            for pod in self._handle.client.pods():
                try:
                    specs.append((pod_cpu(pod), gpu_request(pod)))
                except GpuRequestError:
                    continue
            self._workload = target_workload(specs, self._args.coverage)
        return self._workload

    @hookimpl
    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> int | Status:
        request = read_request(state, pod)
        if isinstance(request, Status):
            return request
        view = node_view(node_info)
        score, device = score_node(
            view.free, view.cpu_free, view.model, pod_cpu(pod), request, self.workload
        )
        if device is not None:
            choose(state, node_info.name, (device,))
        return score

    @hookimpl
    def score_batch(
        self, state: CycleState, pod: Pod, table: NodeTable, rows: NDArray[np.intp]
    ) -> NDArray[np.int64]:
        request = read_request(state, pod)
        if isinstance(request, Status):
            raise PluginError(request.message)
        scores, devices = batch_scores(
            table, rows, pod_cpu(pod), request, self.workload, f"FGDScore/frag{id(self)}"
        )
        if request.shares:
            names = [table.names[r] for r in rows.tolist()]
            choose_many(
                state, {n: (d,) for n, d in zip(names, devices.tolist(), strict=True) if d >= 0}
            )
        return scores
