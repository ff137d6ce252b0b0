"""GPU sharing for kubesched: the GpuShare plugin (Filter, Reserve on per-device milli) and
the six node-scoring policies of the FGD study (Weng et al., USENIX ATC '23)."""

from kubesched_gpushare.devices import device_free
from kubesched_gpushare.frag import TypicalPod, node_fragment, target_workload
from kubesched_gpushare.plugin import GpuShare
from kubesched_gpushare.policies import (
    BestFitScore,
    DotProductScore,
    FGDScore,
    FGDScoreArgs,
    GpuClusteringScore,
    GpuPackingScore,
    RandomScore,
)
from kubesched_gpushare.policies.fgd_args import TypicalPodSpec
from kubesched_gpushare.resources import (
    GPU_COUNT,
    GPU_INDEX,
    GPU_MILLI,
    GPU_MODEL,
    MILLI,
    GpuRequest,
    GpuRequestError,
    gpu_request,
)

__all__ = [
    "GPU_COUNT",
    "GPU_INDEX",
    "GPU_MILLI",
    "GPU_MODEL",
    "MILLI",
    "BestFitScore",
    "DotProductScore",
    "FGDScore",
    "FGDScoreArgs",
    "GpuClusteringScore",
    "GpuPackingScore",
    "GpuRequest",
    "GpuRequestError",
    "GpuShare",
    "RandomScore",
    "TypicalPod",
    "TypicalPodSpec",
    "device_free",
    "gpu_request",
    "node_fragment",
    "target_workload",
]
